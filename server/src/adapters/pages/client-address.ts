import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';

/**
 * THE one place a request's client address is derived: for the per-address limits (sign-in, failed authentication,
 * public pages, live streams), the audit log and the access log, on either lane of the request pipeline. (Here, in
 * what the API, the checkout page and the dashboard share.)
 */

/** The proxies whose X-Forwarded-For is believed (TRUST_PROXY): addresses and CIDR ranges, parsed once. */
export type TrustedProxies = readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];

const isAddress = (text: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);

/**
 * `10.0.0.0/8, 127.0.0.1, ::1` -> the ranges (an address alone: just it); empty: none. An IPv4-mapped IPv6 address is
 * its IPv4 one. Throws, naming the entry, for anything that is neither an address nor a range.
 */
export function parseTrustedProxies(text: string): TrustedProxies {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    const [address = '', bits, extra] = entry.split('/');
    if (extra !== undefined || !isAddress(address) || (bits !== undefined && !/^\d{1,3}$/.test(bits)))
      throw new Error(`'${entry}' is neither an address nor a CIDR range (e.g. 10.0.0.0/8, 127.0.0.1, ::1, fd00::/8).`);
    const parsed = ipaddr.process(address);
    const max = parsed.kind() === 'ipv4' ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (prefix > max) throw new Error(`'${entry}': an ${parsed.kind()} range has at most /${max}.`);
    return [parsed, prefix] as const;
  });
}

const isTrusted = (address: string, trusted: TrustedProxies): boolean => {
  if (!isAddress(address)) return false;
  const parsed = ipaddr.process(address);
  return trusted.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
};

/**
 * The client of a request, as Express's `trust proxy` with a function finds it: the TCP peer, unless it is a trusted
 * proxy; then the right-most hop of X-Forwarded-For that is not a trusted proxy (each trusted hop vouches for the one
 * before it). A hop that is no address ends the walk at the last trusted one. From an untrusted peer, X-Forwarded-For
 * is ignored: anyone can write it.
 */
export function clientAddressOf(req: IncomingMessage, trusted: TrustedProxies): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (trusted.length === 0 || !isTrusted(peer, trusted)) return peer;
  const forwarded = req.headers['x-forwarded-for'] ?? '';
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim();
    if (!isAddress(hop)) break;
    client = ipaddr.process(hop).toString();
    if (!isTrusted(client, trusted)) break;
  }
  return client;
}

const derived = new WeakMap<IncomingMessage, string>();

/** The pipeline's first step (../http/api-pipeline.ts) derives each request's client address once, here. */
export function rememberClientAddress(req: IncomingMessage, trusted: TrustedProxies): void {
  derived.set(req, clientAddressOf(req, trusted));
}

/** The request's client address, as the pipeline derived it (a request it never saw: the TCP peer's). */
export const clientAddress = (req: IncomingMessage): string => derived.get(req) ?? req.socket.remoteAddress ?? 'unknown';
