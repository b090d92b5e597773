import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { expect } from 'vitest';

/** GET /metrics without a key, parsed by a Prometheus text-format parser. */
export async function scrape(url: string): Promise<MetricFamily[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(await res.text());
}

/** The value of one counter or gauge series, 0 when the series is absent. */
export function valueOf(families: MetricFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([key, value]) => m.labels?.[key] === value));
  return Number(sample?.value ?? 0);
}
