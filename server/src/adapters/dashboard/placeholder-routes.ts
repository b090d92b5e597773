import { Router } from 'express';
import { commonView, renderTemplate, sendPage } from './layout.js';
import { abilityOfPage, navigation, type NavKey } from './navigation.js';
import { requireAbility } from './session.js';

/** Menu pages not built yet: their place in the menu, behind the same ability as the page to come. */
export function placeholderRoutes(keys: readonly NavKey[]): Router {
  const router = Router();
  for (const key of keys) {
    const path = navigation.find((item) => item.key === key)!.path;
    const ability = abilityOfPage(key);
    router.get(path, ...(ability ? [requireAbility(ability)] : []), (req, res) => {
      const { t } = commonView(req);
      sendPage(req, res, { title: t.layout[key], active: key, body: renderTemplate(req, 'message', { message: t.layout.comingSoon }) });
    });
  }
  return router;
}
