import { setTimeout as sleep } from 'node:timers/promises';

/** What was sent, as a failure shows it: the key masked, the body cut short. */
export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** One HTTP exchange with the service, kept whole so that checks can name what they saw. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  request: SentRequest;
}

export interface SendOptions {
  apiKey?: string;
  body?: unknown;
  /** Sent as is, with Content-Type application/json (malformed or oversized bodies). */
  rawBody?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** A 429 is waited out (Retry-After) and the request sent again, unless the check is about the 429 itself. */
  retryOn429?: boolean;
}

export interface Limits {
  /** Each request's own limit. */
  timeoutMs: number;
  /** Requests the whole run may send (429 resends included). */
  maxRequests: number;
  /** The whole run's time, from its start. */
  totalMs: number;
}

export const DEFAULT_LIMITS: Limits = { timeoutMs: 15_000, maxRequests: 20_000, totalMs: 20 * 60_000 };

/** The run ran out of its request count or time: every later request fails with this, and no more are sent. */
export class BudgetExhausted extends Error {}

/** Counts and times every request of one run against its limits. */
export class Budget {
  sent = 0;
  readonly #deadline: number;
  constructor(readonly limits: Limits) {
    this.#deadline = Date.now() + limits.totalMs;
  }
  /** What is left of the run's time, for work that is not one request (the pact verifier's child process). */
  remainingMs(): number {
    return Math.max(0, this.#deadline - Date.now());
  }
  take(): number {
    if (this.sent >= this.limits.maxRequests) throw new BudgetExhausted(`the run's budget of ${this.limits.maxRequests} requests is spent`);
    const left = this.remainingMs();
    if (left === 0) throw new BudgetExhausted(`the run's time budget of ${Math.round(this.limits.totalMs / 1000)} s is spent`);
    this.sent += 1;
    return Math.min(this.limits.timeoutMs, left);
  }
}

const KEY = /\b(sk|rk)_(test|live)_([A-Za-z0-9_-]+)/g;
/** API keys never appear whole in the kit's output: `sk_test_…wxyz`. */
export const maskKeys = (text: string): string => text.replace(KEY, (_all, kind: string, mode: string, rest: string) => `${kind}_${mode}_…${rest.slice(-4)}`);

const MAX_BODY_SHOWN = 400;
const clip = (text: string): string => (text.length > MAX_BODY_SHOWN ? `${text.slice(0, MAX_BODY_SHOWN)}… (${text.length} characters)` : text);

/** The request of an exchange, as a failure message names it. */
export function describeRequest(request: SentRequest): string {
  const headers = Object.entries(request.headers)
    .filter(([name]) => name !== 'content-type')
    .map(([name, value]) => `${name}: ${value}`);
  return maskKeys(
    `${request.method} ${request.path}${headers.length ? ` [${headers.join('; ')}]` : ''}${request.body === undefined ? '' : ` body ${clip(request.body)}`}`,
  );
}

/** An exchange in one paragraph: the request, then what came back. */
export const describeExchange = (exchange: Exchange): string =>
  `${describeRequest(exchange.request)}\n  -> HTTP ${exchange.status} ${maskKeys(clip(exchange.text))}`;

const MAX_WAIT_FOR_429_S = 10;
const RESENDS_ON_429 = 5;

export type Send = (method: string, path: string, options?: SendOptions) => Promise<Exchange>;

/**
 * A client of one service: every request bounded in time and counted against the run's budget. Where the kit moves the
 * service's clock, a 429 is waited out by moving it on rather than by sleeping.
 */
export function httpClient(baseUrl: string, budget: Budget, clock?: { now(): Date; set(at: Date): void }): Send {
  const origin = baseUrl.replace(/\/+$/, '');
  return async function send(method, path, options = {}) {
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const headers: Record<string, string> = {
      ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey }),
      ...options.headers,
    };
    const request: SentRequest = { method, path, headers, body };
    for (let resends = 0; ; resends += 1) {
      const timeoutMs = budget.take();
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${origin}${path}`, { method, headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
        text = await response.text();
      } catch (error) {
        // A kept-alive connection the server closed as this request went out: sent again once, on a new connection,
        // when repeating it is safe (a read, or a write carrying an Idempotency-Key), as the SDK's retries do.
        const reset = ['ECONNRESET', 'UND_ERR_SOCKET'].includes(String(((error as Error).cause as { code?: unknown } | undefined)?.code));
        if (reset && resends === 0 && (method === 'GET' || headers['idempotency-key'] !== undefined)) continue;
        const why = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String((error as Error).cause ?? error);
        throw new Error(`${describeRequest(request)}\n  -> ${why}`);
      }
      const wait = Number(response.headers.get('retry-after'));
      if (response.status === 429 && options.retryOn429 !== false && resends < RESENDS_ON_429 && wait > 0 && wait <= MAX_WAIT_FOR_429_S) {
        if (clock) clock.set(new Date(clock.now().getTime() + wait * 1000));
        else await sleep(wait * 1000);
        continue;
      }
      let json: unknown;
      if ((response.headers.get('content-type') ?? '').includes('json')) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
      }
      return { method, path, status: response.status, headers: response.headers, text, json, request };
    }
  };
}

/** The same client, but a 429 comes back as it is (the checks of the rate limit itself). */
export const noResends =
  (send: Send): Send =>
  (method, path, options = {}) =>
    send(method, path, { ...options, retryOn429: false });

/** A client bound to one merchant key. */
export const asMerchant =
  (send: Send, apiKey: string | undefined): Send =>
  (method, path, options = {}) =>
    send(method, path, { ...(apiKey === undefined ? {} : { apiKey }), ...options });
