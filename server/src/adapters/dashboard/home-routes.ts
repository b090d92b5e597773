import { Router } from 'express';
import { commonView, renderTemplate, sendPage } from './layout.js';
import { signedIn } from './request-context.js';

/** Home: where a sign-in lands. (Its figures, chart and latest payments are the money pages' to fill.) */
export function homeRoutes(): Router {
  const router = Router();
  router.get('/', (req, res) => {
    const { t } = commonView(req);
    sendPage(req, res, { title: t.layout.home, active: 'home', body: renderTemplate(req, 'home', { merchantName: signedIn(req).merchant.name }) });
  });
  return router;
}
