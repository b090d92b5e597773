// CommonJS: Node >= 20.19 loads the SDK with require() (it is an ES module; Node's require(esm) does the rest).
const { PaymentQrClient, PaymentQrError } = require('@payment-qr/sdk');

const client = new PaymentQrClient({ apiKey: process.env.PAYMENT_QR_API_KEY, baseUrl: process.env.PAYMENT_QR_BASE_URL });

client.qrCodes
  .create({ amount: 15_000, currency: 'THB', reference: 'ORDER-1001' })
  .then((qrCode) => console.log(`QR code ${qrCode.qr_code_id} for payment ${qrCode.payment_id}: ${qrCode.status}`))
  .catch((error) => {
    console.error(error instanceof PaymentQrError ? `${error.status} ${error.code}: ${error.message}` : error);
    process.exitCode = 1;
  });
