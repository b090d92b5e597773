import { PaymentQrClient } from '@payment-qr/sdk';

const client = new PaymentQrClient({ apiKey: process.env.PAYMENT_QR_API_KEY!, baseUrl: process.env.PAYMENT_QR_BASE_URL! });

// Every succeeded payment of November, across as many pages as it takes (100 per request).
let received = 0;
for await (const transaction of client.transactions.list({ type: 'payment', status: 'succeeded', start_date: '2026-11-01', end_date: '2026-11-30' })) {
  received += transaction.amount;
}
console.log(`Received ${received / 100} THB`);

// One page, with the total count, e.g. for a table in your back office.
const page = await client.payments.list({ status: 'pending' }).page({ limit: 20, offset: 0 });
console.log(`${page.total} pending payments, showing ${page.data.length}; more: ${page.hasMore}`);
