import type { Logger } from 'pino';
import type { Services } from '../../app/services.js';
import type { KeyUsage } from '../../ports/api-keys.js';
import { rememberClientAddress, type TrustedProxies } from '../pages/client-address.js';
import { accessLog } from './access-log.js';
import { requireApiKey, type ApiKeyCheck } from './auth.js';
import { answerError, type Answer } from './errors.js';
import { fromBodyParserError, jsonBody } from './json-body.js';
import { requirePermission } from './operation-permissions.js';
import { failedAuthenticationLimit, rateLimitPerMerchant, type RateLimiter } from './rate-limit.js';
import { requestId } from './request-context.js';
import { observeRequests, type HttpMetrics } from './request-metrics.js';
import { merchantApiResponse } from './response-headers.js';
import type { Next, Step } from './steps.js';
import { fromValidatorError } from './validation.js';

/** The steps every API request takes, in this order, on either lane. */
export const API_STEPS = ['client address', 'request id', 'access log', 'metrics', 'no-store', 'API key', 'rate limit', 'permission', 'body'] as const;
export type ApiStepName = (typeof API_STEPS)[number];
/** The first four are every request's, the pages' and health checks' too. */
const EVERY_REQUEST: readonly ApiStepName[] = ['client address', 'request id', 'access log', 'metrics'];

export interface ApiPipelineDeps {
  services: Services;
  logger: Logger;
  keyUsage: KeyUsage;
  /** Requests are counted and timed when metrics are kept. */
  metrics?: HttpMetrics | null;
  /** Per merchant; 0: no limit. */
  rateLimitPerSecond: number;
  /** Failed authentications per client address; 0: no limit. */
  authFailureLimitPerSecond: number;
  /** How long a request body may take to arrive once reading starts (then 408, connection closed). */
  requestBodyTimeoutMs: number;
  /** The proxies whose X-Forwarded-For names the client (TRUST_PROXY); none: the TCP peer is the client. */
  trustedProxies: TrustedProxies;
}

export interface ApiPipeline {
  /** What every request takes first, pages and health checks included. */
  everyRequest: Step[];
  /** What an API request takes next, before its operation's own validation and handler. */
  api: Step[];
  /** The error envelope: the answer to any step's or operation's error. */
  answerError(res: Answer, error: unknown): void;
  /** What the hot lane asks before taking a request: whether the key is known and a token is left (./hot-routes.ts). */
  apiKeys: ApiKeyCheck;
  perMerchant: RateLimiter;
}

/**
 * THE one definition of the steps an API request takes: Express mounts them (./app.ts), and the hot lane runs the same
 * functions (./hot-routes.ts, through `runSteps`), so a step added here reaches both lanes; the hot-route parity test
 * names a case for each.
 */
export function apiPipeline(deps: ApiPipelineDeps): ApiPipeline {
  const { services: s, logger } = deps;
  const apiKeys = requireApiKey(s, deps.keyUsage, failedAuthenticationLimit(s.clock, deps.authFailureLimitPerSecond));
  const perMerchant = rateLimitPerMerchant(s.clock, deps.rateLimitPerSecond);
  const metrics = deps.metrics;
  const steps: Record<ApiStepName, Step> = {
    'client address': (req, _res, next) => {
      rememberClientAddress(req, deps.trustedProxies);
      next();
    },
    'request id': requestId(() => s.ids.next('request')),
    'access log': accessLog(logger),
    metrics: metrics ? observeRequests(metrics) : (_req, _res, next: Next) => next(),
    'no-store': (_req, res, next) => {
      merchantApiResponse(res);
      next();
    },
    'API key': apiKeys.middleware,
    'rate limit': perMerchant.middleware,
    permission: requirePermission(),
    body: jsonBody(deps.requestBodyTimeoutMs),
  };
  return {
    everyRequest: API_STEPS.filter((name) => EVERY_REQUEST.includes(name)).map((name) => steps[name]),
    api: API_STEPS.filter((name) => !EVERY_REQUEST.includes(name)).map((name) => steps[name]),
    answerError: (res, error) => answerError(res, error, logger, (e) => fromValidatorError(e) ?? fromBodyParserError(e)),
    apiKeys,
    perMerchant,
  };
}
