// Type-level tests, checked by `tsc -p tsconfig.json` (never run): each @ts-expect-error line must stay an
// error, or the typecheck fails; the expectTypeOf lines pin the result types to the contract's.
import { expectTypeOf } from 'vitest';
import {
  PaymentQrClient,
  type Page,
  type PageIterable,
  type Payment,
  type PaymentQrError,
  type QrCode,
  type Refund,
  type Transaction,
  type WaitTimeoutError,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type components,
} from '../src/index.js';

declare const client: PaymentQrClient;

export async function parametersThatDoNotCompile(): Promise<void> {
  // @ts-expect-error the amount is an integer number of satang, not a string
  await client.qrCodes.create({ amount: '1500.00', currency: 'THB' });
  // @ts-expect-error currency is required
  await client.qrCodes.create({ amount: 150_000 });
  // @ts-expect-error the only currency is THB
  await client.qrCodes.create({ amount: 150_000, currency: 'USD' });
  // @ts-expect-error unknown field
  await client.qrCodes.create({ amount: 150_000, currency: 'THB', note: 'x' });
  // @ts-expect-error the body idempotency_key is replaced by the idempotencyKey request option
  await client.qrCodes.create({ amount: 150_000, currency: 'THB', idempotency_key: 'k' });
  // @ts-expect-error image formats are png and svg
  client.qrCodes.imageUrl('qr_1', { format: 'jpeg' });

  // @ts-expect-error unknown payment status filter
  client.payments.list({ status: 'paid' });
  // @ts-expect-error unknown transaction status filter
  client.transactions.list({ status: 'completed' });
  // @ts-expect-error unknown transaction type filter
  client.transactions.list({ type: 'withdrawal' });
  // @ts-expect-error limit is a number
  client.transactions.list({ limit: '10' });
  // @ts-expect-error a card payment needs its token
  await client.payments.create({ amount: 89_000, currency: 'THB' });
  // @ts-expect-error a refund needs the payment id
  await client.refunds.create({ amount: 100 });
  // @ts-expect-error unknown event kind
  await client.webhooks.create({ url: 'https://shop.example/hook', events: ['payment.paid'] });
  // @ts-expect-error payer details are strings
  await client.testHelpers.succeed('pay_1', { client_name: 42 });

  // @ts-expect-error unknown request option
  await client.payments.retrieve('pay_1', { retries: 3 });
  // @ts-expect-error the Idempotency-Key is a string
  await client.qrCodes.create({ amount: 150_000, currency: 'THB' }, { idempotencyKey: 42 });
}

export function optionsThatDoNotCompile(): void {
  const baseUrl = 'https://payment-qr.example.com';
  // @ts-expect-error apiKey is required
  new PaymentQrClient({ baseUrl });
  // @ts-expect-error baseUrl is required: the SDK does not guess where the service runs
  new PaymentQrClient({ apiKey: 'sk_test_x' });
  // @ts-expect-error unknown option
  new PaymentQrClient({ apiKey: 'sk_test_x', baseUrl, maxNetworkRetries: 3 });
  // @ts-expect-error timeout is in milliseconds, a number
  new PaymentQrClient({ apiKey: 'sk_test_x', baseUrl, timeout: '30s' });
}

export async function resultsAreTheContractTypes(): Promise<void> {
  expectTypeOf(await client.qrCodes.create({ amount: 150_000, currency: 'THB', expiry_minutes: 30 })).toEqualTypeOf<components['schemas']['QrCode']>();
  expectTypeOf<QrCode['status']>().toEqualTypeOf<'pending'>();
  expectTypeOf(client.qrCodes.imageUrl('qr_1')).toEqualTypeOf<string>();
  expectTypeOf(await client.payments.retrieve('pay_1')).toEqualTypeOf<Payment>();
  expectTypeOf<Payment['status']>().toEqualTypeOf<'pending' | 'succeeded' | 'failed' | 'expired' | 'refunded'>();
  expectTypeOf(client.payments.list()).toEqualTypeOf<PageIterable<Payment>>();
  expectTypeOf(await client.payments.list().page()).toEqualTypeOf<Page<Payment>>();
  expectTypeOf(await client.payments.waitForCompletion('pay_1')).toEqualTypeOf<Payment>();
  expectTypeOf(await client.refunds.create({ payment_id: 'pay_1' })).toEqualTypeOf<Refund>();
  expectTypeOf(client.transactions.list()).toEqualTypeOf<PageIterable<Transaction>>();
  expectTypeOf(await client.webhooks.retrieve('wh_1')).toEqualTypeOf<Webhook>();
  expectTypeOf(await client.webhooks.secret('wh_1')).toEqualTypeOf<{ secret: string }>();
  expectTypeOf(await client.webhooks.delete('wh_1')).toEqualTypeOf<{ webhook_id: string; deleted: true }>();
  expectTypeOf(client.webhooks.deliveries('wh_1')).toEqualTypeOf<PageIterable<WebhookDelivery>>();
  expectTypeOf(client.webhooks.verify('{}', {}, 'whsec_x')).toEqualTypeOf<WebhookEvent>();
  expectTypeOf<PaymentQrError['code']>().toExtend<string>();
  expectTypeOf<WaitTimeoutError>().toExtend<PaymentQrError>();
  expectTypeOf<WaitTimeoutError['paymentId']>().toEqualTypeOf<string>();
  expectTypeOf<WaitTimeoutError['lastStatus']>().toEqualTypeOf<Payment['status']>();

  for await (const transaction of client.transactions.list({ status: 'succeeded' })) {
    expectTypeOf(transaction).toEqualTypeOf<Transaction>();
    expectTypeOf(transaction.amount).toBeNumber();
  }

  const event = client.webhooks.verify('{}', {}, 'whsec_x');
  if (event.event === 'refund.completed') expectTypeOf(event.data.refund_id).toBeString();
  // @ts-expect-error a payment event has no refund_id: narrow on event.event first
  void event.data.refund_id;
}
