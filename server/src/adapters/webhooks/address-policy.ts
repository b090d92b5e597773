import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** `public`: anyone may receive webhooks there; `private`: local development only; `forbidden`: never. */
export type AddressClass = 'public' | 'private' | 'forbidden';

// Cloud metadata services. Most sit in ranges refused anyway; Azure's 168.63.129.16 is in public space.
const METADATA = new Set(
  ['169.254.169.254', '169.254.170.2', '100.100.100.200', '168.63.129.16', '192.0.0.192', 'fd00:ec2::254'].map((a) => ipaddr.parse(a).toString()),
);

// Where a developer's own receiver may live when private URLs are allowed.
const PRIVATE_RANGES = new Set(['loopback', 'private', 'linkLocal', 'carrierGradeNat', 'uniqueLocal']);

// Only 2000::/3 is global unicast; ipaddr.js calls everything it has no name for "unicast".
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Classifies one IP address; IPv4-mapped and IPv4-compatible IPv6 forms count as the IPv4 address they carry. */
export function classifyAddress(text: string): AddressClass {
  if (isIP(text.split('%')[0] ?? '') === 0) return 'forbidden';
  const address = ipaddr.process(text);
  if (METADATA.has(address.toString())) return 'forbidden';
  const range = address.range();
  if (range === 'unicast') return address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_V6) ? 'public' : 'forbidden';
  return PRIVATE_RANGES.has(range) ? 'private' : 'forbidden';
}

export const isDeliverableAddress = (text: string, allowPrivate: boolean): boolean => {
  const kind = classifyAddress(text);
  return kind === 'public' || (allowPrivate && kind === 'private');
};
