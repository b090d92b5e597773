/** TOTP as RFC 6238 and every authenticator app read it: 6 digits, a new code every 30 s, HMAC-SHA-1. */
export const TOTP = { digits: 6, periodSeconds: 30, algorithm: 'SHA1', issuer: 'PromptPay QR' } as const;
/** A code of the step before or after is accepted too: phones' clocks drift. */
export const TOTP_WINDOW_STEPS = 1;

/** Each user gets this many recovery codes, shown once; each works once. */
export const RECOVERY_CODE_COUNT = 10;

/** What a person types: spaces and dashes are theirs, not the code's. */
export const normalizeCode = (text: string): string => text.replace(/[\s-]/g, '').toLowerCase();

export const isTotpCode = (text: string): boolean => /^\d{6}$/.test(normalizeCode(text));

/** A code is accepted once: only a time step after the last one used counts (no replay within the window). */
export const isFreshStep = (step: number, lastStep: number | null): boolean => lastStep === null || step > lastStep;
