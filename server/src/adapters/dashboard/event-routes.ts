import { Router } from 'express';
import { listEvents } from '../../app/events.js';
import type { Services } from '../../app/services.js';
import { eventKinds, isEventKind } from '../../domain/events.js';
import { developerTabs } from './developer-tabs.js';
import { offsetOf } from './formatting.js';
import { commonView, DASHBOARD_BASE, renderTemplate, sendPage } from './layout.js';
import { fill } from './messages.js';
import { signedIn } from './request-context.js';
import { requireAbility } from './session.js';

const PAGE_SIZE = 20;

/** Events of the last 30 days, newest first, filtered by type; each as the JSON payload its webhooks receive. */
export function eventRoutes(s: Services): Router {
  const router = Router();
  router.get('/developers/events', requireAbility('events:read'), async (req, res) => {
    const { t } = commonView(req);
    const type = typeof req.query.type === 'string' && isEventKind(req.query.type) ? req.query.type : undefined;
    const offset = offsetOf(req.query.offset);
    const page = await listEvents(s, signedIn(req).merchant, { kind: type }, { limit: PAGE_SIZE, offset });
    const pageLink = (at: number) => {
      const query = new URLSearchParams({ ...(type ? { type } : {}), ...(at > 0 ? { offset: String(at) } : {}) }).toString();
      return `${DASHBOARD_BASE}/developers/events${query ? `?${query}` : ''}`;
    };
    const body = renderTemplate(req, 'events', {
      tabs: developerTabs(req, 'events'),
      types: eventKinds.map((kind) => ({ kind, selected: kind === type })),
      events: page.items.map((event) => ({ id: event.id, type: event.event, json: JSON.stringify(event, null, 2) })),
      position:
        page.total > 0
          ? fill(t.developers.pageOf, { from: Math.min(offset + 1, page.total), to: Math.min(offset + PAGE_SIZE, page.total), total: page.total })
          : null,
      newer: offset > 0 ? pageLink(Math.max(0, offset - PAGE_SIZE)) : null,
      older: offset + PAGE_SIZE < page.total ? pageLink(offset + PAGE_SIZE) : null,
    });
    sendPage(req, res, { title: t.developers.eventsTitle, active: 'developers', body });
  });
  return router;
}
