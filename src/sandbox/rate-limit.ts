import { ApiError } from '../domain/errors.js';

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

/**
 * `pay sandbox start --rate-limit N/s`: a token bucket per account, N requests a second
 * with bursts of up to N, so users can test their back-off. Real time, not the test clock.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Spends one request of the account's allowance, or throws the 429 with Retry-After (whole seconds). */
  take(account: string): void {
    const now = this.now();
    const bucket = this.buckets.get(account) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(account, bucket);
    if (bucket.tokens < 1) {
      const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
      throw new ApiError(429, 'rate_limited', `Too many requests: this sandbox allows ${this.perSecond} a second per account. Retry after ${seconds} s.`, {
        headers: { 'Retry-After': String(seconds) },
      });
    }
    bucket.tokens -= 1;
  }
}
