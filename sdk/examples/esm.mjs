// ES modules: Node >= 20.19, bundlers (webpack, Vite, esbuild), edge runtimes.
import { PaymentQrClient } from '@payment-qr/sdk';

const client = new PaymentQrClient({ apiKey: process.env.PAYMENT_QR_API_KEY, baseUrl: process.env.PAYMENT_QR_BASE_URL });

const qrCode = await client.qrCodes.create({ amount: 15_000, currency: 'THB', reference: 'ORDER-1001' });
console.log(`QR code ${qrCode.qr_code_id} for payment ${qrCode.payment_id}: ${qrCode.status}`);
