import { parse, serialize, type SerializeOptions } from 'cookie';
import type { Request, Response } from 'express';
import { SESSION_ABSOLUTE_MS, SECOND_FACTOR_WAIT_MS } from '../../domain/dashboard-session.js';

/** The dashboard's cookies; on https they are `__Host-` prefixed and Secure (bound to this host, never sent in clear). */
export interface DashboardCookies {
  session: string;
  /** The half session between the password and the second factor. */
  signIn: string;
  /** The CSRF token of forms sent before there is a session (login, invitation). */
  csrf: string;
  language: string;
  /** The till Receive takes payments at on this browser. */
  till: string;
  secure: boolean;
}

export const dashboardCookies = (secure: boolean): DashboardCookies => {
  const prefix = secure ? '__Host-' : '';
  return {
    session: `${prefix}dash_session`,
    signIn: `${prefix}dash_signin`,
    csrf: `${prefix}dash_csrf`,
    language: `${prefix}dash_lang`,
    till: `${prefix}dash_till`,
    secure,
  };
};

export const readCookie = (req: Request, name: string): string | null => parse(req.headers.cookie ?? '')[name] ?? null;

const YEAR_S = 365 * 24 * 3600;
export const cookieLifetimes = {
  session: SESSION_ABSOLUTE_MS / 1000,
  signIn: SECOND_FACTOR_WAIT_MS / 1000,
  csrf: SESSION_ABSOLUTE_MS / 1000,
  language: YEAR_S,
  till: YEAR_S,
};

/** HttpOnly, SameSite=Lax, Path=/ (as `__Host-` requires); Secure on https. */
export function setCookie(res: Response, cookies: DashboardCookies, name: string, value: string, maxAgeSeconds: number): void {
  const options: SerializeOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: cookies.secure, maxAge: maxAgeSeconds };
  res.append('Set-Cookie', serialize(name, value, options));
}

export const clearCookie = (res: Response, cookies: DashboardCookies, name: string): void => setCookie(res, cookies, name, '', 0);
