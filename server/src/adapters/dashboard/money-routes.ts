import { Router, type ErrorRequestHandler } from 'express';
import type { Services } from '../../app/services.js';
import { DomainError } from '../../domain/errors.js';
import { auditPages } from './audit-pages.js';
import { balancePages } from './balance-pages.js';
import { homePage } from './home-page.js';
import { sendRefusal } from './layout.js';
import type { MoneyPagesOptions } from './money-pages.js';
import type { MerchantPaymentFeed } from './payment-feed.js';
import { paymentPages } from './payment-pages.js';

/** The money pages of the dashboard: Home, Payments, Balance and the audit log, each checking the member's role. */
export function moneyRoutes(s: Services, feed: MerchantPaymentFeed, options: MoneyPagesOptions): Router {
  const router = Router();
  router.use(homePage(s, feed, options), paymentPages(s, options), balancePages(s), auditPages(s));
  // Another merchant's payment is as unknown as one that does not exist.
  const unknownAsNotFound: ErrorRequestHandler = (error: unknown, req, res, next) => {
    if (error instanceof DomainError && error.code.endsWith('_not_found')) return sendRefusal(req, res, 404, 'notFound');
    next(error);
  };
  router.use(unknownAsNotFound);
  return router;
}
