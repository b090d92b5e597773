import { Secret, TOTP as Totp } from 'otpauth';
import { TOTP, TOTP_WINDOW_STEPS, normalizeCode } from '../../domain/second-factor.js';
import type { SecondFactor } from '../../ports/accounts.js';

const totpOf = (secret: string, account = '') =>
  new Totp({
    issuer: TOTP.issuer,
    label: account,
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
    secret: Secret.fromBase32(secret),
  });

/** RFC 6238 with the otpauth library: 160-bit secrets (as RFC 4226 recommends), base32 for people and apps. */
export const otpauthSecondFactor: SecondFactor = {
  newSecret: () => new Secret({ size: 20 }).base32,
  matchStep(secret, code, at) {
    const token = normalizeCode(code);
    if (!/^\d+$/.test(token)) return null;
    const delta = totpOf(secret).validate({ token, timestamp: at.getTime(), window: TOTP_WINDOW_STEPS });
    return delta === null ? null : Totp.counter({ period: TOTP.periodSeconds, timestamp: at.getTime() }) + delta;
  },
  keyUri: (secret, account) => totpOf(secret, account).toString(),
};
