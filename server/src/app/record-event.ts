import type { DomainEvent } from '../domain/events.js';
import type { Repositories } from '../ports/repositories.js';
import type { Services } from './services.js';

/** Writes an event to the outbox and fans it out, in the caller's transaction, to every subscribed active webhook. */
export async function recordEvent(tx: Repositories, s: Services, event: DomainEvent): Promise<void> {
  await tx.events.insert(event);
  const webhooks = await tx.webhooks.activeSubscribedTo(event.merchantId, event.kind);
  await tx.deliveries.insertMany(
    webhooks.map((webhook) => ({
      id: s.ids.next('delivery'),
      merchantId: event.merchantId,
      webhookId: webhook.id,
      eventId: event.id,
      eventKind: event.kind,
      status: 'pending',
      attempts: 0,
      lastResponseStatus: null,
      lastError: null,
      nextAttemptAt: event.createdAt,
      deliveredAt: null,
      createdAt: event.createdAt,
    })),
  );
}
