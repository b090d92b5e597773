import type { Request } from 'express';

/** A public page's language: `?lang=` when given, else the browser's preference, Thai by default. */
export function pageLanguage(req: Request): 'th' | 'en' {
  const asked = req.query.lang;
  if (asked === 'en' || asked === 'th') return asked;
  return req.acceptsLanguages('th', 'en') === 'en' ? 'en' : 'th';
}
