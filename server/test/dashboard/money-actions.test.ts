import { beforeAll, describe, expect, it } from 'vitest';
import { roleMay, roles, type Ability, type Role } from '../../src/domain/permissions.js';
import { paid, payoutAccount } from '../balance/fixtures.js';
import { dashboardMember, type DashboardMember } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

// One merchant with a member of every role: each action of the money pages is tried by each of them.
const members = {} as Record<Role, DashboardMember>;

const { server, merchant, api } = usingTestServer({ merchant: { payoutAccount, name: 'ร้านก๋วยเตี๋ยวเรือ' } });
beforeAll(async () => {
  for (const role of roles) members[role] = await dashboardMember(server, { role, merchantId: merchant.id });
  await paid(api, 500_000); // money to refund and withdraw
});

const allowed = (ability: Ability) => roles.filter((role) => roleMay(role, ability));
const auditOf = () => server.running.runtime.services.uow.repos.audit.list(members.owner.merchantId, {}, { limit: 100, offset: 0 });
const keyOf = (html: string) => /name="key" value="([^"]+)"/.exec(html)?.[1];

async function pendingPayment(extra: Record<string, unknown> = {}): Promise<{ payment_id: string; qr_code_id: string }> {
  const res = await api.post('/Thai/v1/qr-codes', { amount: 12_345, currency: 'THB', ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('the money pages by role', { timeout: 120_000 }, () => {
  it('shows Home, Payments, a payment, Balance and the ledger CSV to every role but the cashier, and the audit log to owners and admins only', async () => {
    const paymentId = await paid(api, 10_000);
    for (const role of roles.filter((r) => roleMay(r, 'payments:read'))) {
      // The cashier sees none of them (test/dashboard/cashier.test.ts).
      const client = members[role].client;
      for (const path of ['/dashboard', '/dashboard/payments', `/dashboard/payments/${paymentId}`, '/dashboard/balance', '/dashboard/balance/ledger.csv'])
        expect((await client.get(path)).status, `${role} ${path}`).toBe(200);
      const csv = await client.get('/dashboard/balance/ledger.csv?type=payment');
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(csv.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
        'balance_transaction_id,type,amount,amount_baht,fee,fee_baht,fee_vat,fee_vat_baht,net,net_baht,currency,source_id,reference,withdrawal_id,available_on,available_on_bangkok,created_at,created_at_bangkok',
      );
      expect(csv.text).toContain(`,payment,10000,100.00,`);
      for (const path of ['/dashboard/audit', '/dashboard/audit.csv'])
        expect((await client.get(path)).status, `${role} ${path}`).toBe(roleMay(role, 'audit:read') ? 200 : 403);
    }
  });

  it('refunds for owner, admin and support (confirmed, audited with the member), and answers 403 changing nothing for the others', async () => {
    for (const role of roles) {
      const paymentId = await paid(api, 20_000);
      const client = members[role].client;
      // A valid CSRF token of the member's own session: a forged form from a role without the power is still refused.
      const csrf = members[role].csrfToken;
      const preview = await client.post(`/dashboard/payments/${paymentId}/refund`, { amount: '50.25', reason: 'damaged' }, { csrf });
      const confirm = await client.post(
        `/dashboard/payments/${paymentId}/refund/confirm`,
        { amount: '5025', reason: 'damaged', key: `forged-key-${role}-0001` },
        { csrf },
      );
      const payment = (await api.get(`/Thai/v1/payments/${paymentId}`)).body;
      if (roleMay(role, 'refunds:write')) {
        expect(preview.status, role).toBe(200);
        expect(preview.text).toContain('฿50.25');
        expect(confirm.status, `${role}: ${confirm.text.slice(0, 300)}`).toBe(303);
        expect(payment.refunded_amount).toBe(5025);
        const refundId = new URL(confirm.location!, server.url).searchParams.get('refunded')!;
        expect((await api.get(`/Thai/v1/refunds/${refundId}`)).body).toMatchObject({ payment_id: paymentId, amount: 5025, reason: 'damaged' });
        const entry = (await auditOf()).items.find((e) => e.subjectId === refundId);
        expect(entry).toMatchObject({
          action: 'refund_created',
          context: { channel: 'dashboard', actor: { kind: 'user', email: members[role].email, userId: members[role].userId } },
          details: { payment_id: paymentId, amount: 5025 },
        });
      } else {
        expect([preview.status, confirm.status], role).toEqual([403, 403]);
        expect(payment.refunded_amount, role).toBe(0);
        expect(confirm.text).not.toContain('refund-form');
      }
    }
    expect(allowed('refunds:write')).toEqual(['owner', 'admin', 'support']);
  });

  it('refunds once for a confirmation sent twice (a double click), and shows the refund on the payment page', async () => {
    const paymentId = await paid(api, 30_000);
    const client = members.owner.client;
    const preview = await client.post(`/dashboard/payments/${paymentId}/refund`, { amount: '', reason: 'double click' });
    expect(preview.status).toBe(200);
    const key = keyOf(preview.text)!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const form = { amount: '30000', reason: 'double click', key };
    const [first, second] = await Promise.all([
      client.post(`/dashboard/payments/${paymentId}/refund/confirm`, form),
      client.post(`/dashboard/payments/${paymentId}/refund/confirm`, form),
    ]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(first.location).toBe(second.location);
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'refunded', refunded_amount: 30_000 });
    expect((await auditOf()).items.filter((e) => e.action === 'refund_created' && e.details.payment_id === paymentId)).toHaveLength(1);
    const page = await client.get(first.location!);
    expect(page.text).toContain('คืนเงินแล้ว');
    expect(page.text).not.toContain('id="refund-form"');
  });

  it('says why a refund is refused (more than is refundable) and changes nothing', async () => {
    const paymentId = await paid(api, 10_000);
    const client = members.admin.client;
    await client.get(`/dashboard/payments/${paymentId}`);
    const refused = await client.post(`/dashboard/payments/${paymentId}/refund/confirm`, { amount: '20000', reason: '', key: 'too-much-0000000001' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('role="alert"');
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body.refunded_amount).toBe(0);
  });

  it('withdraws for owner and admin (confirmed, to the payout account shown masked, audited), 403 and nothing for the others', async () => {
    for (const role of roles.filter((r) => roleMay(r, 'balance:read'))) {
      const client = members[role].client;
      const before = (await api.get('/Thai/v1/withdrawals?limit=100')).body.total;
      const page = await client.get('/dashboard/balance');
      expect(page.text).toContain('SCB ····7890 Noodle Shop Co., Ltd.');
      expect(page.text).not.toContain('1234567890');
      const csrf = members[role].csrfToken;
      const preview = await client.post('/dashboard/balance/withdraw', { amount: '100' }, { csrf });
      const confirm = await client.post('/dashboard/balance/withdraw/confirm', { amount: '10000', key: `withdraw-key-${role}-0001` }, { csrf });
      const after = (await api.get('/Thai/v1/withdrawals?limit=100')).body;
      if (roleMay(role, 'withdrawals:write')) {
        expect(page.text).toContain('id="withdraw-form"');
        expect(preview.status).toBe(200);
        expect(preview.text).toContain('฿100.00');
        expect(confirm.status, confirm.text.slice(0, 300)).toBe(303);
        const withdrawalId = new URL(confirm.location!, server.url).searchParams.get('withdrawn')!;
        expect(after.total).toBe(before + 1);
        expect(after.withdrawals.find((w: { withdrawal_id: string }) => w.withdrawal_id === withdrawalId)).toMatchObject({
          amount: 10_000,
          status: expect.any(String),
        });
        expect((await auditOf()).items.find((e) => e.subjectId === withdrawalId)).toMatchObject({
          action: 'withdrawal_requested',
          context: { channel: 'dashboard', actor: { kind: 'user', email: members[role].email } },
          details: { amount: 10_000 },
        });
        // Sent again, the same form withdraws nothing more.
        expect((await client.post('/dashboard/balance/withdraw/confirm', { amount: '10000', key: `withdraw-key-${role}-0001` })).location).toBe(
          confirm.location,
        );
        expect((await api.get('/Thai/v1/withdrawals?limit=100')).body.total).toBe(before + 1);
      } else {
        expect(page.text).not.toContain('id="withdraw-form"');
        expect([preview.status, confirm.status], role).toEqual([403, 403]);
        expect(after.total, role).toBe(before);
      }
    }
  });

  it('offers the test helpers to owner, admin and developer, who succeed, fail and expire a test payment; 403 and still pending for the others', async () => {
    for (const role of roles) {
      const client = members[role].client;
      for (const [outcome, status] of [
        ['succeed', 'succeeded'],
        ['fail', 'failed'],
        ['expire', 'expired'],
      ] as const) {
        const { payment_id } = await pendingPayment();
        const page = await client.get(`/dashboard/payments/${payment_id}`);
        const done = await client.post(`/dashboard/payments/${payment_id}/test/${outcome}`, {}, { csrf: members[role].csrfToken });
        const payment = (await api.get(`/Thai/v1/payments/${payment_id}`)).body;
        if (roleMay(role, 'payments:write')) {
          expect(page.text).toContain(`/test/${outcome}`);
          expect(done.status, done.text.slice(0, 300)).toBe(303);
          expect(payment.status).toBe(status);
        } else {
          expect(page.text).not.toContain('/test/');
          expect(done.status, role).toBe(403);
          expect(payment.status, role).toBe('pending');
        }
      }
    }
  });
});

describe("another merchant's payments", { timeout: 60_000 }, () => {
  it('are not found, not shown, not refunded', async () => {
    const stranger = apiClient(server.url, await server.merchant());
    const theirs = await paid(stranger, 10_000);
    const client = members.owner.client;
    expect((await client.get(`/dashboard/payments/${theirs}`)).status).toBe(404);
    expect((await client.get('/dashboard/payments/pay_does_not_exist')).status).toBe(404);
    expect((await client.get(`/dashboard/payments?q=${theirs}`)).text).not.toContain(`data-payment-id="${theirs}"`);
    const refund = await client.post(
      `/dashboard/payments/${theirs}/refund/confirm`,
      { amount: '100', key: 'not-my-payment-0001' },
      { csrf: members.owner.csrfToken },
    );
    expect(refund.status).toBe(404);
    expect((await stranger.get(`/Thai/v1/payments/${theirs}`)).body.refunded_amount).toBe(0);
  });
});

describe('finding payments', { timeout: 60_000 }, () => {
  it('finds a payment by its exact id, QR code id or reference, and filters by status', async () => {
    const reference = `INV-${Date.now()}`;
    const made = await pendingPayment({ reference });
    const other = await pendingPayment({ reference: `${reference}-other` });
    const client = members.viewer.client;
    for (const q of [made.payment_id, made.qr_code_id, reference]) {
      const page = await client.get(`/dashboard/payments?q=${encodeURIComponent(q)}`);
      expect(page.status).toBe(200);
      expect(page.text, q).toContain(`data-payment-id="${made.payment_id}"`);
      expect(page.text, q).not.toContain(`data-payment-id="${other.payment_id}"`);
    }
    expect((await client.get(`/dashboard/payments?q=${reference}&status=succeeded`)).text).not.toContain(made.payment_id);
    expect((await client.get('/dashboard/payments?status=pending')).text).toContain(made.payment_id);
    const wrongDate = await client.get('/dashboard/payments?from=2026-02-30');
    expect(wrongDate.status).toBe(200);
    expect(wrongDate.text).toContain('2026-02-30');
  });

  it('pages newest first without counting every payment', async () => {
    const client = members.viewer.client;
    const first = await client.get('/dashboard/payments');
    expect(first.text).toContain('rel="next"');
    const second = await client.get('/dashboard/payments?page=2');
    expect(second.status).toBe(200);
    expect(second.text).toContain('rel="prev"');
    const ids = (html: string) => [...html.matchAll(/data-payment-id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids(first.text)).toHaveLength(20);
    expect(ids(second.text).filter((id) => ids(first.text).includes(id))).toEqual([]);
  });
});
