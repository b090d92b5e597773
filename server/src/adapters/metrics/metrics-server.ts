import { createServer, type Server } from 'node:http';
import type { PrometheusMetrics } from './prometheus.js';

/** METRICS_PORT: /metrics alone on a port of its own, so it can stay off the public side. */
export async function startMetricsServer(metrics: PrometheusMetrics, port: number, host: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff'); // as on every answer of the API port
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
