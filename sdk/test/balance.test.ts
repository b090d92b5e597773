// The balance and withdrawals resources, end to end, against the real server (in-process, real database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PaymentDeclinedError, PaymentQrClient, ValidationError, type Withdrawal } from '../src/index.js';
import { startApi, type TestServer } from './support/api.js';

let server: TestServer;
beforeAll(async () => {
  server = await startApi();
});
afterAll(async () => {
  await server?.stop();
});

const payoutAccount = { bankCode: '004', accountNumber: '1234567890', accountName: 'Somtam Shop' };

async function merchantWith(balance: number, options: { payout?: boolean } = {}): Promise<PaymentQrClient> {
  const { apiKey } = await server.merchant(options.payout === false ? {} : { payoutAccount });
  const client = new PaymentQrClient({ apiKey, baseUrl: server.url });
  const qrCode = await client.qrCodes.create({ amount: balance, currency: 'THB' });
  await client.testHelpers.succeed(qrCode.payment_id);
  return client;
}

describe('client.balance and client.withdrawals', () => {
  it('reads the balance, withdraws, and follows the withdrawal to succeeded', async () => {
    const client = await merchantWith(40_000);
    expect(await client.balance.retrieve()).toEqual({ available: 40_000, pending: 0, currency: 'THB' });

    const withdrawal = await client.withdrawals.create({ amount: 15_000, description: 'Weekly payout' });
    expect(withdrawal).toMatchObject({ amount: 15_000, status: 'pending', destination: { bank_code: '004', bank_name: 'KBANK', account_last4: '7890' } });
    expect(await client.balance.retrieve()).toMatchObject({ available: 25_000 });

    let latest: Withdrawal = withdrawal;
    for (let i = 0; i < 100 && latest.status !== 'succeeded'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      latest = await client.withdrawals.retrieve(withdrawal.withdrawal_id);
    }
    expect(latest.status).toBe('succeeded');

    const entries = await client.balance.listTransactions().toArray();
    expect(entries.map((e) => [e.type, e.amount])).toEqual([
      ['withdrawal', -15_000],
      ['payment', 40_000],
    ]);
    expect((await client.balance.listTransactions({ type: 'payment' }).page()).total).toBe(1);
  });

  it('lists withdrawals with async iteration across pages', async () => {
    const client = await merchantWith(10_000);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await client.withdrawals.create({ amount: 1000 })).withdrawal_id);
    const seen: string[] = [];
    for await (const w of client.withdrawals.list({ limit: 2 })) seen.push(w.withdrawal_id);
    expect(seen).toEqual([...made].reverse());
    const page = await client.withdrawals.list().page({ limit: 3 });
    expect(page).toMatchObject({ total: 5, limit: 3, hasMore: true });
  });

  it('raises the SDK errors: 402 insufficient_funds, 422 payout_account_missing and invalid_amount, 404 withdrawal_not_found', async () => {
    const client = await merchantWith(1000);
    await expect(client.withdrawals.create({ amount: 1001 })).rejects.toMatchObject({
      constructor: PaymentDeclinedError,
      code: 'insufficient_funds',
      status: 402,
    });
    await expect(client.withdrawals.create({ amount: 99 })).rejects.toMatchObject({ constructor: ValidationError, code: 'invalid_amount' });
    await expect(client.withdrawals.retrieve('wd_unknown')).rejects.toBeInstanceOf(NotFoundError);
    const noAccount = await merchantWith(1000, { payout: false });
    await expect(noAccount.withdrawals.create({ amount: 500 })).rejects.toMatchObject({ constructor: ValidationError, code: 'payout_account_missing' });
  });
});
