import { describe, expect, it } from 'vitest';
import { durationArg, flagOf } from './flags.js';

describe('durationArg', () => {
  it('reads ms, s, m, h and bare seconds', () => {
    expect(durationArg('500ms')).toBe(500);
    expect(durationArg('30s')).toBe(30_000);
    expect(durationArg('1.5s')).toBe(1_500);
    expect(durationArg('2m')).toBe(120_000);
    expect(durationArg('1h')).toBe(3_600_000);
    expect(durationArg('10')).toBe(10_000);
  });

  it('refuses anything else, and zero', () => {
    for (const bad of ['', 'soon', '5 minutes', '-1s', '1d', '0s']) expect(() => durationArg(bad), bad).toThrow();
  });

  it('refuses what a timer cannot wait (Node fires a longer one at once), naming the longest', () => {
    expect(durationArg('596h')).toBe(596 * 3_600_000);
    for (const long of ['600h', '2147483648ms', '99999999m']) expect(() => durationArg(long), long).toThrow('must be at most 596h.');
  });
});

describe('flagOf', () => {
  it('names the flag of a field, without list positions', () => {
    expect(flagOf('first_name')).toBe('--first-name');
    expect(flagOf('card.number')).toBe('--card-number');
    expect(flagOf('enabled_events.1')).toBe('--enabled-events');
    expect(flagOf('items.0.amount')).toBe('--items-amount');
    expect(flagOf('payment_method_id')).toBe('--payment-method');
  });
});
