import { randomUUID } from 'node:crypto';
import { parseBankTime, type BankTransaction } from '../../domain/bank-transaction.js';
import type { SlipQr } from '../../domain/slip-verification.js';
import { BankUnavailableError, type BankConnection } from '../../ports/bank.js';

export interface ScbSettings {
  apiBaseUrl: string;
  apiKey: string;
  apiSecret: string;
  billerId: string;
  /** Each call to the bank gives up after this long: token, inquiry and a second date fit in the bank's 5 s. */
  timeoutMs?: number;
}

const SUCCESS = 1000;
const NOT_FOUND = 1104;
const TOKEN_EXPIRED = 9300;
const BILL_PAYMENT_EVENT = '00300100';
/** A token is replaced this long before the bank says it expires, so no call carries a dying one. */
const TOKEN_MARGIN_MS = 60_000;
const ATTEMPTS = 2;

interface ScbAnswer {
  httpStatus: number;
  code: number | null;
  data: unknown;
}

/**
 * The SCB API as the bank publishes it: an OAuth token (cached until shortly before it expires) and the bill-payment
 * inquiry. Secrets travel only in the token request; nothing here logs.
 */
export function scbBankConnection(settings: ScbSettings): BankConnection {
  const timeoutMs = settings.timeoutMs ?? 1_500;
  let token: { value: string; renewAt: number } | null = null;
  let pendingToken: Promise<string> | null = null;

  async function call(path: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown }): Promise<ScbAnswer> {
    let lastError: unknown;
    // Bounded retries: a refused connection or a 5xx is tried once more (a time-out has used the time up); any other
    // answer is the bank's word.
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const response = await fetch(`${settings.apiBaseUrl}${path}`, {
          method: init.method,
          headers: {
            resourceOwnerId: settings.apiKey,
            requestUId: randomUUID(),
            'accept-language': 'EN',
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...init.headers,
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const body = (await response.json().catch(() => null)) as { status?: { code?: unknown }; data?: unknown } | null;
        const code = typeof body?.status?.code === 'number' ? body.status.code : Number(body?.status?.code ?? NaN);
        if (response.status >= 500 && attempt < ATTEMPTS) continue;
        return { httpStatus: response.status, code: Number.isFinite(code) ? code : null, data: body?.data };
      } catch (error) {
        lastError = error;
        if ((error as Error).name === 'TimeoutError') break;
      }
    }
    throw new BankUnavailableError(`The SCB API did not answer ${path.split('?')[0]}: ${(lastError as Error | undefined)?.message ?? 'server error'}`);
  }

  async function fetchToken(): Promise<string> {
    const answer = await call('/v1/oauth/token', { method: 'POST', body: { applicationKey: settings.apiKey, applicationSecret: settings.apiSecret } });
    const data = answer.data as { accessToken?: unknown; expiresIn?: unknown } | undefined;
    if (answer.code !== SUCCESS || typeof data?.accessToken !== 'string') {
      throw new BankUnavailableError(`The SCB API refused a token (HTTP ${answer.httpStatus}, status ${answer.code ?? 'none'}).`);
    }
    const lifetimeMs = Math.max(0, Number(data.expiresIn) || 0) * 1000;
    token = { value: data.accessToken, renewAt: Date.now() + Math.max(lifetimeMs - TOKEN_MARGIN_MS, lifetimeMs / 2) };
    return token.value;
  }

  async function accessToken(): Promise<string> {
    if (token && Date.now() < token.renewAt) return token.value;
    // One token request at a time: concurrent callers share it.
    pendingToken ??= fetchToken().finally(() => {
      pendingToken = null;
    });
    return pendingToken;
  }

  async function inquire(ref1: string, date: string, retryWithNewToken: boolean): Promise<BankTransaction[]> {
    const query = new URLSearchParams({ eventCode: BILL_PAYMENT_EVENT, transactionDate: date, billerId: settings.billerId, reference1: ref1 });
    const answer = await call(`/v1/payment/billpayment/inquiry?${query}`, { method: 'GET', headers: { authorization: `Bearer ${await accessToken()}` } });
    if (answer.code === TOKEN_EXPIRED || answer.httpStatus === 401) {
      token = null;
      if (retryWithNewToken) return inquire(ref1, date, false);
      throw new BankUnavailableError('The SCB API refused a fresh token.');
    }
    if (answer.code === NOT_FOUND) return [];
    if (answer.code !== SUCCESS || answer.httpStatus !== 200) {
      throw new BankUnavailableError(`The SCB inquiry failed (HTTP ${answer.httpStatus}, status ${answer.code ?? 'none'}).`);
    }
    return (Array.isArray(answer.data) ? answer.data : []).flatMap((entry) => {
      const transaction = toBankTransaction(entry);
      return transaction ? [transaction] : [];
    });
  }

  /** The slip verification API: a known transaction answers 1000 with its data; any other status is "no such slip". */
  async function lookUpSlip(slip: SlipQr, retryWithNewToken: boolean): Promise<BankTransaction | null> {
    const path = `/v1/payment/billpayment/transactions/${encodeURIComponent(slip.transRef)}?${new URLSearchParams({ sendingBank: slip.sendingBank })}`;
    const answer = await call(path, { method: 'GET', headers: { authorization: `Bearer ${await accessToken()}` } });
    if (answer.code === TOKEN_EXPIRED || answer.httpStatus === 401) {
      token = null;
      if (retryWithNewToken) return lookUpSlip(slip, false);
      throw new BankUnavailableError('The SCB API refused a fresh token.');
    }
    if (answer.httpStatus >= 500) throw new BankUnavailableError(`The SCB slip verification failed (HTTP ${answer.httpStatus}).`);
    if (answer.code !== SUCCESS || answer.data === undefined || answer.data === null) return null;
    const transaction = slipTransactionOf(answer.data);
    if (!transaction) throw new BankUnavailableError('The SCB slip verification answered a transaction it did not describe.');
    return transaction;
  }

  return { billerId: settings.billerId, listPaid: (ref1, date) => inquire(ref1, date, true), lookUpSlip: (slip) => lookUpSlip(slip, true) };
}

