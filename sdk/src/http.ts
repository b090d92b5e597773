import ky, { TimeoutError, type KyInstance, type Options as KyOptions } from 'ky';
import { ApiError, ConnectionError, errorFromResponse, type PaymentQrError } from './errors.js';
import { retryDelayMs, shouldRetry, type AttemptOutcome } from './retry.js';
import { sleep } from './sleep.js';

/** Per-call options, the last argument of every resource method. */
export interface RequestOptions {
  /**
   * The Idempotency-Key of this POST (1 to 255 characters). Default: a new random UUID per call. Either
   * way, every retry of the call sends the same key. Pass your own to make a call idempotent across
   * processes, e.g. your order id.
   */
  idempotencyKey?: string;
  /** Milliseconds to wait for each attempt's answer; overrides the client's `timeout`. */
  timeout?: number;
  /** Retries after the first attempt; overrides the client's `maxRetries`. */
  maxRetries?: number;
  /** Aborts the call, including any wait between retries. */
  signal?: AbortSignal;
}

export type FetchFunction = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

export interface SenderConfig {
  /** The API base, e.g. `http://127.0.0.1:3000/Thai/v1`. */
  apiBaseUrl: string;
  apiKey: string;
  timeout: number;
  maxRetries: number;
  fetch: FetchFunction;
  /** Waits between attempts; injectable so that tests do not sleep. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** Source of jitter, in [0, 1). */
  random?: () => number;
}

export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface ApiCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to the API base, without a leading slash: `payments/pay_...`. */
  path: string;
  query?: QueryParams | undefined;
  body?: unknown;
  options?: RequestOptions | undefined;
  /** What a success answers: JSON (default), text (a CSV file, without its byte-order mark) or bytes (a PDF). */
  accept?: 'json' | 'text' | 'bytes';
}

const MEDIA_TYPES = { json: 'application/json', text: 'text/csv', bytes: 'application/pdf' } as const;

type AttemptResult = { ok: true; body: unknown } | { ok: false; error: PaymentQrError; outcome: AttemptOutcome };

const REQUEST_OPTION_NAMES = new Set(['idempotencyKey', 'timeout', 'maxRetries', 'signal']);

/** A version 4 UUID from the platform's crypto (Node 20 and browsers alike). */
export function newIdempotencyKey(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Browsers offer randomUUID only in secure contexts; getRandomValues everywhere.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function searchParamsOf(query: QueryParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  return params;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Refuses what a typo or a wrong type would otherwise turn into a silent default. */
export function checkRequestOptions(options: RequestOptions | undefined): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) throw new TypeError('Request options must be an object.');
  for (const name of Object.keys(options)) {
    if (!REQUEST_OPTION_NAMES.has(name)) throw new TypeError(`Unknown request option '${name}'. Known: ${[...REQUEST_OPTION_NAMES].join(', ')}.`);
  }
  const { idempotencyKey, timeout, maxRetries } = options;
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || idempotencyKey.length < 1 || idempotencyKey.length > 255)) {
    throw new TypeError('Request option idempotencyKey must be a string of 1 to 255 characters.');
  }
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > 2_147_483_647)) {
    throw new TypeError('Request option timeout must be a positive number of milliseconds.');
  }
  if (maxRetries !== undefined && (typeof maxRetries !== 'number' || !Number.isInteger(maxRetries) || maxRetries < 0)) {
    throw new TypeError('Request option maxRetries must be an integer, 0 or more.');
  }
}

/** Sends API calls: authentication, one Idempotency-Key per POST, retries, errors. */
export class RequestSender {
  private readonly ky: KyInstance;
  private readonly sleep: NonNullable<SenderConfig['sleep']>;
  private readonly random: () => number;

  constructor(private readonly config: SenderConfig) {
    const userFetch = config.fetch;
    this.ky = ky.create({
      prefixUrl: config.apiBaseUrl,
      // ky retries GETs but never POSTs by default; we turn its retries off altogether and retry in
      // request() below, where one Idempotency-Key spans every attempt of a POST.
      retry: 0,
      throwHttpErrors: false,
      // Called as a plain function: a browser's fetch refuses to run with another `this`.
      fetch: (input, init) => userFetch(input, init),
      headers: { Authorization: `Bearer ${config.apiKey}`, Accept: 'application/json' },
    });
    this.sleep = config.sleep ?? sleep;
    this.random = config.random ?? Math.random;
  }

  async request<T>(call: ApiCall): Promise<T> {
    checkRequestOptions(call.options);
    const options = call.options ?? {};
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    // One key per logical POST, made here, before the first attempt, and sent unchanged on every retry:
    // that is what makes a retried QR generation or card charge happen at most once.
    const idempotencyKey = call.method === 'POST' ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined;
    for (let retries = 0; ; retries += 1) {
      const result = await this.attempt(call, idempotencyKey);
      if (result.ok) return result.body as T;
      if (!shouldRetry(result.outcome, retries, maxRetries)) throw result.error;
      await this.sleep(retryDelayMs(result.outcome, retries, this.random), options.signal);
    }
  }

  private async attempt(call: ApiCall, idempotencyKey: string | undefined): Promise<AttemptResult> {
    const { signal, timeout = this.config.timeout } = call.options ?? {};
    const accept = call.accept ?? 'json';
    let response: Response;
    let text: string;
    let bytes: Uint8Array | null = null;
    try {
      // Keys are set only when there is a value: ky reads an explicit `headers: undefined` as "no headers"
      // and would drop the instance's Authorization.
      const request: KyOptions = { method: call.method, timeout };
      if (call.query) request.searchParams = searchParamsOf(call.query);
      if (call.body !== undefined) request.json = call.body;
      if (signal) request.signal = signal;
      if (idempotencyKey !== undefined) request.headers = { 'Idempotency-Key': idempotencyKey };
      if (accept !== 'json') request.headers = { ...request.headers, Accept: `${MEDIA_TYPES[accept]}, application/json` };
      response = await this.ky(call.path, request);
      if (response.ok && accept === 'bytes') bytes = new Uint8Array(await response.arrayBuffer());
      text = bytes ? '' : await response.text();
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error; // the caller gave up: nothing to retry
      const timedOut = error instanceof TimeoutError;
      const outcome: AttemptOutcome = timedOut ? { kind: 'timeout' } : { kind: 'connection_failed' };
      const message = timedOut
        ? `No answer from ${call.method} /${call.path} within ${timeout} ms.`
        : `Could not reach the Payment QR API (${call.method} /${call.path}): ${(error as Error).message}`;
      return {
        ok: false,
        outcome,
        error: new ConnectionError({ message, code: timedOut ? 'timeout' : 'connection_failed', type: 'connection_error', cause: error }),
      };
    }
    const raw = parseBody(text);
    const requestId = response.headers.get('request-id');
    if (response.ok) {
      if (bytes) return { ok: true, body: bytes };
      if (accept === 'text') return { ok: true, body: text };
      if (typeof raw === 'object' && raw !== null) return { ok: true, body: raw };
      const error = new ApiError({
        message: `Expected a JSON body in the HTTP ${response.status} answer.`,
        code: 'unexpected_response',
        type: 'api_error',
        status: response.status,
        raw,
        requestId: requestId ?? undefined,
      });
      return { ok: false, error, outcome: { kind: 'response', status: response.status } };
    }
    const error = errorFromResponse(response.status, raw, requestId);
    const outcome: AttemptOutcome = { kind: 'response', status: response.status, code: error.code, retryAfter: response.headers.get('retry-after') };
    return { ok: false, error, outcome };
  }
}
