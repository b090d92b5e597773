import { readFileSync } from 'node:fs';
import type { Request, Response } from 'express';
import Mustache from 'mustache';
import { otherLanguageHref } from './language.js';
import { messages, type Language, type Messages } from './messages.js';
import { visibleNavigation, type NavKey } from './navigation.js';
import type { DashboardContext } from './request-context.js';

/** Where the dashboard is served: `{PUBLIC_BASE_URL}/dashboard`. */
export const DASHBOARD_BASE = '/dashboard';
export const ASSETS = `${DASHBOARD_BASE}/assets`;

const templates = new Map<string, string>();

/** A template of ./templates/ by name (read and parsed once). */
function template(name: string): string {
  let text = templates.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`./templates/${name}.html`, import.meta.url), 'utf8');
    Mustache.parse(text);
    templates.set(name, text);
  }
  return text;
}

/** What every template may use: the words (`t`), the language, the form token. */
export function commonView(req: Request): { lang: Language; t: Messages; csrfToken: string; base: string } {
  const lang = req.lang ?? 'th';
  return { lang, t: req.t ?? messages[lang], csrfToken: req.csrfToken ?? '', base: DASHBOARD_BASE };
}

/** Renders ./templates/{name}.html with the common view and `view` (Mustache escapes every `{{value}}`). */
export const renderTemplate = (req: Request, name: string, view: object = {}): string => Mustache.render(template(name), { ...commonView(req), ...view });

export interface PageOptions {
  title: string;
  /** The menu entry to mark as the current page. */
  active?: NavKey;
  /** The page's own HTML (from renderTemplate). */
  body: string;
  status?: number;
}

function frame(req: Request, context: DashboardContext | undefined, options: PageOptions): string {
  const { lang, t } = commonView(req);
  const role = context?.membership.role;
  return Mustache.render(template('layout'), {
    ...commonView(req),
    title: options.title,
    body: options.body,
    otherLang: lang === 'th' ? 'en' : 'th',
    otherLanguageHref: otherLanguageHref(req.originalUrl, lang),
    signedIn: context
      ? {
          email: context.user.email,
          roleName: t.roles[role!],
          merchantName: context.merchant.name,
          testMode: context.merchant.mode === 'test',
          nav: visibleNavigation(role!).map((item) => ({
            href: `${DASHBOARD_BASE}${item.path}`,
            label: t.layout[item.key],
            current: item.key === options.active,
          })),
          switcher:
            context.memberships.length > 1
              ? context.memberships.map((m) => ({
                  id: m.merchantId,
                  name: m.merchantName,
                  test: m.merchantMode === 'test',
                  selected: m.merchantId === context.merchant.id,
                }))
              : null,
        }
      : null,
  });
}

/** A signed-in page: the menu of what the member's role may see, the merchant switcher, the "Test data" banner. */
export function sendPage(req: Request, res: Response, options: PageOptions): void {
  res
    .status(options.status ?? 200)
    .type('html')
    .send(frame(req, req.dashboard, options));
}

/** A page before sign-in (login, invitation): no menu. */
export function sendPublicPage(req: Request, res: Response, options: Omit<PageOptions, 'active'>): void {
  res
    .status(options.status ?? 200)
    .type('html')
    .send(frame(req, undefined, options));
}

type Refusal = 'forbidden' | 'notFound' | 'formExpired' | 'formTooSlow' | 'formTooLarge' | 'error';
const refusalTitles = {
  forbidden: 'forbiddenTitle',
  notFound: 'notFoundTitle',
  formExpired: 'formExpiredTitle',
  formTooSlow: 'formTooSlowTitle',
  formTooLarge: 'formTooLargeTitle',
  error: 'errorTitle',
} as const;

/** 403, 404, 408, 413 or 500 as a page, inside the menu when signed in. */
export function sendRefusal(req: Request, res: Response, status: number, refusal: Refusal): void {
  const { t } = commonView(req);
  const body = renderTemplate(req, 'message', { message: t.layout[refusal], homeLink: Boolean(req.dashboard) });
  (req.dashboard ? sendPage : sendPublicPage)(req, res, { title: t.layout[refusalTitles[refusal]], body, status });
}

export function sendNoMerchant(req: Request, res: Response): void {
  const { t } = commonView(req);
  sendPublicPage(req, res, {
    title: t.layout.noMerchantTitle,
    body: renderTemplate(req, 'message', { message: t.layout.noMerchant, signOut: true }),
    status: 403,
  });
}
