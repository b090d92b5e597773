import { describe, expect, it } from 'vitest';
import { merchantsAtShare } from '../../src/domain/delivery-fairness.js';
import { redeliveryAfter, settleAttempt } from '../../src/domain/delivery-schedule.js';
import { assertRoomForWebhook, assertWebhookUrlLength } from '../../src/domain/webhook.js';
import { earlierSecretsAfterRotation, signingSecrets, type EarlierSecret } from '../../src/domain/webhook-management.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24) + seconds * 1000);
const earlier = (secret: string, retiredAt: number, expiresAt: number): EarlierSecret => ({ secret, retiredAt: at(retiredAt), expiresAt: at(expiresAt) });

describe('earlierSecretsAfterRotation', () => {
  it('keeps the replaced secret first, then the earlier ones still within their windows, at most two', () => {
    const kept = earlierSecretsAfterRotation('s3', [earlier('s1', 0, 1_000), earlier('s2', 10, 50)], at(3_600), at(20));
    expect(kept).toEqual([earlier('s3', 20, 3_600), earlier('s2', 10, 50)]);
  });

  it('drops earlier secrets whose own window is over, whatever the new one', () => {
    expect(earlierSecretsAfterRotation('s2', [earlier('s1', 0, 10)], at(100), at(10))).toEqual([earlier('s2', 10, 100)]);
  });

  it('with no window for the replaced secret (0 s) keeps only the earlier ones still signing', () => {
    expect(earlierSecretsAfterRotation('s2', [earlier('s1', 0, 100)], null, at(10))).toEqual([earlier('s1', 0, 100)]);
  });

  it('signs with the current secret first and never more than three', () => {
    expect(signingSecrets('now', ['a', 'b', 'c'])).toEqual(['now', 'a', 'b']);
    expect(signingSecrets('now', [])).toEqual(['now']);
  });
});

describe('redeliveryAfter', () => {
  it('makes whatever the attempt got due at once, not delivered', () => {
    const delivered = settleAttempt({ kind: 'answered', status: 200 }, 1, [0, 5_000], at(0));
    expect(redeliveryAfter(delivered, at(1))).toMatchObject({ status: 'pending', nextAttemptAt: at(1), deliveredAt: null, lastResponseStatus: 200 });
    const failed = settleAttempt({ kind: 'answered', status: 500 }, 9, [0], at(0));
    expect(redeliveryAfter(failed, at(1))).toMatchObject({ status: 'pending', nextAttemptAt: at(1) });
  });

  it('leaves a 410 as it is: the endpoint wants nothing more', () => {
    const gone = settleAttempt({ kind: 'answered', status: 410 }, 1, [0, 5_000], at(0));
    expect(redeliveryAfter(gone, at(1))).toEqual(gone);
  });
});

describe('bounds', () => {
  it('allows 16 endpoints per merchant', () => {
    expect(() => assertRoomForWebhook(15)).not.toThrow();
    expect(() => assertRoomForWebhook(16)).toThrow(expect.objectContaining({ code: 'webhook_limit_reached' }));
  });

  it('allows a url of 2048 characters, not 2049', () => {
    expect(() => assertWebhookUrlLength(`https://x.example/${'a'.repeat(2048 - 18)}`)).not.toThrow();
    expect(() => assertWebhookUrlLength(`https://x.example/${'a'.repeat(2049 - 18)}`)).toThrow(
      expect.objectContaining({ code: 'invalid_request', param: 'url' }),
    );
  });

  it('names the merchants at their share of the slots', () => {
    expect(
      merchantsAtShare({
        perMerchant: 2,
        inFlight: new Map([
          ['a', 2],
          ['b', 1],
          ['c', 3],
        ]),
      }),
    ).toEqual(['a', 'c']);
  });
});
