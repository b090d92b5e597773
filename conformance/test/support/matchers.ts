import { MatchersV3 } from '@pact-foundation/pact';
import { EXAMPLE_API_KEY } from './pact.js';

const { regex, datetime, integer, like, eachLike, equal } = MatchersV3;

/** The contract's id patterns (components/schemas/*Id). */
export const ID = {
  payment: '^pay_[0-9A-Za-z]+$',
  qrCode: '^qr_[0-9A-Za-z]{26,}$',
  refund: '^rfd_[0-9A-Za-z]+$',
  transaction: '^txn_[0-9A-Za-z]+$',
  webhook: '^wh_[0-9A-Za-z]+$',
  event: '^evt_[0-9A-Za-z]+$',
  delivery: '^whd_[0-9A-Za-z]+$',
  withdrawal: '^wd_[0-9A-Za-z]+$',
  balanceTransaction: '^bt_[0-9A-Za-z]+$',
  taxInvoice: '^tiv_[0-9A-Za-z]+$',
  till: '^till_[0-9A-Za-z]+$',
  slipVerification: '^slv_[0-9A-Za-z]+$',
} as const;

export const EXAMPLE = {
  paymentId: 'pay_01JD3X7K9R5G8N2P4S6T8V0WXY',
  qrCodeId: 'qr_01JD3X7K9QH2M4T8V6W5R3N1BZ',
  refundId: 'rfd_01JD4A2B6C8D0E2F4G6H8J0K2M',
  transactionId: 'txn_01JD3X7K9S7H9J1K3M5N7P9Q1R',
  webhookId: 'wh_01JD3V5W7X9Y1Z3A5B7C9D1E3F',
  eventId: 'evt_01JD3X9P2Q4R6S8T0V2W4X6Y8Z',
  deliveryId: 'whd_01JD3X9P3A5B7C9D1E3F5G7H9J',
  timestamp: '2026-11-20T08:15:30.123Z',
  withdrawalId: 'wd_01JD5B3C7D9E1F3G5H7J9K1M3N',
  balanceTransactionId: 'bt_01JD5B3C7D9E1F3G5H7J9K1M3P',
  taxInvoiceId: 'tiv_01JD5B3C7D9E1F3G5H7J9K1M3N',
  tillId: 'till_7c1e9a3f0b2d4e6f8a0c2e4f6a8b0c2d',
  slipVerificationId: 'slv_01JD5B3C7D9E1F3G5H7J9K1M3N',
  month: '2026-10',
  date: '2026-10-20',
} as const;

/**
 * A value the provider fills from its state (`${name}` expressions) while the consumer side still checks it by
 * regex: a wrong path or header from the SDK fails here, not only on the provider.
 */
export function fromState(expression: string, example: string, pattern: string): MatchersV3.Matcher<string> {
  return { 'pact:matcher:type': 'regex', regex: pattern, 'pact:generator:type': 'ProviderState', expression, value: example } as MatchersV3.Matcher<string>;
}

const ID_OF_STATE = {
  payment_id: [ID.payment, EXAMPLE.paymentId],
  qr_code_id: [ID.qrCode, EXAMPLE.qrCodeId],
  refund_id: [ID.refund, EXAMPLE.refundId],
  webhook_id: [ID.webhook, EXAMPLE.webhookId],
  withdrawal_id: [ID.withdrawal, EXAMPLE.withdrawalId],
  event_id: [ID.event, EXAMPLE.eventId],
  delivery_id: [ID.delivery, EXAMPLE.deliveryId],
  tax_invoice_id: [ID.taxInvoice, EXAMPLE.taxInvoiceId],
  till_id: [ID.till, EXAMPLE.tillId],
  slip_verification_id: [ID.slipVerification, EXAMPLE.slipVerificationId],
  month: ['^\\d{4}-(0[1-9]|1[0-2])$', EXAMPLE.month],
  date: ['^\\d{4}-\\d{2}-\\d{2}$', EXAMPLE.date],
} as const;
type StateId = keyof typeof ID_OF_STATE;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A path under `base` whose id segments come from the provider state, e.g. apiPath`/payments/${'payment_id'}`. */
function pathUnder(base: string) {
  return (strings: TemplateStringsArray, ...names: StateId[]): MatchersV3.Matcher<string> => {
    let expression = base;
    let example = base;
    let pattern = `^${escape(base)}`;
    strings.forEach((text, i) => {
      expression += text;
      example += text;
      pattern += escape(text);
      const name = names[i];
      if (name === undefined) return;
      const [idPattern, exampleId] = ID_OF_STATE[name];
      expression += `\${${name}}`;
      example += exampleId;
      pattern += idPattern.slice(1, -1);
    });
    return fromState(expression, example, `${pattern}$`);
  };
}

