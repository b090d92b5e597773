import { Router, type Request, type Response } from 'express';
import type { Services } from '../../app/services.js';
import { retryDelivery, rotateWebhookSecret, sendTestEvent, updateWebhook } from '../../app/webhook-management.js';
import { deleteWebhook, listDeliveries, listWebhooks, registerWebhook, retrieveWebhook, webhookSecret } from '../../app/webhooks.js';
import { eventKinds } from '../../domain/events.js';
import type { Delivery, Webhook } from '../../domain/webhook.js';
import { developerTabs, overlapOf, overlapOptions } from './developer-tabs.js';
import { formatDateTime } from '../pages/people-formats.js';
import { field } from './forms.js';
import { commonView, DASHBOARD_BASE, renderTemplate, sendPage, sendRefusal } from './layout.js';
import { fill, type Messages } from './messages.js';
import { plainId } from './path-ids.js';
import { problemOf, type Problem } from './problems.js';
import { signedIn } from './request-context.js';
import { requireAbility } from './session.js';

const WEBHOOKS = '/developers/webhooks';
const DELIVERIES_SHOWN = 50;

/** The event kinds ticked in a form (each checkbox sends `events`; express gives one value as text, several as a list). */
function pickedKinds(req: Request): string[] {
  const sent = (req.body as Record<string, unknown> | undefined)?.events;
  const values = Array.isArray(sent) ? sent : sent === undefined ? [] : [sent];
  return values.filter((value): value is string => typeof value === 'string');
}

const kindChoices = (picked: readonly string[]) => eventKinds.map((kind) => ({ kind, checked: picked.includes(kind) }));

/** What a page says after an action that redirects back to it (`?done=`): only these words, never the query's text. */
const doneNotices = (t: Messages, done: unknown, id: unknown): string | null => {
  const notices: Record<string, string> = {
    created: t.developers.webhookCreated,
    saved: t.developers.saved,
    disabled: t.developers.disabled,
    enabled: t.developers.enabled,
    tested: t.developers.tested,
    removed: t.developers.removed,
    retried: fill(t.developers.retried, { id: typeof id === 'string' && /^[\w]{1,64}$/.test(id) ? id : '' }),
  };
  return typeof done === 'string' ? (notices[done] ?? null) : null;
};

const deliveryStatus = (t: Messages, delivery: Delivery) =>
  ({ pending: t.developers.deliveryPending, delivered: t.developers.deliveryDelivered, failed: t.developers.deliveryFailed })[delivery.status];

interface Extra {
  error?: Problem;
  secret?: { intro: string; value: string };
  form?: { url: string; events: string[] };
}

/**
 * Webhooks: the merchant's endpoints, one page each to edit, disable or enable, send a test, rotate or reveal the
 * secret, and see the deliveries with their attempts (Retry). Reading needs `webhooks:read`; every change
 * `webhooks:write`, through the use cases the API calls, audited as the member's doing.
 */
