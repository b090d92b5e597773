import { describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { subscribe, webhookEnv } from '../webhooks/fixtures.js';
import { balanceOf, closedAccount, finalStatus, ledgerOf, paid, payoutAccount } from './fixtures.js';

const { server } = usingTestServer({ env: webhookEnv });
const receiver = usingReceiver();

const withdrawalKinds = ['withdrawal.pending', 'withdrawal.processed', 'withdrawal.succeeded', 'withdrawal.failed'];
const eventsOf = (path: string, withdrawalId: string) => receiver.at(path).filter((d) => d.payload?.data?.withdrawal_id === withdrawalId);

/**
 * The deliveries of one withdrawal's events, one of each kind of `lifecycle`, in that order, each announced no earlier
 * than the one before it (by its own timestamp: deliveries may arrive in any order, none is promised).
 */
function inLifecycleOrder(deliveries: ReturnType<typeof eventsOf>, lifecycle: string[]) {
  expect(deliveries.map((d) => d.payload.event).sort()).toEqual([...lifecycle].sort());
  const announced = lifecycle.map((kind) => deliveries.find((d) => d.payload.event === kind)!);
  const times = announced.map((d) => Date.parse(d.payload.timestamp));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  return announced;
}

async function merchantWith(balance: number, account = payoutAccount): Promise<ApiClient> {
  const api = apiClient(server.url, await server.merchant({ payoutAccount: account }));
  if (balance > 0) await paid(api, balance);
  return api;
}

describe('POST /withdrawals', () => {
  it('takes the amount from available, answers the pending withdrawal, and the sandbox rail pays it', async () => {
    const api = await merchantWith(50_000);
    await subscribe(api, receiver, '/paid-out', withdrawalKinds);
    const created = await api.post('/Thai/v1/withdrawals', { amount: 30_000, description: 'Weekly payout' }, { idempotencyKey: 'wd-1' });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      amount: 30_000,
      currency: 'THB',
      status: 'pending',
      description: 'Weekly payout',
      destination: { bank_code: '014', bank_name: 'SCB', account_last4: '7890', account_name: 'Noodle Shop Co., Ltd.' },
      failure_code: null,
      failure_message: null,
      completed_at: null,
    });
    expect(created.body.withdrawal_id).toMatch(/^wd_/);
    expect(created.text).not.toContain('1234567890'); // the full account number never leaves the operator's side
    expect(await balanceOf(api)).toEqual({ available: 20_000, pending: 0 });

    const done = await finalStatus(api, created.body.withdrawal_id);
    expect(done).toMatchObject({ status: 'succeeded', failure_code: null });
    expect(done.completed_at).not.toBeNull();
    expect(await balanceOf(api)).toEqual({ available: 20_000, pending: 0 });

    // Every state change was announced, signed, each at its time: deliveries may arrive in any order (none is
    // promised; two dispatches can overtake each other), so the order is the events' own timestamps.
    const events = await eventually(() => {
      const got = eventsOf('/paid-out', created.body.withdrawal_id);
      return got.length === 3 ? got : null;
    }, 'three withdrawal events');
    const announced = inLifecycleOrder(events, ['withdrawal.pending', 'withdrawal.processed', 'withdrawal.succeeded']);
    expect(events.every((d) => d.verified)).toBe(true);
    expect(announced[2]!.payload.data).toEqual({
      withdrawal_id: created.body.withdrawal_id,
      status: 'succeeded',
      amount: 30_000,
      currency: 'THB',
      failure_code: null,
    });
    // ... and each reads in the events API exactly as it was delivered.
    const listed = (await api.get('/Thai/v1/events?type=withdrawal.succeeded')).body.events;
    expect(listed.filter((e: { data: { withdrawal_id: string } }) => e.data.withdrawal_id === created.body.withdrawal_id)).toEqual([announced[2]!.payload]);

    // Idempotent like every POST: the same answer again, nothing new withdrawn.
    const replay = await api.post('/Thai/v1/withdrawals', { amount: 30_000, description: 'Weekly payout' }, { idempotencyKey: 'wd-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(created.text);
    expect(await balanceOf(api)).toEqual({ available: 20_000, pending: 0 });
    expectEnvelope(await api.post('/Thai/v1/withdrawals', { amount: 1000 }, { idempotencyKey: 'wd-1' }), 409, 'idempotency_key_reused');
  });

  it('a withdrawal to a closed account fails with account_closed and gives its amount back exactly once', async () => {
    const api = await merchantWith(10_000, closedAccount);
    await subscribe(api, receiver, '/closed', withdrawalKinds);
    const created = await api.post('/Thai/v1/withdrawals', { amount: 10_000 });
    expect(created.status).toBe(200);
    // No balance read here: the sandbox rail may fail it before the next request (it did on a slow machine). The
    // ledger below shows the amount taken at creation, then given back once.

    const failed = await finalStatus(api, created.body.withdrawal_id);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'account_closed' });
    expect(failed.failure_message).toMatch(/closed/);
    expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 0 });
    const events = await eventually(() => {
      const got = eventsOf('/closed', created.body.withdrawal_id);
      return got.length === 3 ? got : null;
    }, 'three withdrawal events');
    const announced = inLifecycleOrder(events, ['withdrawal.pending', 'withdrawal.processed', 'withdrawal.failed']);
    expect(announced[2]!.payload.data.failure_code).toBe('account_closed');

    // The rail keeps running: nothing is returned twice.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 0 });
    const entries = await ledgerOf(api);
    expect(entries.map((e) => [e.type, e.amount])).toEqual([
      ['withdrawal_reversal', 10_000],
      ['withdrawal', -10_000],
      ['payment', 10_000],
    ]);
    // The payment it would have paid out is free for the next withdrawal.
    expect(entries[2].withdrawal_id).toBeNull();
    expect(entries[0].withdrawal_id).toBe(created.body.withdrawal_id);
  });

  it('refuses: below 100 satang 422 invalid_amount, no payout account 422 payout_account_missing, above available 402', async () => {
    const api = await merchantWith(5000);
    expectEnvelope(await api.post('/Thai/v1/withdrawals', { amount: 99 }), 422, 'invalid_amount');
    expectEnvelope(await api.post('/Thai/v1/withdrawals', { amount: 0 }), 422, 'invalid_amount');
    const over = await api.post('/Thai/v1/withdrawals', { amount: 5001 });
    expectEnvelope(over, 402, 'insufficient_funds');
    expect(over.body.error.type).toBe('payment_error');

    const noAccount = apiClient(server.url, await server.merchant());
    await paid(noAccount, 5000);
    const missing = await noAccount.post('/Thai/v1/withdrawals', { amount: 1000 });
    expectEnvelope(missing, 422, 'payout_account_missing');
    expect(missing.body.error.type).toBe('validation_error');

    for (const body of [{}, { amount: '1000' }, { amount: 10.5 }, { amount: 1000, description: 'x'.repeat(501) }, { amount: 1000, account_number: '1' }]) {
      expectEnvelope(await api.post('/Thai/v1/withdrawals', body), 400, 'invalid_request');
    }
    expect(await balanceOf(api)).toEqual({ available: 5000, pending: 0 });
    expect((await api.get('/Thai/v1/withdrawals')).body.total).toBe(0);
  });

  it('20 concurrent withdrawals against a balance that covers 5 make exactly 5', async () => {
    const api = await merchantWith(10_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post('/Thai/v1/withdrawals', { amount: 2000 })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 0 });
    expect((await api.get('/Thai/v1/withdrawals')).body.total).toBe(5);
  });
});