/** Paths under the canonical base the SDK uses. */
export const apiPath = pathUnder('/Thai/v1');
/** The public QR image lives under /Thai, without the version. */
export const imagePath = pathUnder('/Thai');

/** An id in a request body, filled from the provider state. */
export const idFromState = (name: StateId): MatchersV3.Matcher<string> => fromState(`\${${name}}`, ID_OF_STATE[name][1], ID_OF_STATE[name][0]);

/** The Authorization header of a merchant the provider state created. */
export const authorized = {
  Authorization: fromState('Bearer ${api_key}', `Bearer ${EXAMPLE_API_KEY}`, '^Bearer sk_test_[A-Za-z0-9_-]+$'),
};

/**
 * The SDK sends one random UUID per logical POST; the verifier makes a new one for each request too, so that
 * interactions verified on one merchant (a deployment's key) never share a key.
 */
export const idempotencyKeyHeader = {
  'Idempotency-Key': {
    'pact:matcher:type': 'regex',
    regex: '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
    'pact:generator:type': 'Uuid',
    value: '5b0f2c6e-8d1a-4f3b-9c7e-2a4d6f8b0c1e',
  } as MatchersV3.Matcher<string>,
};

export const jsonRequest = { 'Content-Type': regex('^application/json', 'application/json') };

/** An SDK POST with a JSON body: the merchant's key, the body's type and a fresh Idempotency-Key. */
export const postHeaders = { ...authorized, ...jsonRequest, ...idempotencyKeyHeader };

/** Every answer carries a Request-Id and, apart from images, a JSON body. */
export const jsonResponse = {
  'Content-Type': regex('^application/json(;.*)?$', 'application/json; charset=utf-8'),
  'Request-Id': regex('^\\S+$', 'req_01JD3X7K9PZ8W6E4R2T0Y8V6G4'),
};

export const id = (kind: keyof typeof ID, example: string) => regex(ID[kind], example);
export const timestamp = (example: string = EXAMPLE.timestamp) => datetime("yyyy-MM-dd'T'HH:mm:ss.SSSX", example);

export interface PaymentShape {
  status: string;
  amount: number;
  kind?: 'qr' | 'card';
  refunded_amount?: number;
  completed?: boolean;
  reference?: string | null;
  metadata?: Record<string, string>;
  client_bank_account?: string | null;
  /** Taken at a till (the state's `till_id`); a payment to its static QR has no reference and no expiry. */
  till?: 'qr' | 'static';
}

/** The Payment resource as the SDK types it: every field present, `null` where it does not apply. */
export function paymentLike(shape: PaymentShape): Record<string, unknown> {
  const card = shape.kind === 'card';
  return {
    payment_id: id('payment', EXAMPLE.paymentId),
    till_id: shape.till ? idFromState('till_id') : null,
    qr_code_id: card ? null : id('qrCode', EXAMPLE.qrCodeId),
    status: equal(shape.status),
    amount: integer(shape.amount),
    currency: equal('THB'),
    reference: card ? null : (shape.reference ?? null),
    description: card ? like('Pro plan, 12 months') : null,
    client_name: null,
    client_bank_name: null,
    client_bank_account: shape.client_bank_account ?? null,
    metadata: like(shape.metadata ?? {}),
    refunded_amount: integer(shape.refunded_amount ?? 0),
    card: card ? { last4: regex('^[0-9]{4}$', '4242'), brand: regex('^(visa|mastercard)$', 'visa') } : null,
    created_at: timestamp(),
    updated_at: timestamp(),
    completed_at: shape.completed ? timestamp() : null,
    expires_at: card || shape.till === 'static' ? null : timestamp('2026-11-20T08:30:30.123Z'),
  };
}

