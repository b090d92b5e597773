import { ConnectionError, PaymentDeclinedError, PaymentQrClient, PaymentQrError, ValidationError } from '@payment-qr/sdk';

const client = new PaymentQrClient({ apiKey: process.env.PAYMENT_QR_API_KEY!, baseUrl: process.env.PAYMENT_QR_BASE_URL! });

try {
  await client.payments.create({ token_id: 'tok_declined', amount: 89_000, currency: 'THB' });
} catch (error) {
  if (error instanceof PaymentDeclinedError) {
    // 402: the card was refused (error.code 'card_declined' or 'insufficient_funds'); ask for another card.
    console.log(`Card refused: ${error.code}`);
  } else if (error instanceof ValidationError) {
    // 400/422: fix the request. error.param names the field to blame.
    console.log(`Invalid ${error.param ?? 'request'}: ${error.message}`);
  } else if (error instanceof ConnectionError) {
    // No answer, even after retries. Repeating the call with the same idempotencyKey is safe.
    console.log(`No answer from the API (${error.code})`);
  } else if (error instanceof PaymentQrError) {
    // Everything else: branch on error.code; quote error.requestId to support.
    console.log(`${error.status} ${error.code} (request ${error.requestId})`);
  } else {
    throw error;
  }
}
