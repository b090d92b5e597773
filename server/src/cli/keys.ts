import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from '../app/api-keys.js';
import type { Services } from '../app/services.js';
import { ConfigError, parseDuration } from '../config.js';
import type { ApiKeyRecord } from '../domain/api-key.js';
import { operatorContext } from '../domain/audit.js';
import { DomainError } from '../domain/errors.js';
import { parsePermissions, type Permission } from '../domain/permissions.js';
import { processOutput, type CliOutput } from './output.js';

export const KEYS_USAGE = `       npm run cli -- keys create --merchant ID [--permissions qr_codes:write,payments:read] [--json]
       npm run cli -- keys roll --merchant ID [--expire-old-in 24h] [--json]
       npm run cli -- keys list --merchant ID [--json]
       npm run cli -- keys revoke --key-last4=XXXX --merchant ID  (with '=': the four may start with '-')

  keys create     issue one more key (printed once), the others untouched; with --permissions a restricted key
                  (rk_test_/rk_live_) that may do only that: resource:read or resource:write (write implies read)
                  for qr_codes, payments, refunds, transactions, balance, withdrawals, webhooks, events, reports
  keys roll       issue a new unrestricted key (printed once); the merchant's other unrestricted keys stop after
                  --expire-old-in (a duration: 0 = at once, 5s, 30m, 24h; default 24h); restricted keys stay
  keys list       each key's prefix, last four characters, permissions, creation, last use and expiry (never the key)
  keys revoke     stop the key ending in XXXX at once`;

export interface KeysOptions {
  merchant?: string | undefined;
  'expire-old-in'?: string | undefined;
  'key-last4'?: string | undefined;
  permissions?: string | undefined;
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
  permissions: key.permissions,
});

function describe(key: ApiKeyRecord, now: Date): string {
  const state = key.revokedAt
    ? `revoked ${iso(key.revokedAt)}`
    : key.expiresAt
      ? `${key.expiresAt <= now ? 'expired' : 'expires'} ${iso(key.expiresAt)}`
      : 'no expiry';
  const may = key.permissions ? `restricted to ${key.permissions.join(',')}` : 'unrestricted';
  return `${key.prefix}...${key.last4 ?? '????'}  ${may}  created ${iso(key.createdAt)}  last used ${iso(key.lastUsedAt) ?? 'never'}  ${state}`;
}

/** Checks a `keys` command's options before anything opens the database. */
export function checkKeysCommand(command: string, options: KeysOptions): void {
  if (!['create', 'roll', 'list', 'revoke'].includes(command)) throw new ConfigError(`unknown command 'keys ${command}'.\n${KEYS_USAGE}`);
  if (!options.merchant?.trim()) throw new ConfigError('--merchant is required.');
  if (options.permissions !== undefined && command !== 'create') throw new ConfigError('--permissions is given to keys create only.');
  if (command === 'create') permissionsOf(options);
  if (command === 'roll') parseDuration(options['expire-old-in'] ?? '24h', '--expire-old-in');
  if (command === 'revoke' && !/^[A-Za-z0-9_-]{4}$/.test(options['key-last4'] ?? ''))
    throw new ConfigError('--key-last4 must be the last four characters of the key.');
}

/** The permissions of `keys create` (none: an unrestricted key), or the domain's reason they are not permissions. */
function permissionsOf(options: KeysOptions): Permission[] | null {
  if (options.permissions === undefined) return null;
  try {
    return parsePermissions(options.permissions);
  } catch (error) {
    throw error instanceof DomainError ? new ConfigError(`--permissions: ${error.message}`) : error;
  }
}

/** `keys create | roll | list | revoke`: prints what happened; an impossible request throws ApiKeyAdminError. */
export async function runKeysCommand(s: Services, command: string, options: KeysOptions, output: CliOutput = processOutput): Promise<void> {
  const merchantId = options.merchant!.trim();
  const now = s.clock.now();
  if (command === 'create') {
    const { apiKey, key } = await createApiKey(s, merchantId, permissionsOf(options), operatorContext);
    if (options.json) output.out(JSON.stringify({ api_key: apiKey, key: wire(key) }));
    else
      output.out(
        `New ${key.permissions ? `restricted API key (${key.permissions.join(',')})` : 'API key'} for ${merchantId} (shown once, stored only as a hash): ${apiKey}`,
      );
  } else if (command === 'roll') {
    const { apiKey, key, replaced } = await rollApiKey(s, merchantId, parseDuration(options['expire-old-in'] ?? '24h', '--expire-old-in'), operatorContext);
    if (options.json) output.out(JSON.stringify({ api_key: apiKey, key: wire(key), replaced: replaced.map(wire) }));
    else {
      output.out(`New API key for ${merchantId} (shown once, stored only as a hash): ${apiKey}`);
      for (const old of replaced) output.out(`  ${old.prefix}...${old.last4 ?? '????'} stops at ${iso(old.expiresAt)}`);
    }
  } else if (command === 'list') {
    const keys = await listApiKeys(s, merchantId);
    if (options.json) output.out(JSON.stringify({ keys: keys.map(wire) }));
    else for (const key of keys) output.out(describe(key, now));
  } else {
    const key = await revokeApiKey(s, merchantId, options['key-last4']!, operatorContext);
    output.out(
      options.json ? JSON.stringify({ revoked: wire(key) }) : `Revoked ${key.prefix}...${key.last4}: it answers 401 on every instance within a second.`,
    );
  }
}
