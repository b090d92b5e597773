import { TOTP, Secret } from 'otpauth';
import type { Browser, BrowserContext } from 'playwright-core';
import { choosePassword, confirmEnrolment, inviteAsOperator, openInvitation, acceptAsUser } from '../../src/app/invitations.js';
import { resumeSession } from '../../src/app/dashboard-sessions.js';
import { dashboardCookies } from '../../src/adapters/dashboard/cookies.js';
import type { Role } from '../../src/domain/permissions.js';
import type { Clock } from '../../src/ports/clock.js';
import type { TestServer } from './test-server.js';
import { PHONE } from './phone.js';

/** The code an authenticator app shows for `secret` at `at` (RFC 6238: 6 digits, 30 s, SHA-1). */
export const totpCode = (secret: string, at: Date): string =>
  new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at.getTime() });

/** A code the member's app shows now, for a time step after the one used last (each step's code works once). */
export const nextCode = (clock: Clock & { advance(ms: number): void }, member: { totpSecret: string }): string => {
  clock.advance(30_000);
  return totpCode(member.totpSecret, clock.now());
};

/** The session cookie's name on a test server (http: no `__Host-` prefix). */
export const SESSION_COOKIE = dashboardCookies(false).session;

export interface DashboardResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Where a redirect points (null: not a redirect). */
  location: string | null;
}

export interface PostOptions {
  /** The form's CSRF token: by default the one of the last page fetched (or the pre-session cookie); null sends none. */
  csrf?: string | null;
  /** The Origin header: by default the server's own; null sends none. */
  origin?: string | null;
}

/**
 * A browser as plain HTTP: a cookie jar, redirects not followed, the CSRF token of the last page kept for the next
 * form, and the server's own Origin on every POST (as a browser sends it). `extraHeaders` go on every request (what a
 * proxy in front adds, say).
 */
export function dashboardClient(
  baseUrl: string,
  cookies: Record<string, string> = {},
  csrfToken: string | null = null,
  extraHeaders: Record<string, string> = {},
) {
  const jar = new Map(Object.entries(cookies));
  let lastCsrf: string | null = csrfToken;
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  async function send(method: string, path: string, body?: URLSearchParams | FormData, origin?: string | null): Promise<DashboardResponse> {
    const headers: Record<string, string> = { ...extraHeaders, cookie: cookieHeader() };
    if (body instanceof URLSearchParams) headers['content-type'] = 'application/x-www-form-urlencoded'; // FormData: fetch writes multipart's
    if (origin) headers.origin = origin;
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) lastCsrf = token;
    return { status: response.status, headers: response.headers, text, location: response.headers.get('location') };
  }
  return {
    jar,
    get csrfToken() {
      return lastCsrf ?? jar.get(dashboardCookies(false).csrf) ?? null;
    },
    get: (path: string) => send('GET', path),
    post(path: string, form: Record<string, string> = {}, options: PostOptions = {}) {
      const csrf = options.csrf === undefined ? (lastCsrf ?? jar.get(dashboardCookies(false).csrf) ?? null) : options.csrf;
      const body = new URLSearchParams(form);
      if (csrf !== null) body.set('_csrf', csrf);
      return send('POST', path, body, options.origin === undefined ? new URL(baseUrl).origin : options.origin);
    },
    /** A form with files, as `multipart/form-data` (the CSRF token of the last page added, as `post` does). */
    upload(path: string, fields: Record<string, string>, files: { name: string; filename: string; bytes: Buffer; type: string }[]) {
      const body = new FormData();
      const csrf = lastCsrf ?? jar.get(dashboardCookies(false).csrf) ?? null;
      if (csrf !== null) body.set('_csrf', csrf);
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      for (const file of files) body.append(file.name, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
      return send('POST', path, body, new URL(baseUrl).origin);
    },
  };
}

export type DashboardClient = ReturnType<typeof dashboardClient>;

export interface DashboardMember {
  userId: string;
  email: string;
  password: string;
  totpSecret: string;
  recoveryCodes: string[];
  merchantId: string;
  role: Role;
  /** The merchant's API key, when the helper made the merchant. */
  apiKey: string | null;
  /** The signed-in session: its id (the cookie's value) and its forms' CSRF token. */
  sessionId: string;
  csrfToken: string;
  /** An HTTP client signed in as this member. */
  client: DashboardClient;
  /** A browser context signed in as this member (phone-sized by default, Thai unless told). */
  browserContext(browser: Browser, options?: { desktop?: boolean; locale?: string }): Promise<BrowserContext>;
}

