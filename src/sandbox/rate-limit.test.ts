import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.js';

describe('RateLimiter (a token bucket per account)', () => {
  it('allows N a second with bursts of N, then 429 with Retry-After in whole seconds', () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now);
    limiter.take('acct_a');
    limiter.take('acct_a');
    expect(() => limiter.take('acct_a')).toThrow(expect.objectContaining({ status: 429, code: 'rate_limited', type: 'rate_limit_error', headers: { 'Retry-After': '1' } }));
    // Another account has its own bucket.
    limiter.take('acct_b');
    now = 500; // half a second refills one request
    limiter.take('acct_a');
    expect(() => limiter.take('acct_a')).toThrow(expect.objectContaining({ status: 429 }));
    now = 10_000; // a long pause refills only up to the burst
    limiter.take('acct_a');
    limiter.take('acct_a');
    expect(() => limiter.take('acct_a')).toThrow(expect.objectContaining({ status: 429 }));
  });

  it('a slow rate asks for a longer wait', () => {
    const limiter = new RateLimiter(0.2, () => 0);
    expect(() => limiter.take('acct_a')).toThrow(expect.objectContaining({ headers: { 'Retry-After': '4' } }));
  });
});
