import { Router, type Request, type Response } from 'express';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from '../../app/api-keys.js';
import type { Services } from '../../app/services.js';
import { isUsable, type ApiKeyRecord } from '../../domain/api-key.js';
import { parsePermissions, resources, roleMay, type Permission } from '../../domain/permissions.js';
import { developerTabs, overlapOf, overlapOptions } from './developer-tabs.js';
import { formatDateTime } from '../pages/people-formats.js';
import { field } from './forms.js';
import { commonView, renderTemplate, sendPage, sendRefusal } from './layout.js';
import { fill } from './messages.js';
import { plainId } from './path-ids.js';
import { problemOf } from './problems.js';
import { signedIn } from './request-context.js';
import { requireAbility } from './session.js';

/** How a key reads in the list: enough to recognise it, never enough to use it. */
const keyLabel = (key: ApiKeyRecord) => `${key.prefix}…${key.last4 ?? '????'}`;

/** The permission picker's answer: one `resource:access` per resource given read or write. */
const pickedPermissions = (req: Request): Permission[] =>
  parsePermissions(
    resources
      .map((resource) => ({ resource, access: field(req, `perm_${resource}`) }))
      .filter(({ access }) => access === 'read' || access === 'write')
      .map(({ resource, access }) => `${resource}:${access}`)
      .join(','),
  );

interface Extra {
  notice?: string;
  error?: { message: string; detail: string | null };
  newKey?: string;
  status?: number;
}

/** API keys: the list with last use, a new key (restricted or not) shown once, a roll with a chosen overlap, revoking. */
export function apiKeyRoutes(s: Services): Router {
  const router = Router();
  router.param('keyId', plainId);
  const mayManageKeys = requireAbility('api_keys:write');

  async function keysPage(req: Request, res: Response, extra: Extra = {}) {
    const { t, lang } = commonView(req);
    const now = s.clock.now();
    const keys = (await listApiKeys(s, signedIn(req).merchant.id)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const statusOf = (key: ApiKeyRecord) =>
      key.revokedAt
        ? t.developers.revoked
        : !isUsable(key, now)
          ? t.developers.expired
          : key.expiresAt
            ? fill(t.developers.expiring, { at: formatDateTime(lang, key.expiresAt) })
            : t.developers.active;
    const body = renderTemplate(req, 'api-keys', {
      tabs: developerTabs(req, 'keys'),
      notice: extra.notice ?? null,
      error: extra.error ?? null,
      newKey: extra.newKey ?? null,
      keys: keys.map((key) => ({
        id: key.id,
        label: keyLabel(key),
        kind: key.permissions === null ? t.developers.unrestricted : t.developers.restricted,
        permissions: key.permissions?.join(', ') ?? null,
        created: formatDateTime(lang, key.createdAt),
        lastUsed: key.lastUsedAt ? formatDateTime(lang, key.lastUsedAt) : t.developers.never,
        status: statusOf(key),
        revocable: key.revokedAt === null && isUsable(key, now),
        revokeConfirm: fill(t.developers.revokeConfirm, { key: keyLabel(key) }),
      })),
      resources: resources.map((resource) => ({ resource })),
      overlaps: overlapOptions(req, '24h'),
      // A key never has more power than the member who makes it: a developer is offered restricted keys only.
      mayMakeUnrestricted: roleMay(signedIn(req).membership.role, 'api_keys:unrestricted'),
    });
    sendPage(req, res, { title: t.developers.keysTitle, active: 'developers', body, status: extra.status });
  }

  const refused = (req: Request, res: Response, error: unknown) => {
    const problem = problemOf(req, error);
    return keysPage(req, res, { error: problem, status: problem.status });
  };

  router.get('/developers', mayManageKeys, (req, res) => keysPage(req, res));

  router.post('/developers/keys', mayManageKeys, async (req, res) => {
    const context = signedIn(req);
    try {
      const permissions = field(req, 'kind') === 'restricted' ? pickedPermissions(req) : null;
      const { apiKey } = await createApiKey(s, context.merchant.id, permissions, context.audit, context.actor);
      await keysPage(req, res, { newKey: apiKey });
    } catch (error) {
      await refused(req, res, error);
    }
  });

  router.post('/developers/keys/roll', requireAbility('api_keys:unrestricted'), async (req, res) => {
    const context = signedIn(req);
    const overlap = overlapOf(field(req, 'overlap'));
    if (overlap === null) return sendRefusal(req, res, 400, 'formExpired');
    const { apiKey, replaced } = await rollApiKey(s, context.merchant.id, overlap * 1000, context.audit, context.actor);
    const stopAt = formatDateTime(commonView(req).lang, new Date(s.clock.now().getTime() + overlap * 1000));
    await keysPage(req, res, { newKey: apiKey, notice: fill(commonView(req).t.developers.rolled, { count: replaced.length, at: stopAt }) });
  });

  router.post('/developers/keys/:keyId/revoke', mayManageKeys, async (req, res) => {
    const context = signedIn(req);
    try {
      const key = await revokeApiKey(s, context.merchant.id, { keyId: String(req.params.keyId) }, context.audit);
      await keysPage(req, res, { notice: fill(commonView(req).t.developers.keyRevoked, { key: keyLabel(key) }) });
    } catch (error) {
      await refused(req, res, error);
    }
  });

  return router;
}