let people = 0;
const DEFAULT_PASSWORD = 'correct horse battery staple 42';

/**
 * A signed-in member of `role`, made as a real one is: the operator's invitation, a password, TOTP enrolment with a
 * code computed from the secret, then the session acceptance opens. Without `merchantId`, a new merchant is made.
 * With `alsoMemberOf`, an existing member joins another merchant (a user of several merchants) instead.
 */
export async function dashboardMember(
  server: TestServer,
  options: { role: Role; merchantId?: string; email?: string; password?: string; merchantName?: string } = { role: 'owner' },
): Promise<DashboardMember> {
  const s = server.running.runtime.services;
  const made = options.merchantId ? null : await server.merchant({ name: options.merchantName ?? 'ร้านทดสอบ' });
  const merchantId = options.merchantId ?? made!.id;
  const email = options.email ?? `member${++people}.${Date.now()}@example.com`;
  const password = options.password ?? DEFAULT_PASSWORD;
  const { token } = await inviteAsOperator(s, merchantId, email, options.role);
  await choosePassword(s, token, password);
  const totpSecret = (await openInvitation(s, token)).pendingSecret!;
  const accepted = await confirmEnrolment(s, token, totpCode(totpSecret, s.clock.now()), { address: '127.0.0.1', userAgent: 'test harness' });
  return memberOf(server, {
    userId: accepted.user.id,
    email,
    password,
    totpSecret,
    recoveryCodes: accepted.recoveryCodes,
    merchantId,
    role: options.role,
    apiKey: made?.apiKey ?? null,
    sessionId: accepted.session.id,
    csrfToken: accepted.session.csrfToken,
  });
}

/** Makes `member` (signed in) a member of another merchant too, with `role`; their session then looks at it. */
export async function joinMerchant(server: TestServer, member: DashboardMember, merchantId: string, role: Role): Promise<DashboardMember> {
  const s = server.running.runtime.services;
  const { token } = await inviteAsOperator(s, merchantId, member.email, role);
  const signedIn = await resumeSession(s, member.sessionId);
  if (!signedIn) throw new Error('joinMerchant: the member is not signed in');
  await acceptAsUser(s, token, signedIn, { address: '127.0.0.1', userAgent: 'test harness' });
  return memberOf(server, { ...member, merchantId, role, apiKey: null });
}

function memberOf(server: TestServer, member: Omit<DashboardMember, 'client' | 'browserContext'>): DashboardMember {
  const client = dashboardClient(server.url, { [SESSION_COOKIE]: member.sessionId }, member.csrfToken);
  return {
    ...member,
    client,
    async browserContext(browser, options = {}) {
      const context = await browser.newContext(
        options.desktop ? { viewport: { width: 1280, height: 900 }, locale: options.locale ?? 'th-TH' } : { ...PHONE, locale: options.locale ?? 'th-TH' },
      );
      await context.addCookies([{ name: SESSION_COOKIE, value: member.sessionId, url: server.url, httpOnly: true, sameSite: 'Lax' }]);
      return context;
    },
  };
}

/**
 * Signs in through the login pages as a browser does: the form, the e-mail and password, then the code. Returns the
 * client (holding the session cookie when it worked) and the answer to the last step that was sent.
 */
export async function signIn(
  baseUrl: string,
  credentials: { email: string; password: string; code: string | (() => string) },
  headers: Record<string, string> = {},
): Promise<{ client: DashboardClient; response: DashboardResponse }> {
  const client = dashboardClient(baseUrl, {}, null, headers);
  await client.get('/dashboard/login');
  const first = await client.post('/dashboard/login', { email: credentials.email, password: credentials.password });
  if (first.status !== 303) return { client, response: first };
  await client.get(first.location!);
  const code = typeof credentials.code === 'function' ? credentials.code() : credentials.code;
  return { client, response: await client.post('/dashboard/login/code', { code }) };
}

/** Text as a browser shows it: Mustache escapes `/`, `=`, quotes and the like in what it writes. */
export const decodeHtml = (html: string): string =>
  html.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot);/gi, (_, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };
    if (named[entity.toLowerCase()]) return named[entity.toLowerCase()]!;
    return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10));
  });