export function webhookRoutes(s: Services): Router {
  const router = Router();
  router.param('webhookId', plainId);
  router.param('deliveryId', plainId);
  const mayRead = requireAbility('webhooks:read');
  const mayWrite = requireAbility('webhooks:write');

  async function listPage(req: Request, res: Response, extra: Extra = {}) {
    const { t } = commonView(req);
    const webhooks = await listWebhooks(s, signedIn(req).merchant, { limit: 100, offset: 0 });
    const body = renderTemplate(req, 'webhooks', {
      tabs: developerTabs(req, 'webhooks'),
      notice: doneNotices(t, req.query.done, req.query.id),
      error: extra.error ?? null,
      webhooks: webhooks.items.map((webhook) => ({
        id: webhook.id,
        url: webhook.url,
        events: webhook.events.join(', '),
        status: webhook.status === 'active' ? t.developers.webhookActive : t.developers.webhookDisabled,
        href: `${DASHBOARD_BASE}${WEBHOOKS}/${webhook.id}`,
      })),
      form: { url: extra.form?.url ?? '', kinds: kindChoices(extra.form?.events ?? []) },
    });
    sendPage(req, res, { title: t.developers.webhooksTitle, active: 'developers', body, status: extra.error?.status });
  }

  async function webhookPage(req: Request, res: Response, webhook: Webhook, extra: Extra = {}) {
    const { t, lang } = commonView(req);
    const deliveries = await listDeliveries(s, signedIn(req).merchant, webhook.id, { limit: DELIVERIES_SHOWN, offset: 0 });
    const body = renderTemplate(req, 'webhook', {
      tabs: developerTabs(req, 'webhooks'),
      notice: doneNotices(t, req.query.done, req.query.id),
      error: extra.error ?? null,
      secret: extra.secret ?? null,
      webhook: {
        id: webhook.id,
        url: extra.form?.url ?? webhook.url,
        active: webhook.status === 'active',
        status: webhook.status === 'active' ? t.developers.webhookActive : t.developers.webhookDisabled,
        created: formatDateTime(lang, webhook.createdAt),
      },
      kinds: kindChoices(extra.form?.events ?? webhook.events),
      windows: overlapOptions(req, '24h'),
      action: `${DASHBOARD_BASE}${WEBHOOKS}/${webhook.id}`,
      deliveries: deliveries.items.map((delivery) => ({
        id: delivery.id,
        eventId: delivery.eventId,
        kind: delivery.eventKind,
        status: deliveryStatus(t, delivery),
        statusKey: delivery.status,
        attempts: delivery.attempts,
        // An HTTP status as it came; no answer at all is said in the page's language, the sender's English in brackets.
        response: delivery.lastResponseStatus ?? (delivery.lastError ? null : '–'),
        noAnswer: delivery.lastResponseStatus === null && delivery.lastError ? { detail: delivery.lastError } : null,
        created: formatDateTime(lang, delivery.createdAt),
        next: delivery.status === 'pending' && delivery.nextAttemptAt ? formatDateTime(lang, delivery.nextAttemptAt) : null,
      })),
    });
    const title = fill(t.developers.webhookTitle, { id: webhook.id });
    sendPage(req, res, { title, active: 'developers', body, status: extra.error?.status });
  }

  /** Runs one action on the webhook of the path; a refusal shows its page again with why (404 when there is none). */
  const onWebhook =
    (action: (req: Request, res: Response, webhookId: string) => Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      const webhookId = String(req.params.webhookId);
      try {
        await action(req, res, webhookId);
      } catch (error) {
        const problem = problemOf(req, error);
        const webhook = await retrieveWebhook(s, signedIn(req).merchant, webhookId).catch(() => null);
        if (!webhook) return sendRefusal(req, res, 404, 'notFound');
        await webhookPage(req, res, webhook, {
          error: problem,
          form: req.path.endsWith('/edit') ? { url: field(req, 'url'), events: pickedKinds(req) } : undefined,
        });
      }
    };

  const back = (res: Response, webhookId: string, done: string, id?: string) =>
    res.redirect(303, `${DASHBOARD_BASE}${WEBHOOKS}/${webhookId}?done=${done}${id ? `&id=${encodeURIComponent(id)}` : ''}`);

  router.get(WEBHOOKS, mayRead, (req, res) => listPage(req, res));

  router.post(WEBHOOKS, mayWrite, async (req, res) => {
    const context = signedIn(req);
    const form = { url: field(req, 'url').trim(), events: pickedKinds(req) };
    try {
      const webhook = await s.uow.run((tx) => registerWebhook(tx, s, context.merchant, form, context.audit));
      back(res, webhook.id, 'created');
    } catch (error) {
      await listPage(req, res, { error: problemOf(req, error), form });
    }
  });

  router.get(`${WEBHOOKS}/:webhookId`, mayRead, async (req, res) => {
    const webhook = await retrieveWebhook(s, signedIn(req).merchant, String(req.params.webhookId)).catch(() => null);
    if (!webhook) return sendRefusal(req, res, 404, 'notFound');
    await webhookPage(req, res, webhook);
  });

  router.post(
    `${WEBHOOKS}/:webhookId/edit`,
    mayWrite,
    onWebhook(async (req, res, id) => {
      const context = signedIn(req);
      await updateWebhook(s, context.merchant, id, { url: field(req, 'url').trim(), events: pickedKinds(req) }, context.audit);
      back(res, id, 'saved');
    }),
  );

  router.post(
    `${WEBHOOKS}/:webhookId/status`,
    mayWrite,
    onWebhook(async (req, res, id) => {
      const context = signedIn(req);
      const status = field(req, 'status');
      if (status !== 'active' && status !== 'disabled') return sendRefusal(req, res, 400, 'formExpired');
      await updateWebhook(s, context.merchant, id, { status }, context.audit);
      back(res, id, status === 'active' ? 'enabled' : 'disabled');
    }),
  );

  router.post(
    `${WEBHOOKS}/:webhookId/test`,
    mayWrite,
    onWebhook(async (req, res, id) => {
      const context = signedIn(req);
      await s.uow.run((tx) => sendTestEvent(tx, s, context.merchant, id, context.audit));
      back(res, id, 'tested');
    }),
  );

  router.post(
    `${WEBHOOKS}/:webhookId/secret`,
    mayWrite,
    onWebhook(async (req, res, id) => {
      const context = signedIn(req);
      const secret = await webhookSecret(s, context.merchant, id, context.audit);
      await webhookPage(req, res, await retrieveWebhook(s, context.merchant, id), {
        secret: { intro: commonView(req).t.developers.secretShown, value: secret },
      });
    }),
  );

  router.post(
    `${WEBHOOKS}/:webhookId/rotate`,
    mayWrite,
    onWebhook(async (req, res, id) => {
      const context = signedIn(req);
      const window = overlapOf(field(req, 'window'));
      if (window === null) return sendRefusal(req, res, 400, 'formExpired');
      const secret = await s.uow.run((tx) => rotateWebhookSecret(tx, s, context.merchant, id, window, context.audit));
      await webhookPage(req, res, await retrieveWebhook(s, context.merchant, id), { secret: { intro: commonView(req).t.developers.rotated, value: secret } });
    }),
  );

  router.post(
    `${WEBHOOKS}/:webhookId/delete`,
    mayWrite,
    onWebhook(async (req, res, id) => {
      const context = signedIn(req);
      await deleteWebhook(s, context.merchant, id, context.audit);
      res.redirect(303, `${DASHBOARD_BASE}${WEBHOOKS}?done=removed`);
    }),
  );

  router.post(
    `${WEBHOOKS}/:webhookId/deliveries/:deliveryId/retry`,
    mayWrite,
    onWebhook(async (req, res, id) => {
      const context = signedIn(req);
      const delivery = await s.uow.run((tx) => retryDelivery(tx, s, context.merchant, id, String(req.params.deliveryId), context.audit));
      back(res, id, 'retried', delivery.id);
    }),
  );

  return router;
}
