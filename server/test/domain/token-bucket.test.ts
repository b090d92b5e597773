import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../src/domain/token-bucket.js';

describe('a token bucket per key', () => {
  it('lets a quiet client burst up to the limit, then refuses with the wait until one token is back', () => {
    const buckets = new TokenBuckets(10);
    const t0 = 1_000_000;
    const burst = Array.from({ length: 10 }, () => buckets.take('mch_a', t0));
    expect(burst.every((d) => d.allowed)).toBe(true);
    expect(burst.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(burst[0]!.resetSeconds).toBe(1);
    const refused = buckets.take('mch_a', t0);
    expect(refused).toEqual({ allowed: false, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
  });

  it('refills at the limit per second, never above the burst', () => {
    const buckets = new TokenBuckets(10);
    const t0 = 5_000;
    for (let i = 0; i < 10; i++) buckets.take('k', t0);
    expect(buckets.take('k', t0 + 99).allowed).toBe(false); // 0.99 of a token
    expect(buckets.take('k', t0 + 100).allowed).toBe(true); // one token back after 1/10 s
    expect(buckets.take('k', t0 + 100).allowed).toBe(false);
    // A long pause refills to the burst, not beyond: 10 pass, the 11th does not.
    const later = t0 + 60_000;
    const results = Array.from({ length: 11 }, () => buckets.take('k', later).allowed);
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(results[10]).toBe(false);
    // Full again: nothing to wait for.
    expect(buckets.take('k', later + 1_000).resetSeconds).toBe(1);
    expect(buckets.take('fresh', later).resetSeconds).toBe(1);
  });

  it('keeps keys apart, and a clock going backwards refills nothing', () => {
    const buckets = new TokenBuckets(1);
    expect(buckets.take('a', 10_000).allowed).toBe(true);
    expect(buckets.take('b', 10_000).allowed).toBe(true);
    expect(buckets.take('a', 9_000).allowed).toBe(false);
    expect(buckets.take('a', 10_999).allowed).toBe(false);
    expect(buckets.take('a', 11_000).allowed).toBe(true);
  });

  it('forgets buckets that are full again once it holds too many keys', () => {
    const buckets = new TokenBuckets(1, 2);
    buckets.take('a', 0);
    buckets.take('b', 0);
    buckets.take('c', 2_000); // a and b are full again: forgotten, so c fits
    expect(buckets.take('a', 2_000).allowed).toBe(true); // a fresh bucket behaves as the refilled one would
  });

  it('peeks at what a request would get without taking a token', () => {
    const buckets = new TokenBuckets(2);
    expect(buckets.peek('a', 0)).toEqual(buckets.take('fresh', 0)); // an unknown key: a full bucket
    expect(buckets.take('a', 0).remaining).toBe(1);
    expect(buckets.peek('a', 0)).toMatchObject({ allowed: true, remaining: 0 });
    expect(buckets.peek('a', 0)).toMatchObject({ allowed: true, remaining: 0 }); // peeking twice takes nothing
    buckets.take('a', 0);
    expect(buckets.peek('a', 0)).toEqual({ allowed: false, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
    expect(buckets.peek('a', 500)).toMatchObject({ allowed: true, remaining: 0 }); // refilled by the clock
    expect(buckets.take('a', 500).allowed).toBe(true);
  });
});
