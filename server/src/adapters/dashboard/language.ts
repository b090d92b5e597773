import type { RequestHandler } from 'express';
import { cookieLifetimes, readCookie, setCookie, type DashboardCookies } from './cookies.js';
import { messages, type Language } from './messages.js';

const isLanguage = (value: unknown): value is Language => value === 'th' || value === 'en';

/** Thai unless `?lang=en` said otherwise, on this page or (remembered in a cookie) an earlier one. */
export function dashboardLanguage(cookies: DashboardCookies): RequestHandler {
  return (req, res, next) => {
    const asked = req.query.lang;
    let lang: Language = 'th';
    if (isLanguage(asked)) {
      lang = asked;
      setCookie(res, cookies, cookies.language, asked, cookieLifetimes.language);
    } else {
      const remembered = readCookie(req, cookies.language);
      if (isLanguage(remembered)) lang = remembered;
    }
    req.lang = lang;
    req.t = messages[lang];
    next();
  };
}

/** The same page in the other language: the current URL with `lang` replaced. */
export function otherLanguageHref(originalUrl: string, lang: Language): string {
  const url = new URL(originalUrl, 'http://x');
  url.searchParams.set('lang', lang === 'th' ? 'en' : 'th');
  return `${url.pathname}${url.search}`;
}
