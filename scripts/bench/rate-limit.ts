/**
 * `node --import tsx scripts/bench/rate-limit.ts [calls]`: what the per-merchant rate limiter adds to one request, in
 * CPU time: the real middleware on a real (unsent) ServerResponse, with the limit on but never reached, against a
 * pass-through. Less sensitive to a busy machine than `npm run bench`, whose request rates it puts in proportion.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import { rateLimitPerMerchant } from '../../server/src/adapters/http/rate-limit.js';
import { systemClock } from '../../server/src/adapters/system/clock.js';

const calls = Number(process.argv[2] ?? 2_000_000);

function nsPerCall(handler: RequestHandler): number {
  const req = new IncomingMessage(new Socket()) as unknown as Request;
  let passed = 0;
  const next = () => void (passed += 1);
  const responses = Array.from({ length: 1000 }, () => {
    const res = new ServerResponse(req as unknown as IncomingMessage) as unknown as Response;
    res.setHeader('Request-Id', 'req_bench'); // as the pipeline has done before the limiter runs
    res.locals = { merchant: { id: 'mch_bench' } };
    return res;
  });
  // CPU time of this process, not wall time: other work on the machine does not count.
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) void handler(req, responses[i % 1000]!, next);
  const used = process.cpuUsage(start);
  const ns = ((used.user + used.system) * 1000) / calls;
  if (passed !== calls) throw new Error(`only ${passed} of ${calls} calls passed: the limit was reached`);
  return ns;
}

const off = rateLimitPerMerchant(systemClock, 0).middleware;
const on = rateLimitPerMerchant(systemClock, 1_000_000_000).middleware;
const rounds: { off: number; on: number }[] = [];
for (let round = 0; round < 5; round++) rounds.push({ off: nsPerCall(off), on: nsPerCall(on) });
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cost = median(rounds.map((r) => r.on - r.off));
console.log(
  `rate limiter: ${cost.toFixed(0)} ns of CPU per request (median of ${rounds.length} rounds of ${calls} calls; pass-through ${median(rounds.map((r) => r.off)).toFixed(0)} ns)`,
);
for (const rps of [2_000, 5_000])
  console.log(`  at ${rps} req/s on 2 cores (${(2e9 / rps / 1000).toFixed(0)} µs of CPU per request): ${((cost / (2e9 / rps)) * 100).toFixed(2)} %`);
