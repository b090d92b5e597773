import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { IncomingHttpHeaders } from 'node:http';
import { idempotencyLifetimeMs } from '../../app/expire-overdue-payments.js';
import type { Services } from '../../app/services.js';
import type { AuditContext } from '../../domain/audit.js';
import { DomainError } from '../../domain/errors.js';
import type { Merchant } from '../../domain/merchant.js';
import type { QrCodeWrites, Repositories } from '../../ports/repositories.js';
import { errorResponse, sendWire, type Answer, type WireResponse } from './errors.js';
import { auditOf, merchantOf, requestIdOf } from './request-context.js';

/** How an answer is written (the hot routes check it against the contract first in tests). */
export type SendWire = (res: Answer, wire: WireResponse) => void;

/** What a mutation reads of its request: Express's, or the bare one of ./hot-routes.ts. */
export interface MutationRequest {
  headers: IncomingHttpHeaders;
  body?: unknown;
  params: Record<string, unknown>;
}

export interface MutationContext<Tx = Repositories> {
  tx: Tx;
  merchant: Merchant;
  requestId: string;
  /** Who is acting, for the audit entry an audited use case writes with `tx`. */
  audit: AuditContext;
}

/**
 * An answer that is final only after work done once its transaction has committed (a call to a bank, which must not
 * run while row locks are held). Until that work has answered, a retry with the key finds the request still running.
 */
export interface FollowedAnswer extends WireResponse {
  afterCommit: () => Promise<WireResponse>;
}

export const followedBy = (first: WireResponse, afterCommit: () => Promise<WireResponse>): FollowedAnswer => ({ ...first, afterCommit });

const isFollowed = (wire: WireResponse): wire is FollowedAnswer => 'afterCommit' in wire;

/** Results that reached the business logic are kept for replay; validation, auth, conflicts and 5xx are not. */
const isReplayable = (status: number): boolean => (status >= 200 && status < 300) || [402, 404, 422].includes(status);

/**
 * Stored while a followed answer's work runs, with the first answer's body (what has committed): no result is ever
 * stored with a 409, so it cannot be mistaken for one.
 */
const STILL_RUNNING_STATUS = 409;
/**
 * After this long the request that stored the marker is taken to have died before it could keep its final answer (its
 * database went away mid-failover): a retry is answered with what committed, the first answer, instead of a 409 forever.
 */
const FOLLOW_UP_LEASE_MS = 30_000;

const keyInUse = () =>
  new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry in a moment.', 'Idempotency-Key');

function idempotencyKeyOf(req: MutationRequest): string | undefined {
  const header = req.headers['idempotency-key'] as string | undefined;
  const body = (req.body as { idempotency_key?: unknown } | undefined)?.idempotency_key;
  const key = header ?? (typeof body === 'string' ? body : undefined);
  if (header !== undefined && body !== undefined && body !== header) {
    throw new DomainError('invalid_request', 'The Idempotency-Key header and the body idempotency_key differ; send one of them.', 'idempotency_key');
  }
  if (key !== undefined && (key.length < 1 || key.length > 255)) {
    throw new DomainError('invalid_request', 'Idempotency-Key must be 1 to 255 characters.', 'Idempotency-Key');
  }
  return key;
}

/** Same operation (whichever of its paths), same path ids, same body without its own idempotency_key. */
function fingerprintOf(operation: string, req: MutationRequest): string {
  const { idempotency_key: _ignored, ...body } = (req.body ?? {}) as Record<string, unknown>;
  return createHash('sha256')
    .update(canonicalize([operation, req.params, body]) ?? '')
    .digest('hex');
}

type Perform<Tx> = (ctx: MutationContext<Tx>, req: MutationRequest) => Promise<WireResponse>;

/** How a mutation's work is written: in a transaction, or (QR creation's inserts) in one statement. */
type Lane = { inOneStatement: false; perform: Perform<Repositories> } | { inOneStatement: true; perform: Perform<QrCodeWrites> };

/** Without a key there is no gate: the held inserts are always written (or the statement fails as a whole). */
async function unkeyedInOneStatement(s: Services, work: (writes: QrCodeWrites) => Promise<WireResponse>): Promise<WireResponse> {
  const written = await s.uow.runInOneStatement(work);
  if (!written.committed) throw new Error('an ungated one-statement write wrote nothing');
  return written.result;
}

/**
 * Runs a POST in one transaction with its idempotency record: the business writes and the stored result commit
 * together. A transaction-scoped lock on the key makes concurrent requests with the same key, on any number of
 * server instances, answer 409 idempotency_key_in_use instead of running twice. A refusal (404, 422) rolls the
 * business writes back and is stored in a second transaction, so the success path needs no savepoint.
 *
 * QR creation (`idempotentQrCodeWrite`) takes the one-statement path: without a key, its inserts are written in one
 * round trip; with a key, the inserts and the stored result are written in one round trip if the key is free. If it
 * is not, nothing was written, and the transaction above decides: replay, 409, or (a lapsed key) a new result.
 *
 * A `FollowedAnswer` (see `followedBy`) commits with a still-running mark under the key instead of its result; its
 * follow-up runs after the commit, and its answer is sent and stored in place of the mark.
 */
