import { listApiKeys, revokeApiKey, rollApiKey } from './app/api-keys.js';
import type { Services } from './app/services.js';
import { ConfigError, parseDuration } from './config.js';
import type { ApiKeyRecord } from './domain/api-key.js';

export const KEYS_USAGE = `       npm run cli -- keys roll --merchant ID [--expire-old-in 24h] [--json]
       npm run cli -- keys list --merchant ID [--json]
       npm run cli -- keys revoke --key-last4 XXXX --merchant ID

  keys roll       issue a new key (printed once); the merchant's other keys stop after --expire-old-in
                  (a duration: 0 = at once, 5s, 30m, 24h; default 24h)
  keys list       each key's prefix, last four characters, creation, last use and expiry (never the key)
  keys revoke     stop the key ending in XXXX at once`;

export interface KeysOptions {
  merchant?: string | undefined;
  'expire-old-in'?: string | undefined;
  'key-last4'?: string | undefined;
  json?: boolean | undefined;
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

const wire = (key: ApiKeyRecord) => ({
  prefix: key.prefix,
  last4: key.last4,
  created_at: iso(key.createdAt),
  last_used_at: iso(key.lastUsedAt),
  expires_at: iso(key.expiresAt),
  revoked_at: iso(key.revokedAt),
});

function describe(key: ApiKeyRecord, now: Date): string {
  const state = key.revokedAt
    ? `revoked ${iso(key.revokedAt)}`
    : key.expiresAt
      ? `${key.expiresAt <= now ? 'expired' : 'expires'} ${iso(key.expiresAt)}`
      : 'no expiry';
  return `${key.prefix}...${key.last4 ?? '????'}  created ${iso(key.createdAt)}  last used ${iso(key.lastUsedAt) ?? 'never'}  ${state}`;
}

/** Checks a `keys` command's options before anything opens the database. */
export function checkKeysCommand(command: string, options: KeysOptions): void {
  if (!['roll', 'list', 'revoke'].includes(command)) throw new ConfigError(`unknown command 'keys ${command}'.\n${KEYS_USAGE}`);
  if (!options.merchant?.trim()) throw new ConfigError('--merchant is required.');
  if (command === 'roll') parseDuration(options['expire-old-in'] ?? '24h', '--expire-old-in');
  if (command === 'revoke' && !/^[A-Za-z0-9_-]{4}$/.test(options['key-last4'] ?? ''))
    throw new ConfigError('--key-last4 must be the last four characters of the key.');
}

/** `keys roll | list | revoke`: prints what happened; an impossible request throws ApiKeyAdminError. */
export async function runKeysCommand(s: Services, command: string, options: KeysOptions): Promise<void> {
  const merchantId = options.merchant!.trim();
  const now = s.clock.now();
  if (command === 'roll') {
    const { apiKey, key, replaced } = await rollApiKey(s, merchantId, parseDuration(options['expire-old-in'] ?? '24h', '--expire-old-in'));
    if (options.json) console.log(JSON.stringify({ api_key: apiKey, key: wire(key), replaced: replaced.map(wire) }));
    else {
      console.log(`New API key for ${merchantId} (shown once, stored only as a hash): ${apiKey}`);
      for (const old of replaced) console.log(`  ${old.prefix}...${old.last4 ?? '????'} stops at ${iso(old.expiresAt)}`);
    }
  } else if (command === 'list') {
    const keys = await listApiKeys(s, merchantId);
    if (options.json) console.log(JSON.stringify({ keys: keys.map(wire) }));
    else for (const key of keys) console.log(describe(key, now));
  } else {
    const key = await revokeApiKey(s, merchantId, options['key-last4']!);
    console.log(
      options.json ? JSON.stringify({ revoked: wire(key) }) : `Revoked ${key.prefix}...${key.last4}: it answers 401 on every instance within a second.`,
    );
  }
}
