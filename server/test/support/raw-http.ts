import { connect } from 'node:net';

/** What came back on one TCP connection, up to the server closing it. */
export interface RawAnswer {
  status: number;
  /** Names lower-cased. */
  headers: Record<string, string>;
  /** Every byte after the header block, as text. */
  body: string;
}

/**
 * Writes `request` (the exact bytes of an HTTP/1.1 request, or the first part of one) to the server and reads until
 * the server closes the connection: for what fetch hides (a HEAD answer's bytes, a body that stops half-way).
 * It resolves only once the server has closed the connection.
 */
export function rawExchange(baseUrl: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no complete answer before the connection closed: ${JSON.stringify(text)}`));
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
  });
}

/** The head of a request, `Connection: close` unless `headers` say otherwise. */
export function requestHead(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const all = { host: '127.0.0.1', connection: 'close', ...headers };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n')}\r\n\r\n`;
}
