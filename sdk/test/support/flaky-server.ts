import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handled, readBody } from '../../../scripts/lib/http.js';

/** What the flaky server does with one request. */
export type Behaviour =
  | { drop: true } // read the request, then destroy the socket without answering
  | { hang: true } // never answer
  | { status: number; body?: unknown; headers?: Record<string, string> };

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FlakyServer {
  /** Origin to use as the client's baseUrl. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that fails on purpose: request n gets behaviours[n] (the last one repeats).
 * Error bodies follow the API's envelope so that the client maps them as it would the real thing.
 */
export async function startFlakyServer(behaviours: Behaviour[]): Promise<FlakyServer> {
  const requests: SeenRequest[] = [];
  const server = createServer(
    handled(async (req: IncomingMessage, res: ServerResponse) => {
      const body = await readBody(req);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const behaviour = behaviours[Math.min(requests.length - 1, behaviours.length - 1)] ?? { status: 200, body: {} };
      if ('drop' in behaviour) return void req.socket.destroy();
      if ('hang' in behaviour) return;
      const text = behaviour.body === undefined ? '' : typeof behaviour.body === 'string' ? behaviour.body : JSON.stringify(behaviour.body);
      res.writeHead(behaviour.status, { 'content-type': 'application/json', 'request-id': `req_flaky_${requests.length}`, ...behaviour.headers });
      res.end(text);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The API's error envelope, for flaky answers. */
export const apiError = (code: string, type: string, requestId = 'req_from_body') => ({
  error: { code, message: `${code} on purpose`, type, request_id: requestId },
});