const BANGKOK_DATE = /^(\d{4})-?(\d{2})-?(\d{2})$/;
const TIME_OF_DAY = /^(\d{2}):?(\d{2}):?(\d{2})$/;

/** SCB writes a slip's date and time in Asia/Bangkok: `2026-11-27` (or `20261127`) and `18:15:46`. */
function bangkokMoment(date: unknown, time: unknown): Date | null {
  const d = typeof date === 'string' ? BANGKOK_DATE.exec(date) : null;
  const t = typeof time === 'string' ? TIME_OF_DAY.exec(time) : null;
  return d && t ? parseBankTime(`${d[1]}-${d[2]}-${d[3]}T${t[1]}:${t[2]}:${t[3]}+07:00`) : null;
}

const fieldOf = (party: unknown, key: 'proxy' | 'account'): string | null =>
  typeof party === 'object' && party !== null ? text((party as Record<string, { value?: unknown } | undefined>)[key]?.value) : null;

/** The transaction of a slip verification answer, in the inquiry's terms (the transRef is the bank's transaction id). */
function slipTransactionOf(data: unknown): BankTransaction | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  const transactionId = text(d.transRef);
  const paidAt = bangkokMoment(d.transDate, d.transTime);
  if (!transactionId || !paidAt || (typeof d.amount !== 'string' && typeof d.amount !== 'number')) return null;
  const sender = (typeof d.sender === 'object' && d.sender !== null ? d.sender : {}) as Record<string, unknown>;
  return {
    transactionId,
    amount: d.amount,
    paidAt,
    ref1: text(d.ref1) ?? '',
    ref2: text(d.ref2),
    billerId: fieldOf(d.receiver, 'proxy') ?? '',
    payerName: text(sender.name) ?? text(sender.displayName),
    payerAccount: fieldOf(sender, 'account'),
    sendingBankCode: text(d.sendingBank),
    reversed: false,
  };
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** One transaction of the inquiry's listing; an entry without an id, a ref1 or a time cannot be applied and is skipped. */
function toBankTransaction(entry: unknown): BankTransaction | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const e = entry as Record<string, unknown>;
  const paidAt = parseBankTime(e.transactionDateandTime);
  const transactionId = text(e.transactionId);
  const ref1 = text(e.billPaymentRef1);
  if (!transactionId || !ref1 || !paidAt || (typeof e.amount !== 'string' && typeof e.amount !== 'number')) return null;
  return {
    transactionId,
    amount: e.amount,
    paidAt,
    ref1,
    ref2: text(e.billPaymentRef2),
    billerId: text(e.payeeProxyId) ?? '',
    payerName: text(e.payerName),
    payerAccount: text(e.payerAccountNumber),
    sendingBankCode: text(e.sendingBankCode),
    reversed: e.reverseFlag === 'R',
  };
}
