/** One HTTP exchange with the running service, kept whole so that checks can name what they saw. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

export interface SendOptions {
  apiKey?: string;
  body?: unknown;
  /** Sent as is, with Content-Type application/json (malformed or oversized bodies). */
  rawBody?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export async function send(baseUrl: string, method: string, path: string, options: SendOptions = {}): Promise<Exchange> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey }),
    ...options.headers,
  };
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  if ((response.headers.get('content-type') ?? '').startsWith('application/json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { method, path, status: response.status, headers: response.headers, text, json };
}

/** A client bound to one service and one merchant key. */
export function apiOf(baseUrl: string, apiKey?: string) {
  return (method: string, path: string, options: SendOptions = {}) => send(baseUrl, method, path, { ...(apiKey === undefined ? {} : { apiKey }), ...options });
}
export type Api = ReturnType<typeof apiOf>;
