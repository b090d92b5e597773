import type { Request } from 'express';
import { roleMay, type Ability } from '../../domain/permissions.js';
import { commonView, DASHBOARD_BASE } from './layout.js';
import { signedIn } from './request-context.js';

export type DeveloperTab = 'keys' | 'webhooks' | 'events';

const tabs: readonly { key: DeveloperTab; path: string; ability: Ability }[] = [
  { key: 'keys', path: '/developers', ability: 'api_keys:write' },
  { key: 'webhooks', path: '/developers/webhooks', ability: 'webhooks:read' },
  { key: 'events', path: '/developers/events', ability: 'events:read' },
];

/** The Developers pages' own menu: the ones the member's role may open, the current one marked. */
export function developerTabs(req: Request, current: DeveloperTab) {
  const { t } = commonView(req);
  const role = signedIn(req).membership.role;
  const label = { keys: t.developers.keysTab, webhooks: t.developers.webhooksTab, events: t.developers.eventsTab };
  return tabs
    .filter((tab) => roleMay(role, tab.ability))
    .map((tab) => ({ href: `${DASHBOARD_BASE}${tab.path}`, label: label[tab.key], current: tab.key === current }));
}

/** Overlaps and windows offered when a key rolls or a secret rotates (the domain caps a secret's at 7 days). */
export const overlapChoices = [
  { value: 'now', seconds: 0 },
  { value: '1h', seconds: 3_600 },
  { value: '24h', seconds: 86_400 },
  { value: '3d', seconds: 259_200 },
  { value: '7d', seconds: 604_800 },
] as const;

export const overlapOf = (text: string): number | null => overlapChoices.find((choice) => choice.value === text)?.seconds ?? null;

export function overlapOptions(req: Request, selected: string) {
  const { t } = commonView(req);
  const label = { now: t.developers.now, '1h': t.developers.hour1, '24h': t.developers.hours24, '3d': t.developers.days3, '7d': t.developers.days7 };
  return overlapChoices.map((choice) => ({ value: choice.value, label: label[choice.value], selected: choice.value === selected }));
}
