import { Webhook as StandardWebhook, WebhookVerificationError as StandardWebhookError } from 'standardwebhooks';
import { WebhookVerificationError, type WebhookVerificationFailure } from './errors.js';
import type { WebhookEvent } from './types.js';

/** Request headers as Node (`req.headers`), Express, or the Fetch API (`Headers`) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function signatureHeadersOf(headers: WebhookHeaders): Record<string, string> {
  const found: Record<string, string> = {};
  const lowerCased = new Map<string, string | string[] | undefined>();
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function') {
    (headers as Headers).forEach((value, name) => lowerCased.set(name.toLowerCase(), value));
  } else {
    for (const [name, value] of Object.entries(headers)) lowerCased.set(name.toLowerCase(), value);
  }
  for (const name of SIGNATURE_HEADERS) {
    const value = lowerCased.get(name);
    const text = Array.isArray(value) ? value.join(' ') : value;
    if (typeof text !== 'string' || text === '') {
      throw new WebhookVerificationError('missing_headers', `The ${name} header is missing: this request was not sent by Payment QR, or a proxy dropped it.`);
    }
    found[name] = text;
  }
  return found;
}

function bodyText(rawBody: unknown): string {
  if (typeof rawBody === 'string') return rawBody;
  if (rawBody instanceof Uint8Array) return new TextDecoder().decode(rawBody); // Node's Buffer is a Uint8Array
  if (rawBody instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(rawBody));
  throw new WebhookVerificationError(
    'invalid_payload',
    'webhooks.verify needs the raw request body (a string or bytes) exactly as received, not parsed JSON. ' +
      "In Express, use express.raw({ type: 'application/json' }) on the webhook route.",
  );
}

const failureOf = (message: string): WebhookVerificationFailure =>
  /too old/i.test(message)
    ? 'timestamp_too_old'
    : /too new/i.test(message)
      ? 'timestamp_too_new'
      : /missing/i.test(message)
        ? 'missing_headers'
        : /signature headers/i.test(message)
          ? 'invalid_timestamp'
          : 'invalid_signature';

const explanations: Record<WebhookVerificationFailure, string> = {
  missing_headers: 'The webhook-id, webhook-timestamp or webhook-signature header is missing.',
  invalid_signature: 'No webhook-signature matches this body and secret: the body was altered, or the secret is not this webhook\u2019s.',
  timestamp_too_old: 'The webhook-timestamp is more than 5 minutes old: a replayed delivery, or a clock that is far off.',
  timestamp_too_new: 'The webhook-timestamp is more than 5 minutes in the future: check this server\u2019s clock.',
  invalid_timestamp: 'The webhook-timestamp header is not a Unix time in seconds.',
  invalid_secret: 'The secret is not a webhook signing secret (whsec_ followed by base64); read it with webhooks.secret(webhookId).',
  invalid_payload: 'The signed body is not a Payment QR webhook event.',
};

function isWebhookEvent(value: unknown): value is WebhookEvent {
  const event = value as Partial<Record<keyof WebhookEvent, unknown>> | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    typeof event.id === 'string' &&
    typeof event.event === 'string' &&
    typeof event.data === 'object' &&
    event.data !== null
  );
}

/** A verifier per secret; a malformed secret is the caller's mistake, reported as such whichever it is. */
function verifiersOf(secret: string | readonly string[]): StandardWebhook[] {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0) throw new WebhookVerificationError('invalid_secret', explanations.invalid_secret);
  return secrets.map((one) => {
    try {
      return new StandardWebhook(one);
    } catch (error) {
      throw new WebhookVerificationError('invalid_secret', explanations.invalid_secret, { cause: error });
    }
  });
}

/**
 * Checks a webhook delivery (Standard Webhooks: HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`,
 * compared in constant time, timestamp within 5 minutes) and returns its event. Throws
 * WebhookVerificationError, with a `reason`, when it must not be trusted.
 *
 * @param rawBody the request body exactly as received (string, Buffer or bytes), not parsed JSON
 * @param headers the request headers (a plain object or `Headers`)
 * @param secret the webhook's signing secret, `whsec_...`; while rotating, the new and the previous one: a
 *   delivery signed with either passes
 */
export function verifyWebhook(rawBody: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string | readonly string[]): WebhookEvent {
  const body = bodyText(rawBody);
  const signatureHeaders = signatureHeadersOf(headers);
  let firstFailure: WebhookVerificationError | undefined;
  for (const verifier of verifiersOf(secret)) {
    let payload: unknown;
    try {
      payload = verifier.verify(body, signatureHeaders);
    } catch (error) {
      if (error instanceof StandardWebhookError) {
        const reason = failureOf(error.message);
        firstFailure ??= new WebhookVerificationError(reason, explanations[reason], { cause: error });
        continue;
      }
      // A signature that matches over a body that is not JSON.
      throw new WebhookVerificationError('invalid_payload', explanations.invalid_payload, { cause: error });
    }
    if (!isWebhookEvent(payload)) throw new WebhookVerificationError('invalid_payload', explanations.invalid_payload);
    return payload;
  }
  throw firstFailure ?? new WebhookVerificationError('invalid_signature', explanations.invalid_signature);
}