export function refundLike(amount: number, reason: string | null): Record<string, unknown> {
  return {
    refund_id: id('refund', EXAMPLE.refundId),
    payment_id: id('payment', EXAMPLE.paymentId),
    amount: integer(amount),
    currency: equal('THB'),
    status: equal('succeeded'),
    reason,
    created_at: timestamp(),
  };
}

export const listOf = (key: string, item: unknown, page: { total: number; limit: number; offset: number }) => ({
  [key]: eachLike(item),
  total: integer(page.total),
  limit: equal(page.limit),
  offset: equal(page.offset),
});

/** The error envelope with a stable `code` and `type`; the message is for humans, so only its type is fixed. */
export function errorLike(code: string, type: string, param?: string): Record<string, unknown> {
  return {
    error: {
      code: equal(code),
      message: like('A human-readable explanation.'),
      type: equal(type),
      ...(param === undefined ? {} : { param: equal(param) }),
      request_id: regex('^\\S+$', 'req_01JD3X7K9PZ8W6E4R2T0Y8V6G4'),
    },
  };
}

export interface QrCodeShape {
  amount: number;
  reference: string | null;
  client_name: string | null;
  client_bank_name: string | null;
  metadata: Record<string, string>;
  return_url?: string;
  /** Generated at the state's till. */
  till?: boolean;
}

/** The QR code answer: a PromptPay payload, its public image address and the pending payment it collects. */
export function qrCodeLike(shape: QrCodeShape): Record<string, unknown> {
  return {
    qr_code_id: id('qrCode', EXAMPLE.qrCodeId),
    qr_data: regex(
      '^000201010212.*6304[0-9A-F]{4}$',
      '00020101021230780016A00000067701011201150105553012345010219PAY01JD3X7K9R5G8N2P0312INV20260004253037645802TH54071500.0063048CCA',
    ),
    qr_image_url: regex('^https?://[^/]+/Thai/qr-codes/qr_[0-9A-Za-z]{26,}/image$', `http://127.0.0.1:3000/Thai/qr-codes/${EXAMPLE.qrCodeId}/image`),
    checkout_url: regex('^https?://[^/]+/Thai/pay/qr_[0-9A-Za-z]{26,}$', `http://127.0.0.1:3000/Thai/pay/${EXAMPLE.qrCodeId}`),
    return_url: shape.return_url === undefined ? null : equal(shape.return_url),
    amount: equal(shape.amount),
    currency: equal('THB'),
    reference: shape.reference,
    client_name: shape.client_name,
    client_bank_name: shape.client_bank_name,
    client_bank_account: null,
    expires_at: timestamp('2026-11-20T08:30:30.123Z'),
    created_at: timestamp(),
    payment_id: id('payment', EXAMPLE.paymentId),
    status: equal('pending'),
    metadata: equal(shape.metadata),
    till_id: shape.till ? idFromState('till_id') : null,
  };
}

