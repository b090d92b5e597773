import { contractProblems } from '../contract-check.js';
import { operation } from '../contract.js';
import { fail, mustAnswer, mustEqual, mustHaveNoProblems, NotRunHere, once, type Check, type Group, type Kit, type Merchant } from '../check.js';
import { KIT_HOOK_URL, records, removeKitWebhooks } from '../records.js';

const T0 = new Date('2026-11-20T08:00:00.000Z');
/** Three records per instant (when the kit moves the clock), so that ordering must fall back on the id. */
const instant = (i: number) => new Date(T0.getTime() + Math.floor(i / 3) * 1000);
/** How far a walk through the pages goes on a deployment's merchant, whose lists may be long. */
const WALKED = 40;

interface ListCase {
  operationId: string;
  path: (webhookId: string) => string;
  items: string;
  id: string;
  /** What the setup adds to the list. */
  count: number;
  /** The list holds webhooks or their deliveries: a deployment that refuses the kit's webhook URLs cannot fill it. */
  ofWebhooks?: boolean;
  /** The field holding the creation time, when it is not `created_at` (an event's `timestamp`). */
  at?: string;
}

const LISTS: ListCase[] = [
  { operationId: 'listPayments', path: () => '/Thai/v1/payments', items: 'payments', id: 'payment_id', count: 11 },
  { operationId: 'listTransactions', path: () => '/Thai/v1/transactions', items: 'transactions', id: 'transaction_id', count: 13 },
  { operationId: 'listWebhooks', path: () => '/Thai/v1/webhooks', items: 'webhooks', id: 'webhook_id', count: 7, ofWebhooks: true },
  {
    operationId: 'listWebhookDeliveries',
    path: (webhookId) => `/Thai/v1/webhooks/${webhookId}/deliveries`,
    items: 'deliveries',
    id: 'delivery_id',
    count: 11,
    ofWebhooks: true,
  },
  // 11 payment.pending, 2 payment.succeeded and 2 refund.completed.
  { operationId: 'listEvents', path: () => '/Thai/v1/events', items: 'events', id: 'id', count: 15, at: 'timestamp' },
];

const INVALID = ['limit=0', 'limit=101', 'limit=-1', 'limit=1.5', 'limit=abc', 'offset=-1', 'offset=1.5', 'offset=x'];

interface Setup {
  merchant: Merchant;
  webhookId: string;
  /** Why there are no webhooks, when the service refused the kit's webhook URL. */
  noWebhooks?: NotRunHere;
}

/** 7 webhooks, then 11 QR payments (11 deliveries to the first webhook), two of them paid and partly refunded: 13 transactions. */
async function makeLists(kit: Kit): Promise<Setup> {
  const merchant = await kit.merchant();
  const mine = records(merchant);
  const at = (i: number) => kit.target.clock?.set(instant(i));
  at(0);
  let webhookId = '';
  let noWebhooks: NotRunHere | undefined;
  try {
    webhookId = await mine.webhook(`${KIT_HOOK_URL}/0`, ['payment.pending']);
    for (let i = 1; i < 7; i += 1) {
      at(i);
      await mine.webhook(`${KIT_HOOK_URL}/${i}`);
    }
  } catch (error) {
    if (!(error instanceof NotRunHere)) throw error;
    noWebhooks = error;
  }
  for (let i = 0; i < 11; i += 1) {
    at(i);
    const payment = i < 2 ? await mine.succeededPayment(20000 + i) : await mine.pendingPayment(10000 + i);
    if (i < 2) await mine.refund(payment.paymentId, 1000);
  }
  return { merchant, webhookId, ...(noWebhooks ? { noWebhooks } : {}) };
}

type Body = Record<string, unknown> & { total: number; limit: number; offset: number };
type Item = Record<string, string>;

