import type { Webhook } from './webhook.js';

/** The kind of the event `POST /webhooks/{id}/test` sends: to that endpoint only, never subscribable or listed. */
export const testEventKind = 'webhook.test';
export type TestEventKind = typeof testEventKind;

export interface TestEvent {
  id: string;
  merchantId: string;
  kind: TestEventKind;
  payload: { id: string; event: TestEventKind; data: { webhook_id: string; url: string }; timestamp: string };
  createdAt: Date;
}

export function testEvent(id: string, webhook: Webhook, now: Date): TestEvent {
  return {
    id,
    merchantId: webhook.merchantId,
    kind: testEventKind,
    createdAt: now,
    payload: { id, event: testEventKind, data: { webhook_id: webhook.id, url: webhook.url }, timestamp: now.toISOString() },
  };
}
