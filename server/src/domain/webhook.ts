import { DomainError } from './errors.js';
import type { EventKind } from './events.js';
import type { TestEventKind } from './test-event.js';

export type WebhookStatus = 'active' | 'disabled';

export interface Webhook {
  id: string;
  merchantId: string;
  url: string;
  events: EventKind[];
  status: WebhookStatus;
  createdAt: Date;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: string;
  merchantId: string;
  webhookId: string;
  eventId: string;
  eventKind: EventKind | TestEventKind;
  status: DeliveryStatus;
  attempts: number;
  lastResponseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** Endpoints a merchant may have at once (deleted ones do not count): each costs deliveries on every event. */
export const MAX_WEBHOOKS_PER_MERCHANT = 16;

export function assertRoomForWebhook(liveEndpoints: number): void {
  if (liveEndpoints >= MAX_WEBHOOKS_PER_MERCHANT) {
    throw new DomainError(
      'webhook_limit_reached',
      `A merchant may have at most ${MAX_WEBHOOKS_PER_MERCHANT} webhook endpoints; delete one to register another.`,
    );
  }
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export function assertWebhookUrlLength(url: string): void {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) throw new DomainError('invalid_request', `url: must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`, 'url');
}

/** Standard Webhooks secrets: `whsec_` + base64 of 24 to 64 random bytes. */
const SECRET_FORM = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

export function assertWebhookSecret(secret: string): void {
  const base64 = SECRET_FORM.exec(secret)?.[1];
  const bytes = base64 && base64.length % 4 === 0 ? (base64.length / 4) * 3 - (base64.match(/=/g)?.length ?? 0) : 0;
  if (bytes < 24 || bytes > 64) {
    throw new DomainError(
      'invalid_request',
      "secret must look like 'whsec_' followed by the base64 of 24 to 64 random bytes; omit it to have one generated.",
      'secret',
    );
  }
}
