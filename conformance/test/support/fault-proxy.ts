import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** One thing a broken deployment gets wrong; the proxy breaks exactly that and passes everything else through. */
export type Fault =
  | 'none'
  | 'drop-request-id'
  | 'rename-field'
  | 'not-found-as-500'
  | 'new-payment-on-replay'
  | 'conflict-as-200'
  | 'repeat-across-pages'
  | 'wrong-signature'
  | 'strip-ratelimit';

/** Where the service's webhook deliveries enter the proxy (give the kit --receiver-url `${url}${DELIVERIES}`). */
export const DELIVERIES = '/__deliveries__';

export interface FaultProxy {
  url: string;
  fault: Fault;
  /** Requests that went on to the service. */
  forwarded: number;
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host']);

const headersOf = (request: IncomingMessage): Record<string, string> =>
  Object.fromEntries(Object.entries(request.headers).filter(([name, value]) => !HOP_BY_HOP.has(name) && typeof value === 'string')) as Record<string, string>;

async function bodyOf(request: IncomingMessage): Promise<Blob> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new Blob(chunks.map((chunk) => new Uint8Array(chunk)));
}

function renamed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renamed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key === 'refunded_amount' ? 'refundedAmount' : key, renamed(inner)]));
}

/** A signature off by one character: still well formed, never valid. */
const tampered = (signatures: string): string =>
  signatures
    .split(' ')
    .map((signature) => signature.replace(/,(.)/, (_all, first: string) => `,${first === 'A' ? 'B' : 'A'}`))
    .join(' ');

/**
 * A fault-injecting HTTP proxy between the kit and a real service: with `fault` 'none' it is transparent; otherwise it
 * breaks one thing. Deliveries posted to DELIVERIES go on to the kit's receiver (its port given), where the
 * 'wrong-signature' fault changes their signatures.
 */
export async function startFaultProxy(upstream: string, receiverPort?: number): Promise<FaultProxy> {
  const state = { fault: 'none' as Fault, forwarded: 0 };

  const answer = (response: ServerResponse, status: number, headers: Headers, body: Buffer) => {
    const kept: Record<string, string> = {};
    headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) kept[name] = value;
    });
    if (state.fault === 'drop-request-id') delete kept['request-id'];
    if (state.fault === 'strip-ratelimit') {
      delete kept.ratelimit;
      delete kept['ratelimit-policy'];
    }
    response.writeHead(status, kept).end(body);
  };

  const deliver = async (request: IncomingMessage, response: ServerResponse) => {
    const headers = headersOf(request);
    if (state.fault === 'wrong-signature' && headers['webhook-signature']) headers['webhook-signature'] = tampered(headers['webhook-signature']);
    const delivered = await fetch(`http://127.0.0.1:${receiverPort}${(request.url ?? '').slice(DELIVERIES.length)}`, {
      method: 'POST',
      headers,
      body: await bodyOf(request),
    });
    response.writeHead(delivered.status).end(Buffer.from(await delivered.arrayBuffer()));
  };

  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method ?? 'GET';
    const headers = headersOf(request);
    const body = method === 'GET' || method === 'HEAD' ? undefined : await bodyOf(request);
    const target = new URL(request.url ?? '/', upstream);
    const askedOffset = Number(target.searchParams.get('offset'));
    if (state.fault === 'new-payment-on-replay' && headers['idempotency-key']) headers['idempotency-key'] = randomUUID();
    if (state.fault === 'repeat-across-pages' && method === 'GET' && askedOffset > 0) target.searchParams.set('offset', String(askedOffset - 1));
    const send = (h: Record<string, string>) => {
      state.forwarded += 1;
      return fetch(target, { method, headers: h, body, redirect: 'manual' });
    };
    let upstreamAnswer = await send(headers);
    let text = Buffer.from(await upstreamAnswer.arrayBuffer());
    let status = upstreamAnswer.status;
    const json = (upstreamAnswer.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text.toString() || 'null') as unknown) : undefined;
    const code = (json as { error?: { code?: string } } | undefined)?.error?.code;
    if (state.fault === 'conflict-as-200' && status === 409 && code === 'idempotency_key_reused') {
      // A service that ignores the conflict: the request is processed as if it carried no key.
      const { 'idempotency-key': _ignored, ...rest } = headers;
      upstreamAnswer = await send(rest);
      text = Buffer.from(await upstreamAnswer.arrayBuffer());
      status = upstreamAnswer.status;
    }
    let out: unknown = (upstreamAnswer.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text.toString() || 'null') : undefined;
    if (state.fault === 'not-found-as-500' && status === 404) {
      status = 500;
      out = { error: { code: 'internal_error', message: 'Something went wrong.', type: 'api_error', request_id: upstreamAnswer.headers.get('request-id') } };
    }
    if (state.fault === 'rename-field' && out !== undefined) out = renamed(out);
    if (state.fault === 'repeat-across-pages' && askedOffset > 0 && out && typeof out === 'object' && 'offset' in out) out = { ...out, offset: askedOffset };
    answer(response, status, upstreamAnswer.headers, out === undefined ? text : Buffer.from(JSON.stringify(out)));
  };

  const server = createServer((request, response) => {
    const work = (request.url ?? '').startsWith(DELIVERIES) ? deliver(request, response) : forward(request, response);
    work.catch((error: unknown) => response.writeHead(502).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get fault() {
      return state.fault;
    },
    set fault(fault: Fault) {
      state.fault = fault;
    },
    get forwarded() {
      return state.forwarded;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
