import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { abilitiesOfRole, keyMay, parsePermissions, roleMay, roleMayMakeKey, roles } from '../../src/domain/permissions.js';

describe('the permission table', () => {
  it('gives each role exactly the powers of the dashboard table', () => {
    const may = (ability: Parameters<typeof roleMay>[1]) => roles.filter((role) => roleMay(role, ability));
    expect(may('payments:read')).toEqual(['owner', 'admin', 'developer', 'support', 'viewer']);
    expect(may('refunds:write')).toEqual(['owner', 'admin', 'support']);
    expect(may('withdrawals:write')).toEqual(['owner', 'admin']);
    expect(may('api_keys:write')).toEqual(['owner', 'admin', 'developer']);
    expect(may('api_keys:unrestricted')).toEqual(['owner', 'admin']);
    expect(may('webhooks:write')).toEqual(['owner', 'admin', 'developer']);
    expect(may('reports:read')).toEqual(['owner', 'admin', 'viewer']);
    expect(may('team:write')).toEqual(['owner', 'admin']);
    expect(may('audit:read')).toEqual(['owner', 'admin']);
    expect(may('receive')).toEqual(['owner', 'admin', 'support', 'cashier']);
    expect(abilitiesOfRole('viewer')).not.toContain('refunds:write');
    expect(may('slips:write')).toEqual(['owner', 'admin', 'support', 'cashier']);
    expect(abilitiesOfRole('cashier')).toEqual(['slips:write', 'receive']); // the counter and its slips, nothing else
  });

  it('lets an unrestricted key do everything and a restricted one only what it holds, write implying read', () => {
    expect(keyMay(null, 'withdrawals:write')).toBe(true);
    const pos = parsePermissions('qr_codes:write,payments:read');
    expect(keyMay(pos, 'qr_codes:write')).toBe(true);
    expect(keyMay(pos, 'qr_codes:read')).toBe(true);
    expect(keyMay(pos, 'payments:read')).toBe(true);
    expect(keyMay(pos, 'payments:write')).toBe(false);
    expect(keyMay(pos, 'refunds:write')).toBe(false);
    expect(keyMay(pos, 'balance:read')).toBe(false);
  });

  it('lets a member make only keys within its own role: a developer no unrestricted key, nor one that refunds, withdraws or reads reports', () => {
    const makers = (permissions: string | null) => roles.filter((role) => roleMayMakeKey(role, permissions === null ? null : parsePermissions(permissions)));
    expect(makers(null)).toEqual(['owner', 'admin']);
    expect(makers('qr_codes:write,payments:read')).toEqual(['owner', 'admin', 'developer']);
    expect(makers('webhooks:write')).toEqual(['owner', 'admin', 'developer']);
    for (const beyond of ['refunds:write', 'withdrawals:write', 'reports:read', 'qr_codes:write,reports:read'])
      expect(makers(beyond), beyond).toEqual(['owner', 'admin']);
    expect(makers('balance:read')).toEqual(['owner', 'admin', 'developer']); // support and viewers read it too, but make no keys
  });

  it('reads a list of permissions once each, in the table order, and refuses anything else', () => {
    expect(parsePermissions(' payments:read, qr_codes:write,payments:read ')).toEqual(['qr_codes:write', 'payments:read']);
    for (const bad of ['', ',', 'payments', 'payments:delete', 'cards:read', 'payments:read:x', 'api_keys:write', 'team:write'])
      expect(() => parsePermissions(bad)).toThrow(DomainError);
  });
});
