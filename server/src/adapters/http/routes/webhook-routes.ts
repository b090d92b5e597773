import { Router } from 'express';
import type { components } from '@payment-qr/contract';
import type { Services } from '../../../app/services.js';
import { deleteWebhook, listDeliveries, listWebhooks, registerWebhook, retrieveWebhook, webhookSecret } from '../../../app/webhooks.js';
import { jsonResponse } from '../errors.js';
import { idempotentMutation } from '../idempotency.js';
import { pageRequestOf } from '../list-query.js';
import { toDeliveryBody, toListBody, toWebhookBody } from '../mappers.js';
import { auditOf, merchantOf } from '../request-context.js';
import { unknownWhenUnstorable } from './path-ids.js';

type Schemas = components['schemas'];

// Nothing to configure yet: the use cases find the URL guard and the queue in Services.
export type WebhookRouteDeps = Record<string, never>;

const webhookIdOf = (req: { params: Record<string, unknown> }): string => String(req.params.webhook_id);

/** Registration, listing, secrets and delivery history. Thin: parse, call one use case, answer. */
export function webhookRoutes(s: Services, _deps: WebhookRouteDeps): Router {
  const router = Router();
  unknownWhenUnstorable(router, { webhook_id: 'webhook_not_found' });

  router.post(
    '/webhooks',
    idempotentMutation(s, 'createWebhook', async ({ tx, merchant, audit }, req) => {
      const body = req.body as Schemas['CreateWebhookRequest'];
      const webhook = await registerWebhook(tx, s, merchant, { url: body.url, events: body.events, secret: body.secret }, audit);
      return jsonResponse(200, toWebhookBody(webhook));
    }),
  );

  router.get('/webhooks', async (req, res) => {
    const page = pageRequestOf(req);
    res.json(toListBody('webhooks', await listWebhooks(s, merchantOf(res), page), page, toWebhookBody) satisfies Schemas['WebhookList']);
  });

  router.get('/webhooks/:webhook_id', async (req, res) => {
    res.json(toWebhookBody(await retrieveWebhook(s, merchantOf(res), webhookIdOf(req))));
  });

  router.delete('/webhooks/:webhook_id', async (req, res) => {
    const id = webhookIdOf(req);
    await deleteWebhook(s, merchantOf(res), id, auditOf(res));
    res.json({ webhook_id: id, deleted: true } satisfies Schemas['DeletedWebhook']);
  });

  router.get('/webhooks/:webhook_id/secret', async (req, res) => {
    res.json({ secret: await webhookSecret(s, merchantOf(res), webhookIdOf(req), auditOf(res)) } satisfies Schemas['WebhookSecret']);
  });

  router.get('/webhooks/:webhook_id/deliveries', async (req, res) => {
    const page = pageRequestOf(req);
    const deliveries = await listDeliveries(s, merchantOf(res), webhookIdOf(req), page);
    res.json(toListBody('deliveries', deliveries, page, toDeliveryBody) satisfies Schemas['WebhookDeliveryList']);
  });

  return router;
}
