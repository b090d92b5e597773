import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** The parsed payload, or undefined when it is not JSON. */
  payload: { id?: string; event?: string; data?: Record<string, unknown> } | undefined;
}

export interface Receiver {
  /** Where the service is told to deliver. */
  url: string;
  received: Received[];
  /** The first delivery, from now or earlier, that matches; null when none came within the time. */
  waitFor(matches: (delivery: Received) => boolean, timeoutMs: number): Promise<Received | null>;
  stop(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

/** A webhook receiver the kit starts: it answers 204 to every POST and keeps what came, for the checks to judge. */
export async function startReceiver(options: { host: string; port: number; publicUrl?: string; path: string }): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) request.destroy();
    });
    request.on('end', () => {
      if (request.method === 'POST' && (request.url ?? '').startsWith(options.path)) {
        let payload: Received['payload'];
        try {
          payload = JSON.parse(body) as Received['payload'];
        } catch {
          payload = undefined;
        }
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
        );
        received.push({ headers, body, payload });
      }
      response.writeHead(request.method === 'POST' ? 204 : 404).end();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port, options.host, () => resolve()));
  const { port } = server.address() as { port: number };
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `${(options.publicUrl ?? `http://${host}:${port}`).replace(/\/+$/, '')}${options.path}`,
    received,
    async waitFor(matches, timeoutMs) {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
        const found = received.find(matches);
        if (found) return found;
      }
      return received.find(matches) ?? null;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
