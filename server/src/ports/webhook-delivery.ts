import type { MerchantShare } from '../domain/delivery-fairness.js';
import type { AttemptOutcome, AttemptResult } from '../domain/delivery-schedule.js';

/** A webhook URL whose host passed the address check, with the address it resolved to. */
export interface DeliverableUrl {
  url: string;
  /** The checked address: the sender connects here, so a second DNS answer cannot point elsewhere. */
  address: string;
  family: 4 | 6;
}

export interface WebhookUrlGuard {
  /** Resolves the host and checks every address it has; throws DomainError('invalid_url') otherwise. Sends nothing. */
  assertDeliverable(url: string): Promise<DeliverableUrl>;
}

export interface WebhookSigner {
  /** The Standard Webhooks headers of one attempt: webhook-id, webhook-timestamp, and one signature per secret. */
  headersFor(secrets: string | readonly string[], eventId: string, at: Date, body: string): Record<string, string>;
}

export interface SignedDelivery {
  target: DeliverableUrl;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export interface WebhookSender {
  /** One POST; redirects are not followed. Never throws: no answer in time is a `no_answer` outcome. */
  send(delivery: SignedDelivery): Promise<AttemptOutcome>;
}

/** A pending delivery one dispatcher has taken for one attempt. */
export interface ClaimedDelivery {
  deliveryId: string;
  merchantId: string;
  webhookId: string;
  url: string;
  secret: string;
  /** Rotated-out secrets that have not expired yet, newest first: they sign too, so receivers switch without losing an event. */
  earlierSecrets: string[];
  eventId: string;
  payload: string; // the exact bytes signed and sent
  /** This attempt's number (1 = first); a result is recorded only while it is still the latest attempt. */
  attempt: number;
}

export interface DeliveryQueue {
  /**
   * Takes up to `limit` due deliveries of active webhooks, skipping rows other dispatchers are taking, and leases each
   * for `leaseMs`: while leased, no other attempt of it starts. A claim not settled within the lease (its dispatcher
   * died) becomes due again, as a new attempt. Merchants take turns (each one's oldest due delivery, then each one's
   * next), so no merchant's backlog delays another's; with `share`, no merchant ends up with more than its share in flight.
   */
  claimDue(now: Date, limit: number, leaseMs: number, share?: MerchantShare): Promise<ClaimedDelivery[]>;
  /**
   * Stores an attempt's result (and disables the webhook when asked), or `redelivery` instead when a redelivery was
   * asked for while the attempt was in flight. Answers what it stored; null when a newer attempt took over.
   */
  recordAttempt(delivery: ClaimedDelivery, result: AttemptResult, redelivery?: AttemptResult): Promise<AttemptResult | null>;
  /** The earliest time a claim could find work (for merchants other than `excluding`), or null when nothing is pending. */
  nextDueAt(excluding?: readonly string[]): Promise<Date | null>;
}

/** Wakes dispatchers when new deliveries are committed (PostgreSQL NOTIFY); without it they poll. */
export interface DeliveryWakeups {
  subscribe(onWake: () => void): Promise<() => Promise<void>>;
}

/** The channel the deliveries' transaction notifies on commit. */
export const deliveriesChannel = 'webhook_deliveries';
