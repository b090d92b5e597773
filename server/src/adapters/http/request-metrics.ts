import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

/** What the HTTP layer reports to, and serves, when the deployment keeps metrics. */
export interface HttpMetrics {
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  countHotRoute(outcome: 'taken' | 'passed_on'): void;
  /** The exposition text and its content type. */
  render(): Promise<{ contentType: string; text: string }>;
  /** METRICS=on: GET /metrics on the API port, without a key. */
  serveOnApiPort: boolean;
}

/** The route of an answer given before routing: a 401, a 429, a 403 for a permission the key lacks. */
export const UNMATCHED = 'unmatched';

/**
 * The route's pattern (`/Thai/v1/payments/:payment_id`), so that ids never become series; `unmatched` before routing.
 * The base path a router is mounted at is only on the request while it routes (an error answered after it is gone),
 * so it is read when routing names the route.
 */
function routeOf(req: Routed): () => string {
  let route: { path: string } | undefined;
  let base = '';
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path: string }) {
      route = value;
      base = req.baseUrl ?? '';
    },
  });
  return () => (route ? `${base}${route.path}` : UNMATCHED);
}

/** A request as routing leaves it: the base path of the router that matched, and the route's pattern under it. */
export type Routed = IncomingMessage & { baseUrl?: string; route?: { path: string } };

/** Times every request to its answer, by method, route and status; the route is read when the answer has gone out. */
export function observeRequests(metrics: HttpMetrics) {
  return (req: Routed, res: ServerResponse, next: () => void): void => {
    const route = routeOf(req);
    const started = process.hrtime.bigint();
    res.once('finish', () => metrics.observeRequest(req.method!, route(), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    next();
  };
}

/** GET /metrics: the Prometheus text format, no API key (mounted only where the operator asked). */
export function metricsEndpoint(metrics: HttpMetrics): RequestHandler {
  return async (_req: Request, res: Response) => {
    const { contentType, text } = await metrics.render();
    res.type(contentType).send(text);
  };
}
