import express from 'express';
import { PaymentQrClient, WebhookVerificationError, type WebhookEvent } from '@payment-qr/sdk';

const client = new PaymentQrClient({ apiKey: process.env.PAYMENT_QR_API_KEY!, baseUrl: process.env.PAYMENT_QR_BASE_URL! });
const webhookSecret = process.env.PAYMENT_QR_WEBHOOK_SECRET!; // whsec_..., from client.webhooks.secret(id)

const app = express();

// The signature covers the exact bytes sent: this route gets the raw body (a Buffer), not parsed JSON.
// Register it before any app.use(express.json()).
app.post('/hooks/payment-qr', express.raw({ type: 'application/json' }), (req, res) => {
  let event: WebhookEvent;
  try {
    event = client.webhooks.verify(req.body, req.headers, webhookSecret);
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      res.status(400).send(error.message); // forged, altered or replayed: ignore it
      return;
    }
    throw error;
  }

  // Deliveries come at least once: event.id is the same on every retry, so drop the ones you have seen.
  switch (event.event) {
    case 'payment.succeeded':
      console.log(`Order ${String(event.data.metadata.order_id)} paid: ${event.data.amount / 100} THB`);
      break;
    case 'payment.failed': // data.status says 'failed' or 'expired'
      console.log(`Payment ${event.data.payment_id} ${event.data.status}`);
      break;
    case 'refund.completed':
      console.log(`Refund ${event.data.refund_id} of ${event.data.amount / 100} THB done`);
      break;
  }
  res.sendStatus(200); // answer 2xx within 10 seconds, or the delivery is retried
});

const port = Number(process.env.PORT ?? 4242);
export const server = app.listen(port, () => console.log(`Listening for webhooks on http://127.0.0.1:${port}/hooks/payment-qr`));
