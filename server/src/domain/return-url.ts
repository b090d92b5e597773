import { DomainError } from './errors.js';

export const MAX_RETURN_URL_LENGTH = 2048;

/** Where the checkout page sends the customer after paying: absolute https (http too in development), at most 2048 characters. */
export function assertReturnUrl(url: string, options: { allowHttp: boolean }): void {
  const schemes = options.allowHttp ? ['https:', 'http:'] : ['https:'];
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (url.length > MAX_RETURN_URL_LENGTH || !parsed || !schemes.includes(parsed.protocol) || !parsed.hostname) {
    throw new DomainError(
      'invalid_parameters',
      `return_url must be an absolute ${options.allowHttp ? 'https or http' : 'https'} URL of at most ${MAX_RETURN_URL_LENGTH} characters.`,
      'return_url',
    );
  }
}

/** The return URL with the payment's outcome appended, as the customer's browser is sent there. */
export function returnUrlFor(returnUrl: string, paymentId: string): string {
  const target = new URL(returnUrl);
  target.searchParams.set('payment_id', paymentId);
  target.searchParams.set('status', 'succeeded');
  return target.toString();
}