export function idempotentMutation(s: Services, operation: string, perform: Perform<Repositories>, options: { send?: SendWire } = {}) {
  return mutation(s, operation, { inOneStatement: false, perform }, options.send);
}

/** `idempotentMutation` for creating a QR code: its writes, inserts only, go in one statement with the stored result. */
export function idempotentQrCodeWrite(s: Services, operation: string, perform: Perform<QrCodeWrites>, options: { send?: SendWire } = {}) {
  return mutation(s, operation, { inOneStatement: true, perform }, options.send);
}

function mutation(s: Services, operation: string, lane: Lane, send: SendWire = sendWire) {
  return async (req: MutationRequest, res: Answer): Promise<void> => {
    const merchant = merchantOf(res);
    const requestId = requestIdOf(res);
    const key = idempotencyKeyOf(req);
    const audit = auditOf(res);
    const work = (tx: Repositories) => lane.perform({ tx, merchant, requestId, audit }, req);
    const writesOnly = lane.inOneStatement ? (writes: QrCodeWrites) => lane.perform({ tx: writes, merchant, requestId, audit }, req) : undefined;
    if (key === undefined) {
      const first = writesOnly ? await unkeyedInOneStatement(s, writesOnly) : await s.uow.run(work);
      send(res, isFollowed(first) ? await first.afterCommit() : first);
      return;
    }
    const fingerprint = fingerprintOf(operation, req);
    const notBefore = () => new Date(s.clock.now().getTime() - idempotencyLifetimeMs);
    /** Claims the key, then replays what is stored under it, or produces the answer and stores it if replayable. */
    const underKey = (produce: (tx: Repositories) => Promise<WireResponse>) =>
      s.uow.run(async (tx) => {
        const now = s.clock.now();
        const { held, prior } = await tx.idempotency.claim(merchant.id, key, notBefore());
        if (!held) throw keyInUse();
        if (prior && prior.fingerprint !== fingerprint) {
          throw new DomainError(
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different request in the last 24 hours; use a new key.',
            'Idempotency-Key',
          );
        }
        if (prior?.status === STILL_RUNNING_STATUS) {
          if (now.getTime() - prior.createdAt.getTime() < FOLLOW_UP_LEASE_MS || prior.body === '') throw keyInUse();
          return { wire: { status: 200, body: prior.body }, replayed: true };
        }
        if (prior) return { wire: { status: prior.status, body: prior.body }, replayed: true };
        const wire = await produce(tx);
        if (isReplayable(wire.status))
          await tx.idempotency.save(merchant.id, key, {
            fingerprint,
            ...(isFollowed(wire) ? { status: STILL_RUNNING_STATUS, body: wire.body } : wire),
            createdAt: now,
          });
        return { wire, replayed: false, storedAt: now };
      });
    /** The one-statement path: the answer if it was written with its record, else undefined. */
    const atOnce = async (writes: (writes: QrCodeWrites) => Promise<WireResponse>) => {
      const written = await s.uow.runInOneStatement(writes, (wire) =>
        isReplayable(wire.status)
          ? { merchantId: merchant.id, key, notBefore: notBefore(), response: { fingerprint, status: wire.status, body: wire.body, createdAt: s.clock.now() } }
          : undefined,
      );
      return written.committed ? { wire: written.result, replayed: false } : undefined;
    };

    let result: { wire: WireResponse; replayed: boolean; storedAt?: Date };
    try {
      result = (writesOnly && (await atOnce(writesOnly))) || (await underKey(work));
    } catch (error) {
      if (!(error instanceof DomainError) || error.code.startsWith('idempotency_key_')) throw error;
      // The business writes rolled back with the transaction; record the refusal under the key in a second one,
      // unless a concurrent request with the same key stored its result first: then that result is the answer.
      result = await underKey(async () => errorResponse(error, requestId));
    }
    const { replayed, storedAt } = result;
    let { wire } = result;
    if (isFollowed(wire)) {
      const first = wire;
      const keep = (answer: WireResponse) =>
        s.uow.run((tx) =>
          tx.idempotency.save(merchant.id, key, { fingerprint, status: answer.status, body: answer.body, createdAt: storedAt ?? s.clock.now() }),
        );
      try {
        wire = await first.afterCommit();
      } catch (error) {
        await keep(first); // what committed stands; a retry replays it rather than finding the request running forever
        throw error;
      }
      await keep(isReplayable(wire.status) ? wire : first);
    }
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    send(res, wire);
  };
}
