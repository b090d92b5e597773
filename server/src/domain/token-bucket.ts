/** What one request learns from its bucket: the draft-9 RateLimit fields, and whether it may go on. */
export interface RateDecision {
  allowed: boolean;
  /** Whole requests left right now (`r`). */
  remaining: number;
  /** Seconds until the bucket is full again (`t`). */
  resetSeconds: number;
  /** When refused: seconds until one request fits again, at least 1 (`Retry-After`). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/**
 * Token buckets by key: each refills at `perSecond` tokens a second and holds at most `perSecond`, so a quiet client
 * may burst that many requests at once; every request takes one token. Time is passed in, so tests set it.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly perSecond: number,
    /** Past this many keys, buckets full again (untouched for a second) are forgotten: they equal a new one. */
    private readonly maxKeys = 100_000,
  ) {
    if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError('perSecond must be a positive integer');
  }

  take(key: string, nowMs: number): RateDecision {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.forgetFull(nowMs);
      bucket = { tokens: this.perSecond, atMs: nowMs };
      this.buckets.set(key, bucket);
    } else {
      this.refill(bucket, nowMs);
    }
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return this.decision(allowed, bucket.tokens);
  }

  /** What `take` would decide now, without taking a token. */
  peek(key: string, nowMs: number): RateDecision {
    const bucket = this.buckets.get(key);
    if (bucket) this.refill(bucket, nowMs);
    const tokens = bucket?.tokens ?? this.perSecond;
    return this.decision(tokens >= 1, tokens >= 1 ? tokens - 1 : tokens);
  }

  private refill(bucket: Bucket, nowMs: number): void {
    if (nowMs <= bucket.atMs) return;
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((nowMs - bucket.atMs) * this.perSecond) / 1000);
    bucket.atMs = nowMs;
  }

  /** `tokens`: what the bucket holds after the request (a token already taken when allowed). */
  private decision(allowed: boolean, tokens: number): RateDecision {
    const rate = this.perSecond;
    return {
      allowed,
      remaining: Math.floor(tokens),
      resetSeconds: Math.ceil((rate - tokens) / rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rate)),
    };
  }

  private forgetFull(nowMs: number): void {
    for (const [key, bucket] of this.buckets) if (nowMs - bucket.atMs >= 1000) this.buckets.delete(key);
  }
}
