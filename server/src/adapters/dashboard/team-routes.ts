import { Router, type Request, type Response } from 'express';
import { inviteMember, revokeInvitation } from '../../app/invitations.js';
import type { Services } from '../../app/services.js';
import { changeRole, listTeam, removeMember } from '../../app/team.js';
import { roles } from '../../domain/permissions.js';
import { expectedOrigin } from './csrf.js';
import { field, refusalOf } from './forms.js';
import { commonView, renderTemplate, sendPage } from './layout.js';
import { formatDate } from '../pages/people-formats.js';
import { fill } from './messages.js';
import { clientOf, signedIn } from './request-context.js';
import { roleExplanations } from './role-abilities.js';
import { requireAbility } from './session.js';
import { invitationUrl } from './urls.js';

/** The team of the merchant: invite (the URL is shown to pass on), change roles, remove; owners and admins only. */
export function teamRoutes(s: Services, publicBaseUrl: string | null): Router {
  const router = Router();
  router.use('/team', requireAbility('team:write'));

  async function teamPage(
    req: Request,
    res: Response,
    extra: { notice?: string; error?: string; status?: number; invitationUrl?: string; invitedEmail?: string } = {},
  ) {
    const context = signedIn(req);
    const { t, lang } = commonView(req);
    const { members, invitations } = await listTeam(s, context.merchant.id);
    const owners = members.filter((member) => member.role === 'owner').length;
    // Admins are offered only what they may do; the domain refuses the rest anyway.
    const assignable = roles.filter((role) => role !== 'owner' || context.membership.role === 'owner');
    const roleOptions = (selected: string | null) => assignable.map((role) => ({ role, name: t.roles[role], selected: role === selected }));
    const body = renderTemplate(req, 'team', {
      notice: extra.notice ?? null,
      error: extra.error ?? null,
      invited: extra.invitationUrl ? { url: extra.invitationUrl, text: fill(t.team.invited, { email: extra.invitedEmail ?? '' }) } : null,
      members: members.map((member) => {
        // The only owner stays: no role change nor removal is offered (the domain refuses them anyway).
        const onlyOwner = member.role === 'owner' && owners === 1;
        const touchable = !onlyOwner && (member.role !== 'owner' || context.membership.role === 'owner');
        return {
          userId: member.userId,
          email: member.email,
          roleName: t.roles[member.role],
          since: formatDate(lang, member.createdAt),
          you: member.userId === context.user.id,
          touchable,
          onlyOwner,
          roleOptions: roleOptions(member.role),
          roleLabel: fill(t.team.newRoleFor, { email: member.email }),
          removeConfirm: fill(t.team.removeConfirm, { email: member.email }),
        };
      }),
      inviteRoles: roleOptions('viewer'),
      roleExplanations: roleExplanations(lang),
      invitations: invitations.map((invitation) => ({
        id: invitation.id,
        email: invitation.email,
        roleName: t.roles[invitation.role],
        expires: formatDate(lang, invitation.expiresAt),
      })),
    });
    sendPage(req, res, { title: t.team.title, active: 'team', body, status: extra.status });
  }

  const refused = (req: Request, res: Response, error: unknown) => {
    const refusal = refusalOf(req, error);
    return teamPage(req, res, { error: refusal.message, status: refusal.status });
  };

  router.get('/team', (req, res) => teamPage(req, res));

  router.post('/team/invitations', async (req, res) => {
    try {
      const { invitation, token } = await inviteMember(s, signedIn(req).actor, field(req, 'email'), field(req, 'role'), clientOf(req));
      res.set('Cache-Control', 'no-store');
      await teamPage(req, res, { invitationUrl: invitationUrl(publicBaseUrl ?? expectedOrigin(null, req), token), invitedEmail: invitation.email });
    } catch (error) {
      await refused(req, res, error);
    }
  });

  router.post('/team/invitations/:id/revoke', async (req, res) => {
    try {
      await revokeInvitation(s, signedIn(req).actor, String(req.params.id), clientOf(req));
      await teamPage(req, res, { notice: commonView(req).t.team.revoked });
    } catch (error) {
      await refused(req, res, error);
    }
  });

  router.post('/team/members/:userId/role', async (req, res) => {
    try {
      await changeRole(s, signedIn(req).actor, String(req.params.userId), field(req, 'role'), clientOf(req));
      await teamPage(req, res, { notice: commonView(req).t.team.roleChanged });
    } catch (error) {
      await refused(req, res, error);
    }
  });

  router.post('/team/members/:userId/remove', async (req, res) => {
    try {
      await removeMember(s, signedIn(req).actor, String(req.params.userId), clientOf(req));
      await teamPage(req, res, { notice: commonView(req).t.team.removed });
    } catch (error) {
      await refused(req, res, error);
    }
  });
  return router;
}