describe('GET /withdrawals', () => {
  it('retrieves one, lists newest first with filters and paging, and hides other merchants', async () => {
    const api = await merchantWith(20_000);
    const ids: string[] = [];
    for (const amount of [1000, 2000, 3000]) ids.push((await api.post('/Thai/v1/withdrawals', { amount })).body.withdrawal_id);
    await Promise.all(ids.map((id) => finalStatus(api, id)));

    const one = await api.get(`/Thai/v1/withdrawals/${ids[0]}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ withdrawal_id: ids[0], amount: 1000, status: 'succeeded' });

    const page = await api.get('/Thai/v1/withdrawals?limit=2');
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.body.withdrawals.map((w: any) => w.withdrawal_id)).toEqual([ids[2], ids[1]]);
    expect((await api.get('/Thai/v1/withdrawals?limit=2&offset=2')).body.withdrawals.map((w: any) => w.withdrawal_id)).toEqual([ids[0]]);
    expect((await api.get('/Thai/v1/withdrawals?status=succeeded')).body.total).toBe(3);
    expect((await api.get('/Thai/v1/withdrawals?status=pending')).body.total).toBe(0);
    expect((await api.get('/Thai/v1/withdrawals?start_date=2001-01-01&end_date=2001-12-31')).body.total).toBe(0);
    for (const query of ['status=paid', 'limit=0', 'offset=x', 'end_date=tomorrow']) {
      expectEnvelope(await api.get(`/Thai/v1/withdrawals?${query}`), 400, 'invalid_parameters');
    }

    expectEnvelope(await api.get('/Thai/v1/withdrawals/wd_unknown'), 404, 'withdrawal_not_found');
    const other = await merchantWith(0);
    expectEnvelope(await other.get(`/Thai/v1/withdrawals/${ids[0]}`), 404, 'withdrawal_not_found');
    expect((await other.get('/Thai/v1/withdrawals')).body.total).toBe(0);
    expectEnvelope(await apiClient(server.url).get('/Thai/v1/withdrawals'), 401, 'authentication_failed');
  });
});
