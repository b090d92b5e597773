import { expect } from 'vitest';

/** The error envelope, with the response's own Request-Id repeated in the body. */
export function expectEnvelope(res: { status: number; headers: Headers; body: any }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ code, request_id: res.headers.get('request-id') });
  expect(Object.keys(res.body.error)).toEqual(expect.arrayContaining(['code', 'message', 'request_id', 'type']));
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/); // no stack traces
}

/** A tiny HTTP client for component tests: real requests to the real server. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  apiKey?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  rawBody?: string;
}

export function apiClient(baseUrl: string, defaults: { apiKey?: string } = {}) {
  async function send(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
    const apiKey = options.apiKey ?? defaults.apiKey;
    const headers: Record<string, string> = {
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      ...(body !== undefined || options.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.idempotencyKey !== undefined ? { 'idempotency-key': options.idempotencyKey } : {}),
      ...options.headers,
    };
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (an image); keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
  return {
    get: (path: string, options?: RequestOptions) => send('GET', path, undefined, options),
    post: (path: string, body?: unknown, options?: RequestOptions) => send('POST', path, body, options),
    delete: (path: string, options?: RequestOptions) => send('DELETE', path, undefined, options),
    send,
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
