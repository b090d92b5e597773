import { DomainError } from './errors.js';

/** What a restricted API key may be given: `resource:read` or `resource:write` (write implies read). */
export const resources = [
  'qr_codes',
  'payments',
  'refunds',
  'transactions',
  'balance',
  'withdrawals',
  'webhooks',
  'events',
  'reports',
  'tills',
  'slips',
] as const;
export type Resource = (typeof resources)[number];
export type Permission = `${Resource}:read` | `${Resource}:write`;

/** A dashboard member's role: fixed, one per merchant the user belongs to. */
export const roles = ['owner', 'admin', 'developer', 'support', 'viewer', 'cashier'] as const;
export type Role = (typeof roles)[number];

/**
 * What someone may do: an API permission, or one of the dashboard's own powers (no key may hold those). `receive`
 * takes payments at a till on the Receive page and sees the payments that page lists (the till's, today's).
 */
export type Ability = Permission | 'api_keys:write' | 'api_keys:unrestricted' | 'team:write' | 'audit:read' | 'receive';

/** Every role that sees the merchant's books; a cashier only takes payments at the counter. */
const everyone: readonly Role[] = ['owner', 'admin', 'developer', 'support', 'viewer'];

/** THE permission table: who may do what. Roles read it here; restricted keys by their own list of permissions. */
const whoMay: Record<Ability, readonly Role[]> = {
  'qr_codes:read': everyone,
  'qr_codes:write': ['owner', 'admin', 'developer'],
  'payments:read': everyone,
  'payments:write': ['owner', 'admin', 'developer'], // the test helpers: succeed, fail, expire
  'refunds:read': everyone,
  'refunds:write': ['owner', 'admin', 'support'],
  'transactions:read': everyone,
  'transactions:write': [],
  'balance:read': everyone,
  'balance:write': [],
  'withdrawals:read': everyone,
  'withdrawals:write': ['owner', 'admin'],
  'webhooks:read': ['owner', 'admin', 'developer'],
  'webhooks:write': ['owner', 'admin', 'developer'], // revealing a secret too
  'events:read': everyone,
  'events:write': [],
  'reports:read': ['owner', 'admin', 'viewer'],
  'reports:write': [],
  'tills:read': ['owner', 'admin', 'support'], // Receive picks a till
  'tills:write': ['owner', 'admin'],
  'slips:read': everyone,
  'slips:write': ['owner', 'admin', 'support', 'cashier'], // checking a customer's slip at the counter
  'api_keys:write': ['owner', 'admin', 'developer'], // restricted keys within the member's own role (roleMayMakeKey)
  'api_keys:unrestricted': ['owner', 'admin'], // making or rolling an unrestricted sk_ key
  'team:write': ['owner', 'admin'], // admins do not touch owners: a rule of the team's use cases
  'audit:read': ['owner', 'admin'],
  receive: ['owner', 'admin', 'support', 'cashier'],
};

export const isRole = (value: string): value is Role => (roles as readonly string[]).includes(value);

export const roleMay = (role: Role, ability: Ability): boolean => whoMay[ability].includes(role);

export const abilitiesOfRole = (role: Role): Ability[] => (Object.keys(whoMay) as Ability[]).filter((ability) => roleMay(role, ability));

/**
 * A key never has more power than the member who makes it: an unrestricted key (null) needs a role that may make one;
 * a restricted key, a role that has each of its permissions (and the read a write brings). A role that may make
 * unrestricted keys may make any restricted one.
 */
export function roleMayMakeKey(role: Role, keyPermissions: readonly Permission[] | null): boolean {
  if (roleMay(role, 'api_keys:unrestricted')) return true;
  if (keyPermissions === null || !roleMay(role, 'api_keys:write')) return false;
  return keyPermissions.every((permission) => roleMay(role, permission) && roleMay(role, permission.replace(/:write$/, ':read') as Permission));
}

/** Null: an unrestricted key, which may do everything. A `write` permission implies the `read` one. */
export function keyMay(keyPermissions: readonly Permission[] | null, needed: Permission): boolean {
  if (keyPermissions === null) return true;
  if (keyPermissions.includes(needed)) return true;
  const [resource, access] = needed.split(':') as [Resource, 'read' | 'write'];
  return access === 'read' && keyPermissions.includes(`${resource}:write`);
}

const isPermission = (value: string): value is Permission => {
  const [resource, access, extra] = value.split(':');
  return extra === undefined && (resources as readonly string[]).includes(resource ?? '') && (access === 'read' || access === 'write');
};

/** `qr_codes:write,payments:read` -> the permissions, each once, in the table's order. */
export function parsePermissions(text: string): Permission[] {
  const given = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const unknown = given.filter((part) => !isPermission(part));
  if (given.length === 0 || unknown.length > 0)
    throw new DomainError(
      'invalid_parameters',
      given.length === 0
        ? 'Give at least one permission, e.g. qr_codes:write,payments:read.'
        : `Unknown permission ${unknown.map((p) => JSON.stringify(p)).join(', ')}: use resource:read or resource:write with a resource of ${resources.join(', ')}.`,
      'permissions',
    );
  const order = resources.flatMap((resource) => [`${resource}:read`, `${resource}:write`]);
  return [...new Set(given as Permission[])].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
