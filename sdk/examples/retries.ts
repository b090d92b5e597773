import { PaymentQrClient } from '@payment-qr/sdk';

const client = new PaymentQrClient({
  apiKey: process.env.PAYMENT_QR_API_KEY!,
  baseUrl: process.env.PAYMENT_QR_BASE_URL!,
  maxRetries: 4, // default 2
  timeout: 10_000, // per attempt, in milliseconds; default 30000
});

const order = { id: 'ORD-88213', totalSatang: 150_000 };

// Your own key makes the call idempotent across restarts of your process, not only across retries.
const qrCode = await client.qrCodes.create({ amount: order.totalSatang, currency: 'THB', reference: order.id }, { idempotencyKey: `qr-${order.id}` });
console.log(qrCode.qr_code_id);
