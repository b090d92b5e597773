import { describe, expect, it } from 'vitest';
import { dashboardClient, dashboardMember } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer();

describe('the dashboard shell', () => {
  it('sends a visitor without a session to the login page, and back after', async () => {
    const res = await dashboardClient(server.url).get('/dashboard/payments?status=succeeded');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/login?next=%2Fdashboard%2Fpayments%3Fstatus%3Dsucceeded');
  });

  it('shows a signed-in member the menu of their role, in Thai by default and English once asked (remembered)', async () => {
    const owner = await dashboardMember(server, { role: 'owner', merchantName: 'ร้านกาแฟ' });
    const home = await owner.client.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<html lang="th">');
    expect(home.text).toContain('ข้อมูลทดสอบ');
    expect(home.text).toContain('ร้านกาแฟ');
    for (const label of ['หน้าแรก', 'การชำระเงิน', 'ยอดเงิน', 'นักพัฒนา', 'รายงาน', 'ทีม', 'บัญชีของฉัน', 'บันทึกการใช้งาน'])
      expect(home.text).toContain(`>${label}</a>`);
    const english = await owner.client.get('/dashboard/account?lang=en');
    expect(english.text).toContain('<html lang="en">');
    expect((await owner.client.get('/dashboard')).text).toContain('>Audit log</a>');
    const headers = home.headers;
    expect(headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(headers.get('cache-control')).toBe('no-store');

    const viewer = await dashboardMember(server, { role: 'viewer', merchantId: owner.merchantId });
    const seen = (await viewer.client.get('/dashboard')).text;
    expect(seen).not.toContain('>ทีม</a>');
    expect(seen).not.toContain('>บันทึกการใช้งาน</a>');
    expect(seen).toContain('>รายงาน</a>');
    expect((await viewer.client.get('/dashboard/team')).status).toBe(403);
    expect((await viewer.client.get('/dashboard/audit')).status).toBe(403);
  });

  it('refuses a POST without the token with 403', async () => {
    const owner = await dashboardMember(server, { role: 'owner' });
    expect((await owner.client.post('/dashboard/account/sessions/sign-out-others', {}, { csrf: null })).status).toBe(403);
    expect((await owner.client.post('/dashboard/account/sessions/sign-out-others', {}, { csrf: owner.csrfToken })).status).toBe(200);
  });
});
