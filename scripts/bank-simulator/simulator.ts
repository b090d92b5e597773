/**
 * An SCB-shaped bank for local development, tests and drills: the OAuth token and bill-payment inquiry APIs as SCB
 * publishes them, and `POST /simulate/pay`, which reads a QR payload as a banking app does, records the transaction
 * and posts the payment confirmation to the callback URL, retrying like the bank (3 resends, 12 s apart). A static QR
 * (a till's, no amount) is paid with the `amount` in baht the payer types: `{"qr_data", "amount": "150.00"}`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parse as parseQr } from 'promptparse';
import { slipVerify as slipPayloadOf } from 'promptparse/generate';
import { readBody } from '../lib/http.js';

/** The settings `npm run bank-simulator` and the README's local walk-through share with the service. */
export const LOCAL_BANK = {
  apiKey: 'local-scb-api-key',
  apiSecret: 'local-scb-api-secret',
  billerId: '010753600031508',
  callbackToken: 'local-callback-token-0123456789abcdef',
};

/** The service's settings for BANK=scb against a simulator at `bankUrl` with LOCAL_BANK's settings. */
export const scbServiceEnv = (bankUrl: string, reconcileIntervalMs: number): Record<string, string> => ({
  BANK: 'scb',
  SCB_API_BASE_URL: bankUrl,
  SCB_API_KEY: LOCAL_BANK.apiKey,
  SCB_API_SECRET: LOCAL_BANK.apiSecret,
  SCB_BILLER_ID: LOCAL_BANK.billerId,
  SCB_CALLBACK_TOKEN: LOCAL_BANK.callbackToken,
  BANK_RECONCILE_INTERVAL_MS: String(reconcileIntervalMs),
});

/** Where a service with LOCAL_BANK's callback token takes the bank's confirmations. */
export const LOCAL_CALLBACK_PATH = `/bank/scb/confirmations/${LOCAL_BANK.callbackToken}`;

export const callbackUrlOf = (serviceUrl: string): string => `${serviceUrl}${LOCAL_CALLBACK_PATH}`;

const BILL_PAYMENT_AID = 'A000000677010112';
const BANGKOK_OFFSET_MS = 7 * 3_600_000;

/** Faults to inject: callbacks dropped, duplicated or late, and an inquiry that fails. */
export interface Knobs {
  /** Share of payments whose confirmation is never sent (0..1). */
  dropRate: number;
  /** Share of payments whose confirmation is sent twice at once (0..1). */
  duplicateRate: number;
  /** Wait before the first confirmation. */
  delayMs: number;
  /** The inquiry and the slip verification answer 503 (the bank is down for them). */
  inquiryDown: boolean;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  apiKey: string;
  apiSecret: string;
  billerId: string;
  /** Where confirmations go: {PUBLIC_BASE_URL}/bank/scb/confirmations/{SCB_CALLBACK_TOKEN}. None: no callbacks. */
  callbackUrl?: string;
  /** SCB resends a confirmation up to 3 times, 12 s apart. */
  resends?: number;
  retryDelayMs?: number;
  tokenLifetimeSeconds?: number;
  knobs?: Partial<Knobs>;
  /** The bank's clock, which dates each payment (default: the real one); tests hand it the service's manual clock. */
  now?: () => Date;
}

/** A paid transaction, in the inquiry's shape. */
export interface ScbTransaction {
  transactionId: string;
  amount: string;
  transactionDateandTime: string;
  billPaymentRef1: string;
  billPaymentRef2: string;
  billPaymentRef3: string;
  payeeProxyId: string;
  payeeProxyType: 'BILLERID';
  payerName: string;
  payerAccountNumber: string;
  sendingBankCode: string;
  receivingBankCode: '014';
  currencyCode: '764';
  reverseFlag: 'N' | 'R';
  transactionType: 'Domestic Transfers';
}

export interface PayRequest {
  qr_data: string;
  payer_name?: string;
  payer_account?: string;
  sending_bank_code?: string;
  /** Baht the payer actually sent, when it differs from the QR's (a payer typing another amount). */
  paid_amount?: string;
  /** Baht the payer typed after scanning a static QR (point of initiation 11, no amount): needed there, and only there. */
  amount?: string | number;
}

