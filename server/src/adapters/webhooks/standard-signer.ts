import { Webhook } from 'standardwebhooks';
import type { WebhookSigner } from '../../ports/webhook-delivery.js';

const MAX_CACHED_KEYS = 1_000;

/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` per secret, keyed with the secret after `whsec_`. */
export function standardWebhookSigner(): WebhookSigner {
  const signers = new Map<string, Webhook>(); // decoding a secret once per webhook, not once per attempt
  const signerFor = (secret: string): Webhook => {
    let signer = signers.get(secret);
    if (!signer) {
      if (signers.size >= MAX_CACHED_KEYS) signers.clear();
      signer = new Webhook(secret);
      signers.set(secret, signer);
    }
    return signer;
  };
  return {
    headersFor(secrets, eventId, at, body) {
      return {
        'webhook-id': eventId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        // Standard Webhooks: several signatures, space-separated; a receiver accepts the delivery if one matches.
        'webhook-signature': [secrets]
          .flat()
          .map((secret) => signerFor(secret).sign(eventId, at, body))
          .join(' '),
      };
    },
  };
}
