import { TOTP, Secret } from 'otpauth';
import { dashboardCookies } from '../../../server/src/adapters/dashboard/cookies.js';
import { choosePassword, confirmEnrolment, inviteAsOperator, openInvitation } from '../../../server/src/app/invitations.js';
import { loadConfig } from '../../../server/src/config.js';
import type { Role } from '../../../server/src/domain/permissions.js';
import { openRuntime } from '../../../server/src/main.js';

let made = 0;

/**
 * A dashboard member of the merchant, signed in as a person is (the operator's invitation, a password, TOTP enrolment
 * with a code computed from the secret): returns the Cookie header a browser would send. Sessions go idle after 30
 * minutes, so a drill makes one right before it measures.
 */
export async function dashboardCookie(databaseUrl: string, merchantId: string, role: Role = 'owner'): Promise<string> {
  const runtime = await openRuntime(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }));
  try {
    const s = runtime.services;
    const { token } = await inviteAsOperator(s, merchantId, `drill${++made}.${Date.now()}@example.com`, role);
    await choosePassword(s, token, 'drill password that is long enough 1');
    const secret = (await openInvitation(s, token)).pendingSecret!;
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: s.clock.now().getTime() });
    const accepted = await confirmEnrolment(s, token, code, { address: '127.0.0.1', userAgent: 'drill' });
    return `${dashboardCookies(false).session}=${accepted.session.id}`;
  } finally {
    await runtime.close();
  }
}
