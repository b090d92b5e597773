import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProblems } from '../support/contract-check.js';
import { operation } from '../support/contract.js';
import { manualClock } from '../support/clock.js';
import { apiOf, type Api } from '../support/http.js';
import { seeder } from '../support/seed.js';
import { startService, type Service } from '../support/service.js';

const T0 = new Date('2026-11-20T08:00:00.000Z');
const clock = manualClock(T0);
/** Three records per instant, so that ordering must fall back on the id. */
const instant = (i: number) => new Date(T0.getTime() + Math.floor(i / 3) * 1000);

interface ListCase {
  operationId: string;
  path: () => string;
  items: string;
  id: string;
  count: number;
  /** The field holding the creation time, when it is not `created_at` (an event's `timestamp`). */
  at?: string;
}

let service: Service;
let api: Api;
let webhookId = '';
const lists: ListCase[] = [
  { operationId: 'listPayments', path: () => '/Thai/v1/payments', items: 'payments', id: 'payment_id', count: 11 },
  { operationId: 'listTransactions', path: () => '/Thai/v1/transactions', items: 'transactions', id: 'transaction_id', count: 13 },
  { operationId: 'listWebhooks', path: () => '/Thai/v1/webhooks', items: 'webhooks', id: 'webhook_id', count: 7 },
  { operationId: 'listWebhookDeliveries', path: () => `/Thai/v1/webhooks/${webhookId}/deliveries`, items: 'deliveries', id: 'delivery_id', count: 11 },
  // 11 payment.pending, 2 payment.succeeded and 2 refund.completed.
  { operationId: 'listEvents', path: () => '/Thai/v1/events', items: 'events', id: 'id', count: 15, at: 'timestamp' },
];

beforeAll(async () => {
  service = await startService({ clock });
  const { merchant, apiKey } = await service.merchant();
  api = apiOf(service.url, apiKey);
  const records = seeder(service, merchant);
  webhookId = await records.webhook('https://127.0.0.1:8443/hooks', ['payment.pending']);
  for (let i = 1; i < 7; i += 1) {
    clock.set(instant(i));
    await records.webhook(`https://127.0.0.1:8443/hooks/${i}`);
  }
  // 11 QR payments (11 transactions, 11 deliveries to the first webhook), two of them refunded: 13 transactions.
  for (let i = 0; i < 11; i += 1) {
    clock.set(instant(i));
    const payment = i < 2 ? await records.succeededPayment(20000 + i) : await records.pendingPayment(10000 + i);
    if (i < 2) await records.refund(payment.paymentId, 1000);
  }
});
afterAll(async () => {
  await service?.stop();
});

type Body = Record<string, unknown> & { total: number; limit: number; offset: number };
async function page(list: ListCase, query: string): Promise<{ body: Body; items: Record<string, string>[] }> {
  const exchange = await api('GET', `${list.path()}?${query}`);
  expect(exchange.status, exchange.text).toBe(200);
  expect(contractProblems(operation(list.operationId), exchange)).toEqual([]);
  const body = exchange.json as Body;
  return { body, items: body[list.items] as Record<string, string>[] };
}

describe.each(lists)('$operationId', (list) => {
  it('orders newest first, ties by id descending, and counts every match in total', async () => {
    const { body, items } = await page(list, 'limit=100');
    expect(body.total).toBe(list.count);
    expect(items).toHaveLength(list.count);
    const keys = items.map((item) => [item[list.at ?? 'created_at']!, item[list.id]!] as const);
    const sorted = [...keys].sort(([a, idA], [b, idB]) => (a === b ? (idA < idB ? 1 : -1) : a < b ? 1 : -1));
    expect(keys).toEqual(sorted);
    expect(new Set(keys.map(([at]) => at)).size).toBeLessThan(list.count); // ties exist, so the id rule was exercised
  });

  it('pages with limit and offset: stable, no gaps, no repeats, total on every page', async () => {
    const { items: all } = await page(list, 'limit=100');
    const walked: string[] = [];
    for (let offset = 0; offset < list.count; offset += 4) {
      const { body, items } = await page(list, `limit=4&offset=${offset}`);
      expect({ total: body.total, limit: body.limit, offset: body.offset }).toEqual({ total: list.count, limit: 4, offset });
      expect(items.length).toBe(Math.min(4, list.count - offset));
      walked.push(...items.map((item) => item[list.id]!));
    }
    expect(walked).toEqual(all.map((item) => item[list.id]));
  });

  it('answers past the end with an empty page and the total', async () => {
    const { body, items } = await page(list, `offset=${list.count + 5}`);
    expect(items).toEqual([]);
    expect(body).toMatchObject({ total: list.count, limit: 20, offset: list.count + 5 });
  });

  it('accepts the bounds limit=1 and limit=100, and defaults to limit 20, offset 0', async () => {
    expect((await page(list, 'limit=1')).items).toHaveLength(1);
    expect((await page(list, 'limit=100')).body.limit).toBe(100);
    expect((await page(list, '')).body).toMatchObject({ limit: 20, offset: 0 });
  });

  it.each(['limit=0', 'limit=101', 'limit=-1', 'limit=1.5', 'limit=abc', 'offset=-1', 'offset=1.5', 'offset=x'])('refuses %s with 400 invalid_parameters naming it', async (query) => {
    const exchange = await api('GET', `${list.path()}?${query}`);
    expect(exchange.status).toBe(400);
    expect(contractProblems(operation(list.operationId), exchange)).toEqual([]);
    expect((exchange.json as { error: unknown }).error).toMatchObject({ code: 'invalid_parameters', param: query.split('=')[0] });
  });
});
