import type { V3MockServer } from '@pact-foundation/pact';
import { ConnectionError, PaymentQrClient, PaymentQrError } from '@payment-qr/sdk';
import { EXAMPLE_API_KEY } from './pact.js';

/**
 * The mock server answers a request no interaction expects with HTTP 500 and `x-pact`. That answer is a test
 * failure, not an API error: it is thrown here (through the SDK's fetch seam) with the request the SDK sent, so the
 * failure names the mismatch, e.g. a wrong path, instead of the SDK's "Unexpected HTTP 500".
 */
const failOnUnexpectedRequest = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
  const response = await fetch(input, init);
  const verdict = response.headers.get('x-pact');
  if (verdict === null) return response;
  const request = input instanceof Request ? input : new Request(input, init);
  throw new Error(
    `the pact has no interaction for the SDK's ${request.method} ${new URL(request.url).pathname}${new URL(request.url).search} (${verdict}): ${await response.text()}`,
  );
};

/** The real SDK, as published (sdk/dist), pointed at the Pact mock server; no retries, so one call is one interaction. */
export const sdkAgainst = (mock: V3MockServer, apiKey = EXAMPLE_API_KEY): PaymentQrClient =>
  new PaymentQrClient({ apiKey, baseUrl: mock.url, maxRetries: 0, timeout: 10_000, fetch: failOnUnexpectedRequest });

/**
 * The error the SDK threw for an API error answer. A ConnectionError here means the mock server refused the
 * SDK's request: it is rethrown, so the failure is Pact's mismatch, not "not an instance of NotFoundError".
 */
export async function apiErrorFrom(call: Promise<unknown>): Promise<PaymentQrError> {
  const error = await call.then(
    () => new Error('the SDK call succeeded; the interaction answers an error'),
    (rejection: unknown) => rejection,
  );
  if (error instanceof ConnectionError || !(error instanceof PaymentQrError)) throw error;
  return error;
}
