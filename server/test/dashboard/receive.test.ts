import { describe, expect, it } from 'vitest';
import { dashboardMember, decodeHtml } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

// Display streams end after 1 s here, so that a test sees one end by itself (the page's EventSource reconnects).
const { server, merchant, api } = usingTestServer({ env: { CHECKOUT_STREAM_LIFETIME: '1s' } });

interface Till {
  till_id: string;
  display_url: string;
}
const newTill = async (name: string, apiKey?: string): Promise<Till> => {
  const res = await api.post('/Thai/v1/tills', { name }, apiKey ? { apiKey } : {});
  expect(res.status, res.text).toBe(200);
  return res.body as Till;
};
const formKeyOf = (html: string) => /name="key" value="([^"]+)"/.exec(html)![1]!;

/** The events of a display's stream until it ends (or `limit` events arrived), as the browser's EventSource reads them. */
async function displayEvents(
  url: string,
  options: { limit?: number; onFirst?: () => Promise<void> } = {},
): Promise<{ status: number; events: { event: string; data: string }[] }> {
  const response = await fetch(`${url}/events`);
  if (!response.ok || !response.body) return { status: response.status, events: [] };
  const events: { event: string; data: string }[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffer += decoder.decode(chunk.value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data !== undefined && events.push({ event, data }) === 1) await options.onFirst?.();
    }
    if (events.length >= (options.limit ?? 10)) break;
  }
  await reader.cancel();
  return { status: response.status, events };
}

describe('Receive', () => {
  it('makes one QR payment at the till per form, however often it is sent, and lists the till day', async () => {
    const owner = await dashboardMember(server, { role: 'owner', merchantId: merchant.id });
    const till = await newTill('เคาน์เตอร์ A');
    const page = await owner.client.get(`/dashboard/receive?till=${till.till_id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('สร้าง QR');
    const form = { amount: '150.50', reference: 'โต๊ะ 9', till_id: till.till_id, key: formKeyOf(page.text) };
    const sent = await Promise.all([owner.client.post('/dashboard/receive', form), owner.client.post('/dashboard/receive', form)]);
    expect(sent.map((r) => r.status)).toEqual([303, 303]);
    expect(sent[1]!.location).toBe(sent[0]!.location);
    const paymentId = /sales\/(pay_[A-Za-z0-9_-]+)/.exec(sent[0]!.location!)![1]!;

    const listed = await api.get(`/Thai/v1/payments?till_id=${till.till_id}`);
    expect(listed.status, listed.text).toBe(200);
    const payments = (listed.body as { payments: { payment_id: string; amount: number; reference: string; till_id: string }[] }).payments;
    expect(payments.map((p) => [p.payment_id, p.amount, p.reference, p.till_id])).toEqual([[paymentId, 15_050, 'โต๊ะ 9', till.till_id]]);

    const sale = await owner.client.get(`/dashboard/receive/sales/${paymentId}`);
    expect(sale.status).toBe(200);
    expect(sale.text).toContain('฿150.50');
    const day = decodeHtml((await owner.client.get('/dashboard/receive')).text); // the till is remembered
    expect(day).toContain(`data-payment-id="${paymentId}"`);
    expect(day).toContain('สำเร็จ 0 รายการ รวม ฿0.00');
  });

  it('refuses a wrong amount or another merchant’s till, and shows no payment taken elsewhere', async () => {
    const owner = await dashboardMember(server, { role: 'owner', merchantId: merchant.id });
    const till = await newTill('เคาน์เตอร์ B');
    const page = await owner.client.get(`/dashboard/receive?till=${till.till_id}`);
    for (const amount of ['', 'abc', '0.5', '1.234', '2000000.01', '-5']) {
      const res = await owner.client.post('/dashboard/receive', { amount, till_id: till.till_id, key: formKeyOf(page.text) });
      expect({ amount, status: res.status }).toEqual({ amount, status: 422 });
    }
    const other = await server.merchant();
    const theirs = await newTill('Theirs', other.apiKey);
    const refused = await owner.client.post('/dashboard/receive', { amount: '10', till_id: theirs.till_id, key: formKeyOf(page.text) });
    expect(refused.status).toBe(422);
    expect(decodeHtml(refused.text)).toContain('จุดรับเงินนี้รับชำระไม่ได้ (ไม่มีหรือปิดแล้ว)'); // not the API's English
    const elsewhere = await api.post('/Thai/v1/qr-codes', { amount: 1_000, currency: 'THB' });
    expect((await owner.client.get(`/dashboard/receive/sales/${(elsewhere.body as { payment_id: string }).payment_id}`)).status).toBe(404);
  });

  it('is open to a cashier, who sees the till day but not the payment pages', async () => {
    const cashier = await dashboardMember(server, { role: 'cashier', merchantId: merchant.id });
    const till = await newTill('เคาน์เตอร์ C');
    const page = await cashier.client.get(`/dashboard/receive?till=${till.till_id}`);
    expect(page.status).toBe(200);
    const made = await cashier.client.post('/dashboard/receive', { amount: '99', till_id: till.till_id, key: formKeyOf(page.text) });
    expect(made.status).toBe(303);
    expect((await cashier.client.get(made.location!)).status).toBe(200);
    expect((await cashier.client.get('/dashboard/settings/tills')).status).toBe(403);
    expect((await cashier.client.get(`/dashboard/payments/${/sales\/(pay_[^/?]+)/.exec(made.location!)![1]}`)).status).toBe(403);
  });
});

describe('the customer display', () => {
  it('streams its till’s state, ends the stream after its lifetime, and says "gone" once its URL is rolled', async () => {
    const till = await newTill('Display');
    const page = await fetch(till.display_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const lifetime = await displayEvents(till.display_url); // ends by itself after 1 s
    expect(lifetime.events.map((e) => e.event)).toEqual(['state']);
    expect(JSON.parse(lifetime.events[0]!.data)).toEqual({ pending: null, latest: null });

    // Rolled while a display watches: its stream says so and ends.
    const roll = async () => {
      const rolled = await api.post(`/Thai/v1/tills/${till.till_id}/display-url/roll`, {});
      expect(rolled.status, rolled.text).toBe(200);
    };
    const seen = await displayEvents(till.display_url, { limit: 2, onFirst: roll });
    expect(seen.events.map((e) => e.event)).toContain('gone');
    expect((await fetch(till.display_url)).status).toBe(404);
    expect((await displayEvents(till.display_url)).status).toBe(404);
    expect((await fetch(`${new URL(till.display_url).origin}/Thai/tills/display/not-a-real-token-at-all`)).status).toBe(404);
  });
});
