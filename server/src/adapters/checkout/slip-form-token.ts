import { parse, serialize } from 'cookie';
import type { Request, Response } from 'express';
import type { SecretTokens } from '../../ports/accounts.js';

const DAY_S = 24 * 3600;

/**
 * The checkout's one form ("I have paid") has no session to carry its CSRF token: the token goes in a cookie and in
 * the form (double submit). The cookie is SameSite=Strict, so another site's form never sends it; the page sends no
 * Referer, so browsers send `Origin: null` and the Origin cannot be the check. On https, `__Host-` and Secure.
 */
export function slipFormTokens(tokens: SecretTokens, secure: boolean) {
  const name = secure ? '__Host-pay_csrf' : 'pay_csrf';
  const sent = (req: Request): string | null => parse(req.headers.cookie ?? '')[name] ?? null;
  return {
    /** The browser's token, made (and set) when it has none. */
    tokenFor(req: Request, res: Response): string {
      const known = sent(req);
      if (known && /^[A-Za-z0-9_-]{16,100}$/.test(known)) return known;
      const token = tokens.token();
      res.append('Set-Cookie', serialize(name, token, { httpOnly: true, sameSite: 'strict', path: '/', secure, maxAge: DAY_S }));
      return token;
    },
    /** Whether a posted form carries its browser's token. */
    carries(req: Request): boolean {
      const known = sent(req);
      const field = (req.body as Record<string, unknown> | undefined)?._csrf;
      return known !== null && typeof field === 'string' && tokens.same(field, known);
    },
  };
}