export interface CallbackAttempt {
  transactionId: string;
  status: number | null;
  body: string;
}

export interface BankSimulator {
  url: string;
  port: number;
  knobs: Knobs;
  transactions: ScbTransaction[];
  callbackAttempts: CallbackAttempt[];
  /** Tokens issued so far (a client that caches its token asks rarely). */
  readonly tokensIssued: number;
  /** Reads and pays a QR payload (`slip`: the payload of the slip's mini QR); throws a PaymentRefused the HTTP API answers as 422. */
  pay(request: PayRequest): { transaction: ScbTransaction; callback: 'sent' | 'dropped' | 'none'; slip: string };
  /** Where confirmations go from now on (the service's address is often known only after the bank started). */
  setCallbackUrl(url: string): void;
  /** The bank reverses a transaction: the inquiry lists it with reverseFlag "R". */
  reverse(transactionId: string): void;
  /** Every token stops working at once (the inquiry then answers 9300). */
  revokeTokens(): void;
  /** Resolves when every confirmation sent so far has had its answer (or given up). */
  callbacksSettled(): Promise<void>;
  stop(): Promise<void>;
}

export class PaymentRefused extends Error {
  constructor(
    readonly code: 'invalid_qr' | 'bad_crc' | 'wrong_biller' | 'missing_amount' | 'not_bill_payment',
    message: string,
  ) {
    super(message);
  }
}

const bangkokTime = (at: Date): string => `${new Date(at.getTime() + BANGKOK_OFFSET_MS).toISOString().slice(0, 23)}+07:00`;
const bangkokDate = (at: Date): string => new Date(at.getTime() + BANGKOK_OFFSET_MS).toISOString().slice(0, 10);

/**
 * What a banking app reads from a Thai QR bill payment; anything it would refuse is a PaymentRefused. A static QR (a
 * till's at the counter) carries no amount: the payer types one (`typedAmount`, baht).
 */
export function readBillPayment(qrData: string, billerId: string, typedAmount?: string | number): { ref1: string; ref2: string; amount: string } {
  if (typeof qrData !== 'string' || qrData.length < 8) throw new PaymentRefused('invalid_qr', 'qr_data is not a QR payload.');
  const loose = parseQr(qrData, false);
  if (!loose) throw new PaymentRefused('invalid_qr', 'qr_data is not an EMVCo payload.');
  if (!parseQr(qrData, true)) throw new PaymentRefused('bad_crc', 'The payload CRC does not match: the QR code is damaged or altered.');
  if (loose.getTagValue('30', '00') !== BILL_PAYMENT_AID) throw new PaymentRefused('not_bill_payment', 'Not a PromptPay bill payment (tag 30).');
  if (loose.getTagValue('30', '01') !== billerId) throw new PaymentRefused('wrong_biller', `The biller id is not this bank's biller ${billerId}.`);
  const isStatic = loose.getTagValue('01') === '11';
  const typed = typedAmount === undefined ? undefined : String(typedAmount);
  const amount = isStatic ? typed : loose.getTagValue('54');
  if (!amount)
    throw new PaymentRefused(
      'missing_amount',
      isStatic ? 'A static QR code carries no amount: give the amount the payer types (amount, baht).' : 'The QR code carries no amount (tag 54).',
    );
  return { ref1: loose.getTagValue('30', '02') ?? '', ref2: loose.getTagValue('30', '03') ?? '', amount };
}

/** The mini QR printed on the payer's slip: the sending bank's code and the transaction reference (the transaction id). */
export const slipOf = (t: Pick<ScbTransaction, 'sendingBankCode' | 'transactionId'>): string =>
  slipPayloadOf({ sendingBank: t.sendingBankCode, transRef: t.transactionId });

const party = (name: string, proxy: { type: string; value: string }, account: string) => ({
  displayName: name,
  name,
  proxy,
  account: { type: 'BANKAC', value: account },
});

