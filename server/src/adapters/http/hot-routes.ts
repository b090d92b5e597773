import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Services } from '../../app/services.js';
import type { KeyUsage } from '../../ports/api-keys.js';
import { auditContextOf, type ApiKeyCheck, type KnownKey } from './auth.js';
import { logAnswer } from './access-log.js';
import { startBodyDeadline } from './body-deadline.js';
import { contractAnswerValidator, contractBodyValidator, operationBasePaths } from './contract-schemas.js';
import { answerError, jsonResponse, sendWire, type Answer, type WireResponse } from './errors.js';
import type { MutationRequest, SendWire } from './idempotency.js';
import { MAX_BODY_BYTES, parseJsonText, PRE_READ } from './json-body.js';
import { clientAddress, COUNTED, type RateLimiter } from './rate-limit.js';
import { observeAnswer, UNMATCHED, type HttpMetrics } from './request-metrics.js';
import { permissionDenied } from './operation-permissions.js';
import { merchantApiResponse } from './response-headers.js';
import type { RateDecision } from '../../domain/token-bucket.js';
import type { Merchant } from '../../domain/merchant.js';

/** Express itself: where every request the hot routes do not take goes, untouched. */
type PassOn = (req: IncomingMessage, res: ServerResponse) => void;

export interface HotRouteDeps {
  services: Services;
  logger: Logger;
  apiKeys: ApiKeyCheck;
  perMerchant: RateLimiter;
  keyUsage: KeyUsage;
  metrics?: HttpMetrics | null;
  /** The operations' own handlers, the ones Express routes to. */
  createQrCode: (send: SendWire) => (req: MutationRequest, res: Answer) => Promise<void>;
  retrievePayment: (merchant: Merchant, paymentId: string) => Promise<unknown>;
  /** Check every answer against the contract; a mismatch becomes a 500 (tests), as the contract validator does for Express. */
  validateResponses: boolean;
  /** How long a body may take to arrive once reading starts, as for Express (./json-body.ts). */
  requestBodyTimeoutMs: number;
}

/** Ids as the service mints them: anything else (escapes, odd characters) takes the general route. */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,255}$/;
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/**
 * The two operations merchants call most, POST /qr-codes and GET /payments/{payment_id} under every base the contract
 * serves them at, answered before Express: Express's routing and request decoration cost about 0.1 ms of CPU per
 * request, more than the rest of a retrieval (README, "Performance").
 *
 * A request takes this lane only in the plain case: the exact path, no query string, an API key checked within the
 * last KEY_RECHECK_MS and unexpired, a token left in its merchant's bucket, and for the POST a JSON body of a declared
 * length that the contract's own schema accepts. The key and the token are settled before the body is read, and the
 * body must arrive in time (./body-deadline.ts). Anything else goes on to Express as it came (a body already read goes
 * with it, and the token it was counted with), and Express answers as it always has, errors included. The lane runs
 * the same handlers, the same Request-Id, headers, RateLimit, access log and metrics, and the same error envelope.
 *
 * Returns a request listener: the lane first, then `passOn`.
 */