/** A till: its reference, its display's secret URL and its static QR (point of initiation 11, no amount). */
export function tillLike(name: string, status: 'active' | 'closed'): Record<string, unknown> {
  return {
    till_id: idFromState('till_id'),
    name: equal(name),
    status: equal(status),
    reference: regex('^[A-Z0-9]{1,20}$', 'K7Q2M9X4B1T8R5N3W6Z0'),
    display_url: regex('^https?://[^/]+/Thai/tills/display/[A-Za-z0-9_-]{22,}$', 'http://127.0.0.1:3000/Thai/tills/display/q3Zk9v0Yb2Lr8Xc1Wn5Tg7Hs'),
    static_qr: {
      qr_data: regex(
        '^000201010211.*6304[0-9A-F]{4}$',
        '00020101021129370016A000000677010111011300660000000005303764'.concat('5802TH62240520K7Q2M9X4B1T8R5N3W6Z06304ABCD'),
      ),
      qr_image_url: regex('^https?://[^/]+/Thai/qr-codes/qr_[0-9A-Za-z]{26,}/image$', `http://127.0.0.1:3000/Thai/qr-codes/${EXAMPLE.qrCodeId}/image`),
    },
    created_at: timestamp(),
  };
}

export function transactionLike(type: 'payment' | 'refund' | 'failed', status: string, amount: number): Record<string, unknown> {
  return {
    transaction_id: id('transaction', EXAMPLE.transactionId),
    payment_id: id('payment', EXAMPLE.paymentId),
    refund_id: type === 'refund' ? id('refund', EXAMPLE.refundId) : null,
    type: equal(type),
    status: equal(status),
    amount: integer(amount),
    currency: equal('THB'),
    created_at: timestamp(),
  };
}

export function webhookLike(url: string, events: string[]): Record<string, unknown> {
  return { webhook_id: id('webhook', EXAMPLE.webhookId), url: equal(url), events: equal(events), status: equal('active'), created_at: timestamp() };
}

/** A delivery not yet attempted (the provider runs no dispatcher during verification). */
export function pendingDeliveryLike(eventType: string): Record<string, unknown> {
  return {
    delivery_id: id('delivery', EXAMPLE.deliveryId),
    webhook_id: id('webhook', EXAMPLE.webhookId),
    event_id: id('event', EXAMPLE.eventId),
    event_type: equal(eventType),
    status: equal('pending'),
    attempts: integer(0),
    last_response_status: null,
    last_error: null,
    next_attempt_at: timestamp(),
    delivered_at: null,
    created_at: timestamp(),
  };
}

/** A withdrawal to the payout account the provider state set (SCB, ending 7890): just made, or paid out. */
export function withdrawalLike(amount: number, status: 'pending' | 'succeeded', description: string | null): Record<string, unknown> {
  return {
    withdrawal_id: id('withdrawal', EXAMPLE.withdrawalId),
    amount: equal(amount),
    currency: equal('THB'),
    status: equal(status),
    description,
    destination: { bank_code: equal('014'), bank_name: equal('SCB'), account_last4: equal('7890'), account_name: like('Noodle Shop Co., Ltd.') },
    failure_code: null,
    failure_message: null,
    created_at: timestamp(),
    updated_at: timestamp(),
    completed_at: status === 'succeeded' ? timestamp() : null,
  };
}

/** A ledger entry without a fee (the provider's merchants pay none), not yet paid out. */
export function balanceTransactionLike(type: string, amount: number, sourceKind: keyof typeof ID, sourceExample: string): Record<string, unknown> {
  return {
    balance_transaction_id: id('balanceTransaction', EXAMPLE.balanceTransactionId),
    type: equal(type),
    amount: integer(amount),
    fee: integer(0),
    fee_vat: integer(0),
    net: integer(amount),
    currency: equal('THB'),
    source_id: id(sourceKind, sourceExample),
    withdrawal_id: null,
    available_on: timestamp(),
    created_at: timestamp(),
  };
}

/** An event as the events API reads it: its webhook payload. */
export function paymentEventLike(kind: string, status: string, amount: number): Record<string, unknown> {
  return {
    id: id('event', EXAMPLE.eventId),
    event: equal(kind),
    data: {
      payment_id: id('payment', EXAMPLE.paymentId),
      status: equal(status),
      amount: integer(amount),
      currency: equal('THB'),
      reference: null,
      till_id: null,
      metadata: like({ order_id: 'ORD-88213' }),
    },
    timestamp: timestamp(),
  };
}