/** A transaction as SCB's slip verification API describes it (`amount` in baht, date and time in Asia/Bangkok). */
function slipDataOf(t: ScbTransaction) {
  const local = t.transactionDateandTime; // YYYY-MM-DDTHH:MM:SS.sss+07:00
  return {
    transRef: t.transactionId,
    sendingBank: t.sendingBankCode,
    receivingBank: t.receivingBankCode,
    transDate: local.slice(0, 10),
    transTime: local.slice(11, 19),
    sender: party(t.payerName, { type: 'MSISDN', value: 'xxx-xxx-1234' }, t.payerAccountNumber),
    receiver: party('PAYMENT QR SERVICE', { type: t.payeeProxyType, value: t.payeeProxyId }, 'xxx-x-x1508-x'),
    amount: t.amount,
    paidLocalAmount: t.amount,
    paidLocalCurrency: t.currencyCode,
    countryCode: 'TH',
    ref1: t.billPaymentRef1,
    ref2: t.billPaymentRef2,
    ref3: t.billPaymentRef3,
  };
}

const SLIP_PATH = /^\/v1\/payment\/billpayment\/transactions\/([^/]+)$/;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  try {
    return JSON.parse(text || 'null');
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const scbStatus = (code: number, description: string) => ({ status: { code, description } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startBankSimulator(options: SimulatorOptions): Promise<BankSimulator> {
  const knobs: Knobs = { dropRate: 0, duplicateRate: 0, delayMs: 0, inquiryDown: false, ...options.knobs };
  const resends = options.resends ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 12_000;
  const tokenLifetime = options.tokenLifetimeSeconds ?? 1_800;
  const tokens = new Map<string, number>();
  const transactions: ScbTransaction[] = [];
  const callbackAttempts: CallbackAttempt[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let callbackUrl = options.callbackUrl;
  let tokensIssued = 0;

  /** One confirmation, resent until the service answers 200 with resCode "00", at most `resends` more times. */
  async function confirm(transaction: ScbTransaction): Promise<void> {
    const { reverseFlag: _reverseFlag, ...confirmation } = transaction;
    for (let attempt = 0; attempt <= resends && !stopping; attempt++) {
      if (attempt > 0) await sleep(retryDelayMs);
      let status: number | null = null;
      let body = '';
      try {
        const response = await fetch(callbackUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(confirmation),
          signal: AbortSignal.timeout(10_000),
        });
        status = response.status;
        body = await response.text();
      } catch (error) {
        body = (error as Error).message;
      }
      callbackAttempts.push({ transactionId: transaction.transactionId, status, body });
      const answer = (() => {
        try {
          return JSON.parse(body) as { resCode?: string };
        } catch {
          return {};
        }
      })();
      if (status === 200 && answer.resCode === '00') return;
    }
  }

  function track(work: Promise<void>): void {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  }

  function pay(request: PayRequest): ReturnType<BankSimulator['pay']> {
    const { ref1, ref2, amount } = readBillPayment(request.qr_data, options.billerId, request.amount);
    const now = options.now?.() ?? new Date();
    const transaction: ScbTransaction = {
      transactionId: `${bangkokDate(now).replaceAll('-', '')}${String(randomInt(1e9)).padStart(9, '0')}${randomBytes(2).toString('hex').toUpperCase()}`,
      amount: request.paid_amount ?? amount,
      transactionDateandTime: bangkokTime(now),
      billPaymentRef1: ref1,
      billPaymentRef2: ref2,
      billPaymentRef3: '',
      payeeProxyId: options.billerId,
      payeeProxyType: 'BILLERID',
      payerName: request.payer_name ?? 'SOMCHAI JAIDEE',
      payerAccountNumber: request.payer_account ?? `xxx-x-x${String(randomInt(1e4)).padStart(4, '0')}-x`,
      sendingBankCode: request.sending_bank_code ?? '004',
      receivingBankCode: '014',
      currencyCode: '764',
      reverseFlag: 'N',
      transactionType: 'Domestic Transfers',
    };
    transactions.push(transaction);
    const slip = slipOf(transaction);
    if (!callbackUrl) return { transaction, callback: 'none', slip };
    if (Math.random() < knobs.dropRate) return { transaction, callback: 'dropped', slip };
    const copies = Math.random() < knobs.duplicateRate ? 2 : 1;
    track(
      (async () => {
        if (knobs.delayMs > 0) await sleep(knobs.delayMs);
        await Promise.all(Array.from({ length: copies }, () => confirm(transaction)));
      })(),
    );
    return { transaction, callback: 'sent', slip };
  }

  function authorized(req: IncomingMessage): boolean {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expiresAt = token ? tokens.get(token) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now() && req.headers.resourceownerid === options.apiKey;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://bank');
    if (req.method === 'POST' && url.pathname === '/v1/oauth/token') {
      const body = (await readJson(req)) as { applicationKey?: string; applicationSecret?: string } | null;
      if (req.headers.resourceownerid !== options.apiKey || body?.applicationKey !== options.apiKey || body?.applicationSecret !== options.apiSecret) {
        return send(res, 401, scbStatus(9500, 'Invalid credentials'));
      }
      const accessToken = randomBytes(24).toString('hex');
      const expiresAt = Math.floor(Date.now() / 1000) + tokenLifetime;
      tokens.set(accessToken, expiresAt * 1000);
      tokensIssued++;
      return send(res, 200, { ...scbStatus(1000, 'Success'), data: { accessToken, tokenType: 'Bearer', expiresIn: tokenLifetime, expiresAt } });
    }
    if (req.method === 'GET' && url.pathname === '/v1/payment/billpayment/inquiry') {
      if (!authorized(req)) return send(res, 401, scbStatus(9300, 'Token is invalid or expired'));
      if (knobs.inquiryDown) return send(res, 503, scbStatus(9700, 'Service temporarily unavailable'));
      const q = url.searchParams;
      if (q.get('eventCode') !== '00300100' || !/^\d{4}-\d{2}-\d{2}$/.test(q.get('transactionDate') ?? '') || !q.get('billerId') || !q.get('reference1')) {
        return send(res, 400, scbStatus(4101, 'Invalid parameters'));
      }
      const found = transactions.filter(
        (t) =>
          t.payeeProxyId === q.get('billerId') &&
          t.billPaymentRef1 === q.get('reference1') &&
          bangkokDate(new Date(t.transactionDateandTime)) === q.get('transactionDate'),
      );
      if (found.length === 0) return send(res, 404, scbStatus(1104, 'Transaction not found'));
      return send(res, 200, { ...scbStatus(1000, 'Success'), data: found });
    }
    const slipPath = SLIP_PATH.exec(url.pathname);
    if (req.method === 'GET' && slipPath) {
      if (!authorized(req)) return send(res, 401, scbStatus(9300, 'Token is invalid or expired'));
      if (knobs.inquiryDown) return send(res, 503, scbStatus(9700, 'Service temporarily unavailable'));
      const transRef = decodeURIComponent(slipPath[1]!);
      const found = transactions.find((t) => t.transactionId === transRef && t.sendingBankCode === url.searchParams.get('sendingBank'));
      if (!found) return send(res, 404, scbStatus(1101, 'Transaction not found'));
      return send(res, 200, { ...scbStatus(1000, 'Success'), data: slipDataOf(found) });
    }
    if (req.method === 'POST' && url.pathname === '/simulate/pay') {
      try {
        const { transaction, callback, slip } = pay(((await readJson(req)) ?? {}) as PayRequest);
        return send(res, 200, { transaction, callback, slip });
      } catch (error) {
        if (error instanceof PaymentRefused) return send(res, 422, { error: { code: error.code, message: error.message } });
        throw error;
      }
    }
    if (req.method === 'POST' && url.pathname === '/simulate/knobs') {
      const body = ((await readJson(req)) ?? {}) as Partial<Knobs>;
      for (const key of Object.keys(knobs) as (keyof Knobs)[]) if (typeof body[key] === typeof knobs[key]) Object.assign(knobs, { [key]: body[key] });
      return send(res, 200, knobs);
    }
    if (req.method === 'GET' && url.pathname === '/simulate/transactions') return send(res, 200, { transactions });
    send(res, 404, scbStatus(9404, 'Not found'));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, scbStatus(9999, (error as Error).message)));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    knobs,
    transactions,
    callbackAttempts,
    get tokensIssued() {
      return tokensIssued;
    },
    pay,
    setCallbackUrl: (url) => void (callbackUrl = url),
    reverse(transactionId) {
      const found = transactions.find((t) => t.transactionId === transactionId);
      if (found) found.reverseFlag = 'R';
    },
    revokeTokens: () => tokens.clear(),
    async callbacksSettled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    async stop() {
      stopping = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
