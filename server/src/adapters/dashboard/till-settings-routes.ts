import { Router, type Request, type Response } from 'express';
import type { Services } from '../../app/services.js';
import { closeTill, createTill, listTills, renameTill, retrieveTill, rollTillDisplayUrl } from '../../app/tills.js';
import { DomainError } from '../../domain/errors.js';
import type { Merchant } from '../../domain/merchant.js';
import type { AuditContext } from '../../domain/audit.js';
import { displayUrlOf, MAX_ACTIVE_TILLS, type Till } from '../../domain/till.js';
import type { Repositories } from '../../ports/repositories.js';
import { expectedOrigin } from './csrf.js';
import { field } from './forms.js';
import { commonView, renderTemplate, sendPage, sendRefusal } from './layout.js';
import { fill } from './messages.js';
import { problemOf, type Problem } from './problems.js';
import { signedIn } from './request-context.js';
import { requireAbility } from './session.js';

const day = (date: Date) => date.toISOString().slice(0, 10);

type TillChange = (tx: Repositories, s: Services, merchant: Merchant, id: string, context: AuditContext) => Promise<Till>;

/** Settings > Tills (owners and admins): create, rename, close, roll the display URL, print the A6 sign with the static QR. */
export function tillSettingsRoutes(s: Services, publicBaseUrl: string | null): Router {
  const router = Router();
  router.use('/settings/tills', requireAbility('tills:write'));

  async function tillsPage(req: Request, res: Response, extra: { notice?: string; error?: Problem; status?: number } = {}) {
    const { t } = commonView(req);
    const { merchant } = signedIn(req);
    const base = publicBaseUrl ?? expectedOrigin(null, req);
    const { items } = await listTills(s, merchant, { limit: MAX_ACTIVE_TILLS * 5, offset: 0 });
    const body = renderTemplate(req, 'tills', {
      notice: extra.notice ?? null,
      error: extra.error ?? null,
      tills: items.map((till) => ({
        id: till.id,
        name: till.name,
        active: till.status === 'active',
        statusText: t.tills[till.status],
        since: day(till.createdAt),
        displayUrl: displayUrlOf(base, till),
        renameLabel: fill(t.tills.newName, { name: till.name }),
        rollConfirm: fill(t.tills.rollConfirm, { name: till.name }),
        closeConfirm: fill(t.tills.closeConfirm, { name: till.name }),
      })),
    });
    sendPage(req, res, { title: t.tills.title, active: 'tills', body, status: extra.status });
  }

  /** A change of the use cases, then the page with its notice; a refusal is said on the page (its English detail in brackets). */
  async function change(req: Request, res: Response, work: (tx: Repositories) => Promise<unknown>, notice: string) {
    try {
      await s.uow.run(work);
      await tillsPage(req, res, { notice });
    } catch (error) {
      const problem = problemOf(req, error);
      await tillsPage(req, res, { error: problem, status: problem.status });
    }
  }
  const each = (use: TillChange) => (req: Request) => (tx: Repositories) => {
    const context = signedIn(req);
    return use(tx, s, context.merchant, String(req.params.till_id), context.audit);
  };

  router.get('/settings/tills', (req, res) => tillsPage(req, res));
  router.post('/settings/tills', (req, res) => {
    const context = signedIn(req);
    return change(req, res, (tx) => createTill(tx, s, context.merchant, { name: field(req, 'name') }, context.audit), commonView(req).t.tills.created);
  });
  router.post('/settings/tills/:till_id/rename', (req, res) => {
    const context = signedIn(req);
    const work = (tx: Repositories) => renameTill(tx, s, context.merchant, String(req.params.till_id), field(req, 'name'), context.audit);
    return change(req, res, work, commonView(req).t.tills.renamed);
  });
  router.post('/settings/tills/:till_id/close', (req, res) => change(req, res, each(closeTill)(req), commonView(req).t.tills.closedNotice));
  router.post('/settings/tills/:till_id/roll', (req, res) => change(req, res, each(rollTillDisplayUrl)(req), commonView(req).t.tills.rolled));

  // The sign to print (A6): the shop's and the till's names around the till's static QR.
  router.get('/settings/tills/:till_id/sign', async (req, res) => {
    const { t } = commonView(req);
    const { merchant } = signedIn(req);
    const till = await retrieveTill(s, merchant, String(req.params.till_id)).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'till_not_found') return null; // another merchant's too
      throw error;
    });
    if (!till) return sendRefusal(req, res, 404, 'notFound');
    const body = renderTemplate(req, 'till-sign', {
      merchantName: merchant.name,
      tillName: till.name,
      qrImage: `/Thai/qr-codes/${till.staticQr.qrCodeId}/image?format=svg`,
    });
    sendPage(req, res, { title: `${t.tills.print}: ${till.name}`, active: 'tills', body });
  });
  return router;
}
