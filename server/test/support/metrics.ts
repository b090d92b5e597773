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

/**
 * The observation count of each series of a histogram, with its labels. The parser merges a histogram's series into
 * one and drops their labels, so the family's TYPE line is left out and its `_count` samples are read as plain ones.
 */
export async function histogramCounts(url: string, name: string): Promise<{ labels: Record<string, string>; count: number }[]> {
  const text = await (await fetch(url)).text();
  const untyped = text
    .split('\n')
    .filter((line) => line !== `# TYPE ${name} histogram`)
    .join('\n');
  return parsePrometheusTextFormat(untyped)
    .filter((family) => family.name === `${name}_count`)
    .flatMap((family) => family.metrics.map((sample) => ({ labels: sample.labels ?? {}, count: Number(sample.value) })));
}
