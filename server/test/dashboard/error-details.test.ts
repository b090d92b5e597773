// A refusal or a failure the service words in English reaches a Thai page as a Thai sentence, with the service's
// English detail after it in brackets (marked lang="en"), never the English alone: Developers, Tills, deliveries.
import { beforeAll, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/app/deliver-webhooks.js';
import { dashboardMember, decodeHtml, type DashboardMember } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

// Loopback URLs are allowed, as for a local receiver; deliveries are sent by the test itself (no dispatcher).
const { server } = usingTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });

/** The alert's sentence and its bracketed English detail, as a reader sees them. */
function alertOf(html: string): { sentence: string; detail: string | null } {
  const alert = /id="form-error" role="alert">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
  const detail = /<span lang="en">\(([\s\S]*?)\)<\/span>/.exec(alert)?.[1];
  return { sentence: decodeHtml(alert.replace(/<span[\s\S]*$/, '')).trim(), detail: detail === undefined ? null : decodeHtml(detail) };
}

let owner: DashboardMember;
beforeAll(async () => {
  owner = await dashboardMember(server, { role: 'owner' });
});

describe('English details on Thai pages', () => {
  it('a restricted key without permissions: the Thai sentence, then the service’s words in brackets', async () => {
    await owner.client.get('/dashboard/developers?lang=th');
    const res = await owner.client.post('/dashboard/developers/keys', { kind: 'restricted' });
    expect(res.status).toBe(422);
    expect(alertOf(res.text)).toEqual({
      sentence: 'เลือกสิทธิ์อย่างน้อยหนึ่งรายการสำหรับคีย์จำกัดสิทธิ์',
      detail: expect.stringMatching(/^Give at least one permission/),
    });
  });

  it('a webhook URL that is not one', async () => {
    await owner.client.get('/dashboard/developers/webhooks');
    const res = await owner.client.post('/dashboard/developers/webhooks', { url: 'ftp://example.com/hook', events: 'payment.succeeded' });
    expect(res.status).toBe(422);
    const { sentence, detail } = alertOf(res.text);
    expect(sentence).toBe('ใช้ URL นี้ไม่ได้');
    expect(detail).toMatch(/url/i);
  });

  it('a till’s name too long, and a closed till’s display rolled (Tills settings)', async () => {
    await owner.client.get('/dashboard/settings/tills');
    const long = await owner.client.post('/dashboard/settings/tills', { name: 'ก'.repeat(51) });
    expect(long.status).toBe(422);
    expect(alertOf(long.text)).toEqual({ sentence: 'ข้อมูลไม่ถูกต้อง', detail: "The till's name must be at most 50 characters." });

    const made = await owner.client.post('/dashboard/settings/tills', { name: 'เคาน์เตอร์ 1' });
    const tillId = /data-till-id="([^"]+)"/.exec(made.text)?.[1];
    expect((await owner.client.post(`/dashboard/settings/tills/${tillId}/close`)).status).toBe(200);
    const again = await owner.client.post(`/dashboard/settings/tills/${tillId}/roll`);
    expect(again.status).toBe(422);
    expect(alertOf(again.text)).toEqual({ sentence: 'จุดรับเงินนี้ปิดแล้ว', detail: expect.stringContaining(tillId!) });
  });

  it('a delivery nobody answered: “no answer” in Thai, the sender’s error in brackets', async () => {
    const api = apiClient(`${server.url}/Thai/v1`, { apiKey: owner.apiKey! });
    const hook = await api.post('/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['payment.succeeded'] }); // nothing listens on port 9
    expect(hook.status, hook.text).toBe(200);
    expect((await api.post(`/webhooks/${hook.body.webhook_id}/test`, {})).status).toBe(200);
    expect(await deliverDueWebhooks(server.running.runtime.services)).toBeGreaterThan(0);

    const page = await owner.client.get(`/dashboard/developers/webhooks/${hook.body.webhook_id}`);
    const cell = /class="delivery-response">([\s\S]*?)<\/dd>/.exec(page.text)?.[1] ?? '';
    expect(decodeHtml(cell.replace(/<span[\s\S]*$/, '')).trim()).toBe('ไม่ได้รับคำตอบ');
    expect(cell).toMatch(/<span lang="en">\(.+\)<\/span>/);
  });
});
