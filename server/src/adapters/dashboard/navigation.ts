import { roleMay, type Ability, type Role } from '../../domain/permissions.js';

export type NavKey = 'home' | 'receive' | 'payments' | 'balance' | 'developers' | 'reports' | 'team' | 'account' | 'audit' | 'tills';

/** The dashboard's pages in menu order; a page is listed only for roles that may open it (its route checks the same ability). */
export const navigation: readonly { key: NavKey; path: string; ability: Ability | null }[] = [
  { key: 'home', path: '', ability: 'payments:read' },
  { key: 'receive', path: '/receive', ability: 'receive' },
  { key: 'payments', path: '/payments', ability: 'payments:read' },
  { key: 'balance', path: '/balance', ability: 'balance:read' },
  { key: 'developers', path: '/developers', ability: 'webhooks:read' },
  { key: 'reports', path: '/reports', ability: 'reports:read' },
  { key: 'team', path: '/team', ability: 'team:write' },
  { key: 'account', path: '/account', ability: null },
  { key: 'audit', path: '/audit', ability: 'audit:read' },
  { key: 'tills', path: '/settings/tills', ability: 'tills:write' },
];

export const visibleNavigation = (role: Role) => navigation.filter((item) => item.ability === null || roleMay(role, item.ability));

/** The ability a menu page needs (null: every member). */
export const abilityOfPage = (key: NavKey): Ability | null => navigation.find((item) => item.key === key)?.ability ?? null;
