import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/adapters/postgres/database.js';
import { balanceRepository } from '../../src/adapters/postgres/repositories/balances.js';
import { openV11Database, type OpenedDatabase } from '../support/databases.js';

// Migration 0015_settlement_draws on a database v1.1 wrote: refunds there took from `pending` without recording from
// which credit; the migration places what they took on the earliest-maturing credits, so nothing matures sooner.

const T = Date.parse('2026-11-20T03:00:00Z');
const at = (seconds: number) => new Date(T + seconds * 1000).toISOString();

const merchant = (id: string) => `INSERT INTO merchants (id, name, mode, created_at) VALUES ('${id}', '${id}', 'test', '${at(0)}');`;
const entry = (id: string, merchantId: string, type: string, net: number, availableAt: number, settled: boolean, createdAt = 0) =>
  `INSERT INTO balance_transactions (id, merchant_id, type, amount, fee, fee_vat, net, currency, source_id, withdrawal_id, available_on, settled, created_at)
   VALUES ('${id}', '${merchantId}', '${type}', ${net}, 0, 0, ${net}, 'THB', 'src_${id}', NULL, '${at(availableAt)}', ${settled}, '${at(createdAt)}');`;
const totals = (merchantId: string, available: number, pending: number) => `INSERT INTO balances VALUES ('${merchantId}', ${available}, ${pending});`;

/** As v1.1 left them: refunds took 10 000 (one merchant) and 6 000 (another) from pending; a third refunded nothing from pending. */
const v11Balances = [
  merchant('mch_a'),
  entry('bt_a0', 'mch_a', 'payment', 3000, -60, true),
  entry('bt_a1', 'mch_a', 'payment', 10_000, 40, false),
  entry('bt_a2', 'mch_a', 'payment', 10_000, 60, false, 20),
  entry('bt_a3', 'mch_a', 'payment', 5000, 80, false, 40),
  entry('bt_ar0', 'mch_a', 'refund', -200, 0, true),
  entry('bt_ar1', 'mch_a', 'refund', -10_000, 1, true, 1),
  totals('mch_a', 2800, 15_000),
  merchant('mch_b'),
  entry('bt_b1', 'mch_b', 'payment', 4000, 40, false),
  entry('bt_b2', 'mch_b', 'payment', 10_000, 60, false, 20),
  entry('bt_br', 'mch_b', 'refund', -6000, 21, true, 21),
  totals('mch_b', 0, 8000),
  merchant('mch_c'),
  entry('bt_c1', 'mch_c', 'payment', 7000, 40, false),
  totals('mch_c', 0, 7000),
].join('\n');

const opened: OpenedDatabase[] = [];
afterAll(async () => {
  for (const database of opened.reverse()) await database.close();
});

/** The v1.1 fixture with the rows above, opened (and so migrated) by today's code. */
async function openV11DatabaseWithBalances(): Promise<Database> {
  const database = await openV11Database(v11Balances);
  opened.push(database);
  return database.db;
}

describe('migration 0015_settlement_draws', () => {
  it('records what v1.1 refunds took from pending against the earliest-maturing credits, and the totals mature no sooner', async () => {
    const db = await openV11DatabaseWithBalances();
    const draws = await db.knex('balance_draws').orderBy('credit_id').select('entry_id', 'credit_id', 'amount');
    expect(draws.map((d) => [d.entry_id, d.credit_id, Number(d.amount)])).toEqual([
      ['bt_ar1', 'bt_a1', 10_000],
      ['bt_br', 'bt_b1', 4000],
      ['bt_br', 'bt_b2', 2000],
    ]);

    const balances = balanceRepository(db.knex);
    const balanceAt = async (merchantId: string, seconds: number) => {
      const { totals, maturedNet } = await balances.read(merchantId, new Date(T + seconds * 1000));
      return { available: totals.available + maturedNet, pending: totals.pending - maturedNet };
    };
    // The refunded 10 000 is not carried to `available` by the first credit's maturing: the next payment keeps its time.
    expect(await balanceAt('mch_a', 41)).toEqual({ available: 2800, pending: 15_000 });
    expect(await balanceAt('mch_a', 60)).toEqual({ available: 12_800, pending: 5000 });
    expect(await balanceAt('mch_a', 80)).toEqual({ available: 17_800, pending: 0 });
    expect(await balanceAt('mch_b', 40)).toEqual({ available: 0, pending: 8000 });
    expect(await balanceAt('mch_b', 60)).toEqual({ available: 8000, pending: 0 });
    expect(await balanceAt('mch_c', 40)).toEqual({ available: 7000, pending: 0 });

    // Settling moves the same amounts into the running totals.
    expect(await db.knex.transaction((trx) => balanceRepository(trx).settleMatured('mch_b', new Date(T + 45_000)))).toBe(0);
    expect(await db.knex.transaction((trx) => balanceRepository(trx).settleMatured('mch_b', new Date(T + 60_000)))).toBe(8000);
  });
});
