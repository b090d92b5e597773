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

/** The endpoint it goes to (a Webhook; named by shape, as webhook.ts names this file's kind). */
export function testEvent(id: string, webhook: { id: string; merchantId: string; url: string }, now: Date): TestEvent {
  return {
    id,
    merchantId: webhook.merchantId,
    kind: testEventKind,
    createdAt: now,
    payload: { id, event: testEventKind, data: { webhook_id: webhook.id, url: webhook.url }, timestamp: now.toISOString() },
  };
}
