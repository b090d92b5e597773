import { Router } from 'express';
import { listAuditEntries } from '../../app/audit.js';
import type { Services } from '../../app/services.js';
import { csvFile } from '../csv/csv-file.js';
import { sendPage } from './layout.js';
import { AUDIT_PAGE_SIZE, CSV_MAX_ROWS, memberOf, pageOf, pager, wordsOf } from './money-pages.js';
import { renderMoney } from './money-templates.js';
import { auditRow, auditWho } from './money-views.js';
import { requireAbility } from './session.js';

/** The audit log: newest first, paged, and as CSV (owners and admins). */
export function auditPages(s: Services): Router {
  const router = Router();
  // The audit log: newest first, paged, and as CSV.
  router.get('/audit', requireAbility('audit:read'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const page = pageOf(req, AUDIT_PAGE_SIZE);
    const entries = await listAuditEntries(s, merchant, page);
    res.set('Cache-Control', 'no-store');
    sendPage(req, res, {
      title: t.audit,
      active: 'audit',
      body: renderMoney('audit', {
        t,
        entries: entries.items.map((e) => auditRow(t, e)),
        pager: pager(req, '/dashboard/audit', page, page.offset + entries.items.length < entries.total),
      }),
    });
  });

  router.get('/audit.csv', requireAbility('audit:read'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const entries = await listAuditEntries(s, merchant, { limit: CSV_MAX_ROWS, offset: 0 });
    const columns = ['audit_entry_id', 'created_at', 'actor', 'channel', 'client_address', 'action', 'subject_id', 'details'];
    const rows = entries.items.map((e) => [
      e.id,
      e.createdAt.toISOString(),
      auditWho(t, e),
      e.context.channel,
      e.context.clientAddress,
      e.action,
      e.subjectId,
      JSON.stringify(e.details),
    ]);
    res.set({ 'Cache-Control': 'no-store', 'Content-Disposition': 'attachment; filename="audit-log.csv"' });
    res.type('text/csv').send(csvFile(columns, rows, { byteOrderMark: true }));
  });

  return router;
}
