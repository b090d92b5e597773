import { Router } from 'express';
import type { components } from '@payment-qr/contract';
import type { Services } from '../../../app/services.js';
import { retryDelivery, rotateWebhookSecret, sendTestEvent, updateWebhook } from '../../../app/webhook-management.js';
import { jsonResponse } from '../errors.js';
import { idempotentMutation } from '../idempotency.js';
import { toDeliveryBody, toWebhookBody } from '../mappers.js';
import { auditOf, merchantOf } from '../request-context.js';
import { unknownWhenUnstorable } from './path-ids.js';

type Schemas = components['schemas'];

const webhookIdOf = (req: { params: Record<string, unknown> }): string => String(req.params.webhook_id);

/** Self-service on an endpoint: change it, rotate its secret, send it a test, deliver an event again. */
export function webhookManagementRoutes(s: Services): Router {
  const router = Router();
  unknownWhenUnstorable(router, { webhook_id: 'webhook_not_found', delivery_id: 'delivery_not_found' });

  router.patch('/webhooks/:webhook_id', async (req, res) => {
    const body = req.body as Schemas['UpdateWebhookRequest'];
    res.json(toWebhookBody(await updateWebhook(s, merchantOf(res), webhookIdOf(req), body, auditOf(res))));
  });

  router.post(
    '/webhooks/:webhook_id/rotate-secret',
    idempotentMutation(s, 'rotateWebhookSecret', async ({ tx, merchant, audit }, req) => {
      const body = (req.body ?? {}) as Schemas['RotateWebhookSecretRequest'];
      const secret = await rotateWebhookSecret(tx, s, merchant, webhookIdOf(req), body.expire_previous_in_seconds, audit);
      return jsonResponse(200, { secret } satisfies Schemas['WebhookSecret']);
    }),
  );

  router.post(
    '/webhooks/:webhook_id/test',
    idempotentMutation(s, 'sendWebhookTest', async ({ tx, merchant, audit }, req) =>
      jsonResponse(200, toDeliveryBody(await sendTestEvent(tx, s, merchant, webhookIdOf(req), audit))),
    ),
  );

  router.post(
    '/webhooks/:webhook_id/deliveries/:delivery_id/retry',
    idempotentMutation(s, 'retryWebhookDelivery', async ({ tx, merchant, audit }, req) =>
      jsonResponse(200, toDeliveryBody(await retryDelivery(tx, s, merchant, webhookIdOf(req), String(req.params.delivery_id), audit))),
    ),
  );

  return router;
}