export const paginationGroup: Group = {
  name: 'pagination',
  title: 'lists: bounds, defaults, order and stable pages',
  checks(kit: Kit) {
    const setup = once(() => makeLists(kit));
    const listed = async (list: ListCase) => {
      const made = await setup();
      if (list.ofWebhooks && made.noWebhooks) throw new NotRunHere(`${list.operationId} needs webhooks of the kit's own: ${made.noWebhooks.message}`);
      return made;
    };
    const page = async (list: ListCase, query: string): Promise<{ body: Body; items: Item[] }> => {
      const { merchant, webhookId } = await listed(list);
      const exchange = await merchant.api('GET', `${list.path(webhookId)}?${query}`);
      mustAnswer(list.operationId, exchange, 200);
      mustHaveNoProblems(contractProblems(operation(list.operationId), exchange), exchange);
      const body = exchange.json as Body;
      return { body, items: body[list.items] as Item[] };
    };
    const exact = async () => (await setup()).merchant.fresh;

    return LISTS.flatMap((list): Check[] => {
      const check = (name: string, run: () => Promise<void>, requires: Check['requires'] = ['state']): Check => ({
        name: `${list.operationId}: ${name}`,
        requires,
        run,
      });
      const key = (item: Item) => [item[list.at ?? 'created_at']!, item[list.id]!] as const;
      return [
        check('newest first, ties by id descending, every match counted in total', async () => {
          const { body, items } = await page(list, 'limit=100');
          if ((await exact()) ? body.total !== list.count : body.total < list.count)
            fail(`${list.operationId}: total ${body.total}, yet the kit made ${list.count} records for this list`);
          const keys = items.map(key);
          const sorted = [...keys].sort(([a, idA], [b, idB]) => (a === b ? (idA < idB ? 1 : -1) : a < b ? 1 : -1));
          const at = keys.findIndex((k, i) => k[1] !== sorted[i]![1]);
          if (at >= 0)
            fail(
              `${list.operationId}: item ${at} is ${keys[at]!.join(' ')}, the order newest first (ties by id descending) puts ${sorted[at]!.join(' ')} there`,
            );
          // Where the kit moved the clock, ties exist, so the id rule was exercised.
          if (kit.target.clock && new Set(keys.map(([time]) => time)).size >= keys.length)
            fail(`${list.operationId}: no two records share a creation time, so the tie rule went untested`);
        }),

        check('limit and offset walk the list: stable, no gaps, no repeats, total on every page', async () => {
          const { body: all, items: snapshot } = await page(list, 'limit=100');
          const end = Math.min(all.total, WALKED);
          const walked: string[] = [];
          for (let offset = 0; offset < end; offset += 4) {
            const { body, items } = await page(list, `limit=4&offset=${offset}`);
            mustEqual(
              { total: body.total, limit: body.limit, offset: body.offset },
              { total: all.total, limit: 4, offset },
              `${list.operationId}?limit=4&offset=${offset}: total, limit, offset`,
            );
            mustEqual(items.length, Math.min(4, all.total - offset), `${list.operationId}?limit=4&offset=${offset}: items on the page`);
            for (const item of items) {
              if (walked.includes(item[list.id]!))
                fail(`${list.operationId}?limit=4&offset=${offset}: ${item[list.id]} was on an earlier page already (an item repeated across pages)`);
              walked.push(item[list.id]!);
            }
          }
          const expected = snapshot.slice(0, walked.length).map((item) => item[list.id]);
          const differs = walked.findIndex((id, i) => id !== expected[i]);
          if (differs >= 0)
            fail(
              `${list.operationId}: page by page, item ${differs} is ${walked[differs]}; the one-page list has ${expected[differs]} there (pages are not stable)`,
            );
        }),

        check('past the end: an empty page, and the total', async () => {
          const { body: all } = await page(list, 'limit=1');
          const { body, items } = await page(list, `offset=${all.total + 5}`);
          mustEqual(items, [], `${list.operationId}?offset=${all.total + 5}: items`);
          mustEqual(
            { total: body.total, limit: body.limit, offset: body.offset },
            { total: all.total, limit: 20, offset: all.total + 5 },
            `${list.operationId} past the end: total, limit, offset`,
          );
        }),

        check('bounds limit=1 and limit=100, defaults limit 20 and offset 0', async () => {
          mustEqual((await page(list, 'limit=1')).items.length, 1, `${list.operationId}?limit=1: items`);
          mustEqual((await page(list, 'limit=100')).body.limit, 100, `${list.operationId}?limit=100: limit`);
          const defaults = (await page(list, '')).body;
          mustEqual({ limit: defaults.limit, offset: defaults.offset }, { limit: 20, offset: 0 }, `${list.operationId} without limit and offset`);
        }),

        ...INVALID.map((query) =>
          check(`${query} is refused with 400 invalid_parameters naming it`, async () => {
            const { merchant, webhookId } = await listed(list);
            const exchange = await merchant.api('GET', `${list.path(webhookId)}?${query}`);
            mustAnswer(list.operationId, exchange, 400);
            mustHaveNoProblems(contractProblems(operation(list.operationId), exchange), exchange);
            const error = (exchange.json as { error: { code: string; param?: string } }).error;
            mustEqual(
              { code: error.code, param: error.param },
              { code: 'invalid_parameters', param: query.split('=')[0] },
              `${list.operationId}?${query}: error code and param`,
              exchange,
            );
          }),
        ),
      ];
    });
  },
  cleanup: removeKitWebhooks,
};
