import { notFound } from '../domain/errors.js';
import type { EventPayload } from '../domain/events.js';
import type { Merchant } from '../domain/merchant.js';
import type { Page, PageRequest } from '../domain/page.js';
import { EVENT_RETENTION_MS } from '../domain/webhook-management.js';
import type { EventFilter } from '../ports/repositories.js';
import type { Services } from './services.js';

export const listEvents = (s: Services, merchant: Merchant, filter: EventFilter, page: PageRequest): Promise<Page<EventPayload>> =>
  s.uow.repos.eventLog.list(merchant.id, filter, page);

export async function retrieveEvent(s: Services, merchant: Merchant, id: string): Promise<EventPayload> {
  return (await s.uow.repos.eventLog.find(merchant.id, id)) ?? Promise.reject(notFound('event_not_found', id));
}

const PURGE_BATCH = 1_000;
const MAX_BATCHES_PER_SWEEP = 10;

/** One retention sweep: events past 30 days go (a bounded amount per sweep), and so do rotated-out secrets past expiry. */
export async function purgeExpiredWebhookData(s: Services): Promise<void> {
  const now = s.clock.now();
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS);
  for (let batch = 0; batch < MAX_BATCHES_PER_SWEEP; batch++) {
    if ((await s.uow.repos.eventLog.purgeOlderThan(cutoff, PURGE_BATCH)) < PURGE_BATCH) break;
  }
  await s.uow.repos.webhooks.forgetExpiredSecrets(now);
}
