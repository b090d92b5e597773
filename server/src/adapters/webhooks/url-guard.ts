import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DomainError } from '../../domain/errors.js';
import type { DeliverableUrl, WebhookUrlGuard } from '../../ports/webhook-delivery.js';
import { isDeliverableAddress } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name has; the system resolver, so /etc/hosts counts as it would for a connection. */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

const systemResolver: HostResolver = (host) => lookup(host, { all: true, verbatim: true });

const invalidUrl = (message: string) => new DomainError('invalid_url', message, 'url');

/** Said whenever a URL is refused as plain http or private, so a developer trying a local receiver knows the way. */
const LOCAL_DEVELOPMENT_HINT = 'For local development, start the service with WEBHOOK_ALLOW_PRIVATE_URLS=true to allow http and private addresses.';

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * Only https URLs whose host resolves exclusively to public unicast addresses (so no request can be steered inside
 * our network). `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_URLS, development only) also admits http and private ranges.
 */
export function webhookUrlGuard(options: { allowPrivate: boolean; resolve?: HostResolver; lookupTimeoutMs?: number }): WebhookUrlGuard {
  const resolve = options.resolve ?? systemResolver;
  const protocols = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  return {
    async assertDeliverable(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw invalidUrl('url must be an absolute https URL.');
      }
      if (!protocols.includes(parsed.protocol)) {
        const hint = options.allowPrivate ? '' : ` ${LOCAL_DEVELOPMENT_HINT}`;
        throw invalidUrl(`url must use ${protocols.join(' or ')}; '${parsed.protocol}' is not accepted.${hint}`);
      }
      const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
      const addresses = isIP(host)
        ? [{ address: host, family: isIP(host) }]
        : await withTimeout(resolve(host), options.lookupTimeoutMs ?? 5_000).catch((): ResolvedAddress[] => []);
      if (addresses.length === 0) throw invalidUrl(`The host '${host}' does not resolve, so it cannot receive webhooks.`);
      // Every address must pass: a resolver is free to hand out any of them at connection time.
      if (!addresses.every((a) => isDeliverableAddress(a.address, options.allowPrivate))) {
        throw invalidUrl(
          `The host '${host}' resolves to an address that is not public (loopback, private, link-local, shared, multicast, reserved or cloud metadata).` +
            (options.allowPrivate ? '' : ` ${LOCAL_DEVELOPMENT_HINT}`),
        );
      }
      const [first] = addresses as [ResolvedAddress];
      const deliverable: DeliverableUrl = { url: parsed.href, address: first.address, family: first.family === 6 ? 6 : 4 };
      return deliverable;
    },
  };
}
