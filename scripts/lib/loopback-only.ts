/**
 * Test setup (vitest `setupFiles` of every package): tests send traffic to loopback only. A TCP connection to any
 * other address is refused before it leaves (its socket fails with the address), and the test that made it fails,
 * even when the code under test swallowed the error (a dispatcher retrying, say). A host name is judged by the
 * addresses its lookup gives (the connection's own `lookup` if it has one, as a pinned webhook sender does).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, Socket, type LookupFunction, type TcpSocketConnectOpts } from 'node:net';
import { afterEach } from 'vitest';

const isLoopback = (address: string): boolean => (isIP(address) === 4 && address.startsWith('127.')) || address === '::1' || address === '::ffff:127.0.0.1';

/**
 * Vitest runs setup files again for each test file; with `isolate: false` they run in one process, which must keep one
 * guard and one list (a second wrapper would record each refusal twice, and a fresh list would miss the first's).
 */
const GUARD = Symbol.for('payment-qr.loopback-only');
const state = globalThis as typeof globalThis & { [GUARD]?: string[] };
const installed = state[GUARD] !== undefined;
const denied: string[] = (state[GUARD] ??= []);

/** The destinations refused since the last call (the guard's own test takes what it provoked). */
export const takeDenied = (): string[] => denied.splice(0);

/** A lookup that answers only loopback addresses; any other answer fails the connection, naming it. */
function loopbackLookup(inner: LookupFunction, port: number | string | undefined): LookupFunction {
  return (hostname, options, callback) => {
    inner(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const addresses = (Array.isArray(found) ? found : [{ address: found, family: 4 }]) as LookupAddress[];
      const outside = addresses.find(({ address }) => !isLoopback(address));
      if (outside) {
        denied.push(`${hostname} (${outside.address}):${port ?? ''}`);
        return callback(new Error(`outbound connection to ${hostname} (${outside.address}):${port ?? ''} denied: tests talk to loopback only`), '', 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

const connect = Socket.prototype.connect as (...args: unknown[]) => Socket;
if (!installed)
  Socket.prototype.connect = function connectToLoopbackOnly(this: Socket, ...args: unknown[]): Socket {
    // net.connect passes its arguments normalized, as one array [options, callback]; socket.connect(port, host) does not.
    const normalized = Array.isArray(args[0]) ? (args[0] as unknown[]) : null;
    const [first, second] = normalized ?? args;
    if (typeof first === 'object' && first !== null && 'path' in first && first.path) return connect.apply(this, args); // IPC
    if (typeof first === 'string' && Number.isNaN(Number(first))) return connect.apply(this, args); // connect(path)
    const options: TcpSocketConnectOpts =
      typeof first === 'object' && first !== null
        ? (first as TcpSocketConnectOpts)
        : { port: Number(first), host: typeof second === 'string' ? second : 'localhost' };
    const host = options.host ?? 'localhost';
    if (isIP(host) !== 0) {
      if (isLoopback(host)) return connect.apply(this, args);
      denied.push(`${host}:${options.port}`);
      process.nextTick(() => this.destroy(new Error(`outbound connection to ${host}:${options.port} denied: tests talk to loopback only`)));
      return this;
    }
    const guarded = { ...options, lookup: loopbackLookup(options.lookup ?? (dnsLookup as LookupFunction), options.port) };
    if (normalized) {
      normalized[0] = guarded; // in place: the array carries net's mark that it is normalized already
      return connect.call(this, normalized);
    }
    const callback = args.find((arg) => typeof arg === 'function');
    return callback ? connect.call(this, guarded, callback) : connect.call(this, guarded);
  } as typeof Socket.prototype.connect;

afterEach(() => {
  const addresses = takeDenied();
  if (addresses.length > 0) throw new Error(`the test connected outside loopback: ${addresses.join(', ')}`);
});
