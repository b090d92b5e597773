import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../app/services.js';
import type { Merchant } from '../../domain/merchant.js';
import type { ApiPipeline } from './api-pipeline.js';
import { startBodyDeadline } from '../pages/body-deadline.js';
import { contractAnswerValidator, contractBodyValidator, operationBasePaths } from './contract-schemas.js';
import { jsonResponse, sendWire, type Answer, type WireResponse } from './errors.js';
import type { MutationRequest, SendWire } from './idempotency.js';
import { MAX_BODY_BYTES, parseJsonText, PRE_READ, type PreRead } from './json-body.js';
import { permissionDenied } from './operation-permissions.js';
import { merchantOf } from './request-context.js';
import type { HttpMetrics, Routed } from './request-metrics.js';
import { runSteps } from './steps.js';

/** Express itself: where every request the hot routes do not take goes, untouched. */
type PassOn = (req: IncomingMessage, res: ServerResponse) => void;

export interface HotRouteDeps {
  services: Services;
  /** The steps every API request takes, the ones Express mounts. */
  pipeline: ApiPipeline;
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
 * request, more than the rest of a retrieval (docs/performance.md).
 *
 * The lane decides only whether it takes a request: the plain case, the exact path, no query string, an API key
 * checked within the last KEY_RECHECK_MS, unexpired and permitted the operation, a token left in its merchant's
 * bucket, and for the POST a JSON body of a declared length, arriving in time (./body-deadline.ts), that the
 * contract's own schema accepts. The key and the token are looked at before the body is read. Anything else goes on to
 * Express as it came (a body already read goes with it), and Express answers as it always has, errors included. A
 * request it takes runs the very steps Express mounts (./api-pipeline.ts), then the operation's own handler.
 *
 * Returns a request listener: the lane first, then `passOn`.
 */
export function withHotRoutes(deps: HotRouteDeps, passOn: PassOn): (req: IncomingMessage, res: ServerResponse) => void {
  const { services: s, pipeline } = deps;
  const checked = (operationId: string) => {
    if (!deps.validateResponses) return sendWire;
    const matches = contractAnswerValidator(operationId);
    return (res: Answer, wire: WireResponse) => {
      if (matches(wire.status, wire.body)) return sendWire(res, wire);
      pipeline.answerError(res, new Error(`${operationId}: the ${wire.status} answer does not match the contract: ${wire.body}`));
    };
  };
  const createQrCode = deps.createQrCode(checked('createQrCode'));
  const sendPayment = checked('retrievePayment');
  const qrBodyAccepted = contractBodyValidator('createQrCode');
  const qrBases = new Map(operationBasePaths('createQrCode').map((base) => [`${base}/qr-codes`, base]));
  const paymentBases = new Map(operationBasePaths('retrievePayment').map((base) => [`${base}/payments/`, base]));
  const steps = [...pipeline.everyRequest, ...pipeline.api];

  /** Whether the lane may take a request for the operation: its key known, unexpired and permitted it, a token left. */
  const admitted = (req: IncomingMessage, operationId: string): boolean => {
    const nowMs = s.clock.now().getTime();
    const key = pipeline.apiKeys.recent(req, nowMs);
    if (!key || permissionDenied(key.permissions, operationId)) return false;
    const decision = pipeline.perMerchant.peek(key.merchant.id, nowMs);
    return !decision || decision.allowed;
  };

  /** Runs the steps every API request takes, then, routed as Express would have routed it, the operation's handler. */
  const serve = (req: IncomingMessage, res: ServerResponse, base: string, route: string, handle: (answer: Answer) => Promise<void>): void => {
    const answer = Object.assign(res, { locals: {} });
    deps.metrics?.countHotRoute('taken');
    runSteps(steps, req, answer, (error) => {
      if (error !== undefined) return pipeline.answerError(answer, error);
      Object.assign(req as Routed, { baseUrl: base, route: { path: route } });
      handle(answer).catch((failure: unknown) => pipeline.answerError(answer, failure));
    });
  };

  const retrieve = (req: IncomingMessage, res: ServerResponse, base: string, paymentId: string): boolean => {
    if (!admitted(req, 'retrievePayment')) return false;
    serve(req, res, base, '/payments/:payment_id', async (answer) =>
      sendPayment(answer, jsonResponse(200, await deps.retrievePayment(merchantOf(answer), paymentId))),
    );
    return true;
  };

  const createQr = (req: PreRead, res: ServerResponse, base: string): boolean => {
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
    if (!plain || !admitted(req, 'createQrCode')) return false;

    const handle = (answer: Answer) => createQrCode({ headers: req.headers, body: req.body, params: {} }, answer);
    const deadline = startBodyDeadline(req, res, deps.requestBodyTimeoutMs, (error) => {
      req[PRE_READ] = { error }; // the body step answers 408, after the steps before it, as on Express
      serve(req, res, base, '/qr-codes', handle);
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      deadline.stop();
      if (deadline.passed()) return;
      const parsed = parseJsonText(Buffer.concat(chunks).toString('utf8'));
      req[PRE_READ] = parsed;
      if (!('body' in parsed) || !qrBodyAccepted(parsed.body)) {
        deps.metrics?.countHotRoute('passed_on');
        return passOn(req, res);
      }
      serve(req, res, base, '/qr-codes', handle);
    });
    return true;
  };

  /** Whether the request is a hot route's (null: not one of their paths) and whether the lane took it. */
  const lane = (req: IncomingMessage, res: ServerResponse): boolean | null => {
    const url = req.url ?? '';
    if (req.method === 'GET') {
      const slash = url.lastIndexOf('/');
      const base = paymentBases.get(url.slice(0, slash + 1));
      if (base === undefined) return null;
      const id = url.slice(slash + 1);
      return PLAIN_ID.test(id) && retrieve(req, res, base, id);
    }
    if (req.method === 'POST') {
      const base = qrBases.get(url);
      return base === undefined ? null : createQr(req, res, base);
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
