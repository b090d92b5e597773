import type { AuditContext } from '../domain/audit.js';
import { notFound } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import { testEvent } from '../domain/test-event.js';
import { assertWebhookUrlLength, type Delivery, type Webhook, type WebhookStatus } from '../domain/webhook.js';
import { earlierSecretsAfterRotation, previousSecretExpiry } from '../domain/webhook-management.js';
import type { Repositories, WebhookChanges } from '../ports/repositories.js';
import { recordAudit } from './audit.js';
import type { Services } from './services.js';
import { retrieveWebhook, subscribedKinds } from './webhooks.js';

export interface WebhookUpdate {
  url?: string;
  events?: string[];
  status?: WebhookStatus;
}

/**
 * Changes the URL (checked as at registration), the kinds, or the status; `active` re-enables one a 410 disabled.
 * A change is audited as `context`'s doing; a request that changes nothing is not.
 */
export async function updateWebhook(s: Services, merchant: Merchant, id: string, update: WebhookUpdate, context: AuditContext): Promise<Webhook> {
  const changes: WebhookChanges = {};
  if (update.events !== undefined) changes.events = subscribedKinds(update.events);
  if (update.url !== undefined) {
    assertWebhookUrlLength(update.url);
    await retrieveWebhook(s, merchant, id); // an unknown id is 404 before its URL is looked up
    await s.webhooks.urlGuard.assertDeliverable(update.url);
    changes.url = update.url;
  }
  if (update.status !== undefined) changes.status = update.status;
  if (Object.keys(changes).length === 0) return retrieveWebhook(s, merchant, id);
  return s.uow.run(async (tx) => {
    const updated = await tx.webhooks.update(merchant.id, id, changes);
    if (!updated) throw notFound('webhook_not_found', id);
    await recordAudit(tx, s, context, merchant.id, 'webhook_updated', id, {
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.events !== undefined ? { events: changes.events.join(',') } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
    });
    return updated;
  });
}

/**
 * A new secret, answered once. The one it replaces keeps signing beside it until it expires, as do the earlier ones
 * still within their own windows (at most three signatures: past that the oldest is dropped); then they are forgotten.
 */
export async function rotateWebhookSecret(
  tx: Repositories,
  s: Services,
  merchant: Merchant,
  id: string,
  expirePreviousInSeconds: number | undefined,
  context: AuditContext,
): Promise<string> {
  const now = s.clock.now();
  const replacedExpiresAt = previousSecretExpiry(expirePreviousInSeconds, now);
  const current = await tx.webhooks.secretsForRotation(merchant.id, id);
  if (!current) throw notFound('webhook_not_found', id);
  const secret = s.ids.webhookSecret();
  await tx.webhooks.replaceSecrets(id, secret, earlierSecretsAfterRotation(current.secret, current.earlier, replacedExpiresAt, now));
  await recordAudit(tx, s, context, merchant.id, 'webhook_secret_rotated', id, { previous_expires_at: replacedExpiresAt?.toISOString() ?? null });
  return secret;
}

/** A signed `webhook.test` event to this endpoint only: never fanned out, never listed by the events API. */
export async function sendTestEvent(tx: Repositories, s: Services, merchant: Merchant, id: string, context: AuditContext): Promise<Delivery> {
  const webhook = await tx.webhooks.findById(merchant.id, id);
  if (!webhook) throw notFound('webhook_not_found', id);
  const now = s.clock.now();
  const event = testEvent(s.ids.next('event'), webhook, now);
  const delivery: Delivery = {
    id: s.ids.next('delivery'),
    merchantId: merchant.id,
    webhookId: webhook.id,
    eventId: event.id,
    eventKind: event.kind,
    status: 'pending',
    attempts: 0,
    lastResponseStatus: null,
    lastError: null,
    nextAttemptAt: now,
    deliveredAt: null,
    createdAt: now,
  };
  await tx.deliveries.queueTest(event, delivery);
  await recordAudit(tx, s, context, merchant.id, 'webhook_test_sent', webhook.id, { delivery_id: delivery.id });
  return delivery;
}

/** Delivers the event again now, also after `failed`: the same delivery, so the same `webhook-id`. */
export async function retryDelivery(
  tx: Repositories,
  s: Services,
  merchant: Merchant,
  webhookId: string,
  deliveryId: string,
  context: AuditContext,
): Promise<Delivery> {
  if (!(await tx.webhooks.findById(merchant.id, webhookId))) throw notFound('webhook_not_found', webhookId);
  const delivery = await tx.deliveries.redeliver(merchant.id, webhookId, deliveryId, s.clock.now());
  if (!delivery) throw notFound('delivery_not_found', deliveryId);
  await recordAudit(tx, s, context, merchant.id, 'delivery_retried', deliveryId, { webhook_id: webhookId });
  return delivery;
}
