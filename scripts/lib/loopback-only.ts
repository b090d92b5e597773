/**
 * Test setup (vitest `setupFiles` of every package): tests send traffic to loopback only. A TCP connection to any
 * other address is refused before it leaves (its socket fails with the address), and the test that made it fails,
 * even when the code under test swallowed the error (a dispatcher retrying, say).
 */
import { isIP } from 'node:net';
import { Socket, type SocketConnectOpts } from 'node:net';
import { afterEach } from 'vitest';

const isLoopback = (host: string): boolean =>
  host === 'localhost' || (isIP(host) === 4 && host.startsWith('127.')) || host === '::1' || host === '::ffff:127.0.0.1';

/** Where a `socket.connect(...)` call goes, whichever of its signatures was used; null for a local (IPC) path. */
function destinationOf(args: unknown[]): string | null {
  const [first, second] = Array.isArray(args[0]) ? (args[0] as unknown[]) : args; // net.connect passes its arguments normalized, as one array
  if (typeof first === 'object' && first !== null) {
    const options = first as SocketConnectOpts & { host?: string; port?: number; path?: string };
    if ('path' in options && options.path) return null;
    return `${options.host ?? 'localhost'}:${options.port ?? ''}`;
  }
  if (typeof first === 'string' && Number.isNaN(Number(first))) return null; // connect(path)
  return `${typeof second === 'string' ? second : 'localhost'}:${String(first)}`;
}

const denied: string[] = [];
const connect = Socket.prototype.connect as (...args: unknown[]) => Socket;
Socket.prototype.connect = function connectToLoopbackOnly(this: Socket, ...args: unknown[]): Socket {
  const destination = destinationOf(args);
  const host = destination?.slice(0, destination.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  if (destination === null || isLoopback(host ?? '')) return connect.apply(this, args);
  denied.push(destination);
  process.nextTick(() => this.destroy(new Error(`outbound connection to ${destination} denied: tests talk to loopback only`)));
  return this;
} as typeof Socket.prototype.connect;

/** The destinations refused since the last call (the guard's own test takes what it provoked). */
export const takeDenied = (): string[] => denied.splice(0);

afterEach(() => {
  const addresses = takeDenied();
  if (addresses.length > 0) throw new Error(`the test connected outside loopback: ${addresses.join(', ')}`);
});
