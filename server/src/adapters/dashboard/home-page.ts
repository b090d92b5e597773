import { Router } from 'express';
import { homeFigures } from '../../app/dashboard-home.js';
import type { Services } from '../../app/services.js';
import { roleMay } from '../../domain/permissions.js';
import { commonView, DASHBOARD_BASE, sendPage } from './layout.js';
import { liveStream, type LiveStreamOptions } from './live-stream.js';
import { memberOf, wordsOf } from './money-pages.js';
import { renderMoney } from './money-templates.js';
import { homeView } from './money-views.js';
import type { MerchantPaymentFeed } from './payment-feed.js';
import { requireAbility } from './session.js';

/** Home and the stream that keeps its live region (and the Payments list's) up to date. */
export function homePage(s: Services, feed: MerchantPaymentFeed, options: LiveStreamOptions): Router {
  const router = Router();
  // Home: the balance, what succeeded today and in the last 30 days, the chart, the latest payments (live).
  // A cashier's dashboard is the counter: Receive.
  router.get('/', (req, res, next) => {
    const { role } = memberOf(req);
    if (!roleMay(role, 'payments:read') && roleMay(role, 'receive')) return res.redirect(303, `${DASHBOARD_BASE}/receive`);
    next();
  });
  router.get('/', requireAbility('payments:read'), requireAbility('balance:read'), async (req, res) => {
    const t = wordsOf(req);
    const figures = await homeFigures(s, memberOf(req).merchant);
    res.set('Cache-Control', 'no-store');
    if (req.query.fragment === 'live') return void res.type('html').send(renderMoney('homeLive', homeView(t, figures)));
    const { merchant } = memberOf(req);
    const welcome = `${commonView(req).t.home.welcome}, ${merchant.name}`; // the shell's greeting, above the figures
    sendPage(req, res, { title: t.home, active: 'home', body: renderMoney('home', { ...homeView(t, figures), welcome }) });
  });

  router.get(
    '/live',
    requireAbility('payments:read'),
    liveStream(feed, (req) => memberOf(req).merchant.id, options),
  );

  return router;
}
