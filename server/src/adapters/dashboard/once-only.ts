import { createHash, randomBytes } from 'node:crypto';
import { idempotencyLifetimeMs } from '../../app/expire-overdue-payments.js';
import type { Services } from '../../app/services.js';
import { DomainError } from '../../domain/errors.js';
import type { Repositories } from '../../ports/repositories.js';

/** Keys the forms carry live beside the API's in the same store; the prefix keeps them apart from a merchant's own. */
const KEY_PREFIX = 'dashboard:';
const WAIT_STEP_MS = 100;
const WAIT_STEPS = 50;

export type OnceOutcome = { done: true; id: string; fresh: boolean } | { done: false };

/**
 * Runs a form's action at most once per key (generated into the confirmation form), through the API's idempotency
 * store: the action, its stored result (the id of what it made) and everything else `work` writes commit together. A
 * second submit with the key gets the first one's id back; one arriving while the first runs waits for it.
 */
export async function onceOnly(
  s: Services,
  merchantId: string,
  key: string,
  request: readonly unknown[],
  work: (tx: Repositories) => Promise<string>,
): Promise<OnceOutcome> {
  const stored = KEY_PREFIX + key;
  const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  for (let step = 0; step < WAIT_STEPS; step++) {
    const outcome = await s.uow.run(async (tx): Promise<OnceOutcome> => {
      const { held, prior } = await tx.idempotency.claim(merchantId, stored, new Date(s.clock.now().getTime() - idempotencyLifetimeMs));
      if (!held) return { done: false };
      if (prior) {
        if (prior.fingerprint !== fingerprint) throw new DomainError('idempotency_key_reused', 'This form was already sent with other values; start again.');
        return { done: true, id: prior.body, fresh: false };
      }
      const id = await work(tx);
      await tx.idempotency.save(merchantId, stored, { fingerprint, status: 200, body: id, createdAt: s.clock.now() });
      return { done: true, id, fresh: true };
    });
    if (outcome.done) return outcome;
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
  return { done: false };
}

/** A key for one confirmation form: 128 random bits. */
export const formKey = (): string => randomBytes(16).toString('base64url');
