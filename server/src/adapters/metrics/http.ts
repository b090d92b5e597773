import { createServer, type Server } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { PrometheusMetrics } from './prometheus.js';

/** The route's pattern (`/Thai/v1/payments/:payment_id`), so that ids never become series; `unmatched` before routing. */
const routeOf = (req: Request): string => (req.route ? `${req.baseUrl}${(req.route as { path: string }).path}` : 'unmatched');

/** Times every request to its answer. */
export function observeRequests(metrics: PrometheusMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => metrics.observeRequest(req.method, routeOf(req), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    next();
  };
}

/** GET /metrics: the Prometheus text format, no API key (mount it only where the operator asked). */
export function metricsEndpoint(metrics: PrometheusMetrics): RequestHandler {
  return async (_req: Request, res: Response) => {
    const text = await metrics.registry.metrics();
    res.type(metrics.registry.contentType).send(text);
  };
}

/** METRICS_PORT: /metrics alone on a port of its own, so it can stay off the public side. */
export async function startMetricsServer(metrics: PrometheusMetrics, port: number, host: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://metrics').pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject).listen(port, host));
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