export function withHotRoutes(deps: HotRouteDeps, passOn: PassOn): (req: IncomingMessage, res: ServerResponse) => void {
  const { services: s, logger } = deps;
  const checked = (operationId: string) => {
    if (!deps.validateResponses) return sendWire;
    const matches = contractAnswerValidator(operationId);
    return (res: Answer, wire: WireResponse) => {
      if (matches(wire.status, wire.body)) return sendWire(res, wire);
      answerError(res, new Error(`${operationId}: the ${wire.status} answer does not match the contract: ${wire.body}`), logger);
    };
  };
  const createQrCode = deps.createQrCode(checked('createQrCode'));
  const sendPayment = checked('retrievePayment');
  const qrBodyAccepted = contractBodyValidator('createQrCode');
  const qrPaths = new Set(operationBasePaths('createQrCode').map((base) => `${base}/qr-codes`));
  const paymentBases = new Map(operationBasePaths('retrievePayment').map((base) => [`${base}/payments/`, `${base}/payments/:payment_id`]));

  /** Past this point the request is this lane's: it gets its id, log line, metrics and rate headers, then its answer. */
  const take = (req: IncomingMessage, res: ServerResponse, route: string, key: KnownKey, now: Date): Answer => {
    const answer = res as Answer;
    const requestId = s.ids.next('request');
    answer.locals = { requestId, merchant: key.merchant, apiKey: key, audit: auditContextOf(key, clientAddress(req)) };
    res.setHeader('Request-Id', requestId);
    merchantApiResponse(res);
    if (logger.isLevelEnabled('info')) logAnswer(logger, req.method!, req.url!, answer);
    if (deps.metrics) observeAnswer(deps.metrics, req.method!, route, res);
    deps.keyUsage.touch(key.keyId, now);
    deps.metrics?.countHotRoute('taken');
    return answer;
  };

  /** The merchant of a recently checked key with a token left, or null: let Express authenticate and limit. */
  const admitted = (req: IncomingMessage, now: Date, key = deps.apiKeys.recent(req.headers.authorization, now.getTime())) => {
    if (!key || key.expiresAt <= now.getTime()) return null;
    const decision = deps.perMerchant.take(key.merchant.id, now.getTime());
    if (decision && !decision.allowed) return null;
    return { key, decision };
  };

  const retrieve = (req: IncomingMessage, res: ServerResponse, route: string, paymentId: string): boolean => {
    const now = s.clock.now();
    const entry = admitted(req, now);
    if (!entry) return false;
    // As on the Express lane: a key without the permission is refused before routing (so its metrics route is unmatched).
    const denied = permissionDenied(entry.key.permissions, 'retrievePayment');
    const answer = take(req, res, denied ? UNMATCHED : route, entry.key, now);
    if (entry.decision) deps.perMerchant.announce(res, entry.decision);
    if (denied) return (answerError(answer, denied, logger), true);
    deps.retrievePayment(entry.key.merchant, paymentId).then(
      (body) => sendPayment(answer, jsonResponse(200, body)),
      (error: unknown) => answerError(answer, error, logger),
    );
    return true;
  };

  const createQr = (req: IncomingMessage, res: ServerResponse, route: string): boolean => {
    const length = Number(req.headers['content-length']);
    const key = req.headers['idempotency-key'];
    const plain =
      JSON_TYPES.has(req.headers['content-type']?.toLowerCase() ?? '') &&
      req.headers['content-encoding'] === undefined &&
      req.headers['transfer-encoding'] === undefined &&
      Number.isInteger(length) &&
      length > 0 &&
      length <= MAX_BODY_BYTES &&
      (key === undefined || (typeof key === 'string' && key.length >= 1 && key.length <= 255));
    if (!plain) return false;
    const now = s.clock.now();
    const entry = admitted(req, now);
    if (!entry) return false;
    // As on the Express lane: a key without the permission is refused before the body is read, and before routing.
    const denied = permissionDenied(entry.key.permissions, 'createQrCode');
    const answer = (): Answer => {
      const taken = take(req, res, denied ? UNMATCHED : route, entry.key, now);
      if (entry.decision) deps.perMerchant.announce(res, entry.decision);
      return taken;
    };
    if (denied) return (answerError(answer(), denied, logger), true);

    const deadline = startBodyDeadline(req, res, deps.requestBodyTimeoutMs, (error) => answerError(answer(), error, logger));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      deadline.stop();
      if (deadline.passed()) return;
      const text = Buffer.concat(chunks).toString('utf8');
      const parsed = parseJsonText(text);
      if (!('body' in parsed) || !qrBodyAccepted(parsed.body)) {
        const passed = req as IncomingMessage & { [PRE_READ]?: string; [COUNTED]?: RateDecision };
        passed[PRE_READ] = text;
        if (entry.decision) passed[COUNTED] = entry.decision;
        deps.metrics?.countHotRoute('passed_on');
        return passOn(req, res);
      }
      createQrCode({ headers: req.headers, body: parsed.body, params: {} }, answer()).catch((error: unknown) => answerError(res as Answer, error, logger));
    });
    return true;
  };

  /** Whether the request is a hot route's (null: not one of their paths) and whether the lane took it. */
  const lane = (req: IncomingMessage, res: ServerResponse): boolean | null => {
    const url = req.url ?? '';
    if (req.method === 'GET') {
      const slash = url.lastIndexOf('/');
      const route = paymentBases.get(url.slice(0, slash + 1));
      if (route === undefined) return null;
      const id = url.slice(slash + 1);
      return PLAIN_ID.test(id) && retrieve(req, res, route, id);
    }
    if (req.method === 'POST') {
      return qrPaths.has(url) ? createQr(req, res, url) : null;
    }
    return null;
  };

  return (req, res) => {
    const taken = lane(req, res);
    if (taken) return;
    if (taken === false) deps.metrics?.countHotRoute('passed_on');
    passOn(req, res);
  };
}
