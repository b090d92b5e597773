import type { AuditContext } from '../domain/audit.js';
import { DomainError, notFound } from '../domain/errors.js';
import { isEventKind, type EventKind } from '../domain/events.js';
import type { Merchant } from '../domain/merchant.js';
import type { Page, PageRequest } from '../domain/page.js';
import { assertRoomForWebhook, assertWebhookSecret, assertWebhookUrlLength, type Delivery, type Webhook } from '../domain/webhook.js';
import type { Repositories } from '../ports/repositories.js';
import { recordAudit } from './audit.js';
import type { Services } from './services.js';

export interface WebhookRegistration {
  url: string;
  events: string[];
  secret?: string;
}

export function subscribedKinds(events: string[]): EventKind[] {
  const unknown = events.find((kind) => !isEventKind(kind));
  if (events.length === 0 || unknown !== undefined || new Set(events).size !== events.length) {
    const problem = unknown !== undefined ? `'${unknown}' is not an event kind` : 'it must be a non-empty list without repeats';
    throw new DomainError('invalid_request', `events: ${problem}.`, 'events');
  }
  return events as EventKind[];
}

/**
 * Registers an endpoint, within the merchant's limit even when registrations race. The URL is checked (DNS included,
 * before the lock is taken) but never called; the secret is stored, never returned. Audited as `context`'s doing.
 */
export async function registerWebhook(
  tx: Repositories,
  s: Services,
  merchant: Merchant,
  request: WebhookRegistration,
  context: AuditContext,
): Promise<Webhook> {
  const events = subscribedKinds(request.events);
  if (request.secret !== undefined) assertWebhookSecret(request.secret);
  assertWebhookUrlLength(request.url);
  await s.webhooks.urlGuard.assertDeliverable(request.url);
  assertRoomForWebhook(await tx.webhooks.countForRegistration(merchant.id));
  const webhook: Webhook = { id: s.ids.next('webhook'), merchantId: merchant.id, url: request.url, events, status: 'active', createdAt: s.clock.now() };
  await tx.webhooks.insert(webhook, request.secret ?? s.ids.webhookSecret());
  await recordAudit(tx, s, context, merchant.id, 'webhook_created', webhook.id, { url: webhook.url, events: events.join(',') });
  return webhook;
}

export const listWebhooks = (s: Services, merchant: Merchant, page: PageRequest): Promise<Page<Webhook>> => s.uow.repos.webhooks.list(merchant.id, page);

export async function retrieveWebhook(s: Services, merchant: Merchant, id: string): Promise<Webhook> {
  return (await s.uow.repos.webhooks.findById(merchant.id, id)) ?? Promise.reject(notFound('webhook_not_found', id));
}

/** Deleted webhooks receive nothing more; their id answers 404 from then on. */
export async function deleteWebhook(s: Services, merchant: Merchant, id: string, context: AuditContext): Promise<void> {
  await s.uow.run(async (tx) => {
    if (!(await tx.webhooks.delete(merchant.id, id))) throw notFound('webhook_not_found', id);
    await recordAudit(tx, s, context, merchant.id, 'webhook_deleted', id);
  });
}

/** The endpoint's secret; each reveal is audited, in a short transaction of its own, although nothing else changes. */
export async function webhookSecret(s: Services, merchant: Merchant, id: string, context: AuditContext): Promise<string> {
  return s.uow.run(async (tx) => {
    const secret = await tx.webhooks.secretOf(merchant.id, id);
    if (secret === null) throw notFound('webhook_not_found', id);
    await recordAudit(tx, s, context, merchant.id, 'webhook_secret_revealed', id);
    return secret;
  });
}

export async function listDeliveries(s: Services, merchant: Merchant, webhookId: string, page: PageRequest): Promise<Page<Delivery>> {
  await retrieveWebhook(s, merchant, webhookId);
  return s.uow.repos.deliveries.list(merchant.id, webhookId, page);
}
