import { PaymentQrClient } from '@payment-qr/sdk';

const client = new PaymentQrClient({
  apiKey: process.env.PAYMENT_QR_API_KEY!, // sk_test_... printed by `npm start` or `npm run cli -- merchants create`
  baseUrl: process.env.PAYMENT_QR_BASE_URL!, // where your service runs, e.g. https://payment-qr.example.com
});

// 1. A QR code for 1,500.00 THB. Amounts are integers in satang: 1 THB = 100 satang.
const qrCode = await client.qrCodes.create({
  amount: 150_000,
  currency: 'THB',
  reference: 'INV-2026-00042',
  metadata: { order_id: 'ORD-88213' },
});

// 2. Show it on your checkout page. The image needs no API key; any Thai banking app can scan it.
const imageUrl = client.qrCodes.imageUrl(qrCode.qr_code_id, { format: 'svg', size: 400 });
console.log(`<img src="${imageUrl}" alt="Scan to pay 1,500.00 THB">`);

// In the sandbox, play the customer's bank (a real customer scans the code instead).
if (process.env.PAYMENT_QR_API_KEY?.startsWith('sk_test_')) {
  await client.testHelpers.succeed(qrCode.payment_id);
}

// 3. Wait for the payment. Webhooks tell you first; polling is the backup. Still pending after 5 minutes: WaitTimeoutError.
const payment = await client.payments.waitForCompletion(qrCode.payment_id, { timeoutMs: 5 * 60_000 });
console.log(`Payment ${payment.payment_id} is ${payment.status}`); // succeeded, failed or expired

// 4. Refund part of it: 500.00 THB.
if (payment.status === 'succeeded') {
  const refund = await client.refunds.create({ payment_id: payment.payment_id, amount: 50_000, reason: 'Customer returned one item' });
  console.log(`Refund ${refund.refund_id}: ${refund.status}`);
}
