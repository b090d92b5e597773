import { describe, expect, it } from 'vitest';
import { dashboardMember } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer();

describe('the cashier role', () => {
  it('is offered on the Team page and opens Receive, and nothing else of the merchant', async () => {
    const owner = await dashboardMember(server, { role: 'owner' });
    const team = await owner.client.get('/dashboard/team');
    expect(team.text).toContain('<option value="cashier">แคชเชียร์</option>');
    const email = `cashier.${Date.now()}@example.com`;
    const invited = await owner.client.post('/dashboard/team/invitations', { email, role: 'cashier' });
    expect(invited.status).toBe(200);
    expect(invited.text).toContain(`${email} · แคชเชียร์`);

    const cashier = await dashboardMember(server, { role: 'cashier', merchantId: owner.merchantId });
    const home = await cashier.client.get('/dashboard');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/dashboard/receive');
    const forbidden = [
      '/dashboard/payments',
      '/dashboard/payments/pay_anything',
      '/dashboard/balance',
      '/dashboard/balance/ledger.csv',
      '/dashboard/developers',
      '/dashboard/developers/webhooks',
      '/dashboard/developers/events',
      '/dashboard/reports',
      '/dashboard/team',
      '/dashboard/audit',
      '/dashboard/live',
    ];
    for (const path of forbidden) expect({ path, status: (await cashier.client.get(path)).status }).toEqual({ path, status: 403 });
    const refund = await cashier.client.post('/dashboard/payments/pay_anything/refund', { amount: '1' });
    expect(refund.status).toBe(403);
    const account = await cashier.client.get('/dashboard/account');
    expect(account.status).toBe(200); // their own password and second factor
    expect(account.text).toContain('>รับเงิน</a>');
    expect(account.text).not.toContain('>การชำระเงิน</a>');
    expect(account.text).not.toContain('>หน้าแรก</a>');

    for (const role of ['developer', 'viewer'] as const) {
      const member = await dashboardMember(server, { role, merchantId: owner.merchantId });
      expect({ role, status: (await member.client.get('/dashboard/receive')).status }).toEqual({ role, status: 403 });
    }
  });
});
