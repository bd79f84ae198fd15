import { describe, expect, it } from 'vitest';
import { ApiError, parseOrThrow } from './errors.js';
import { ClockAdvance, clockTarget } from './test-helpers.js';

describe('the test clock stays within the service\'s dates (1970-01-01 to 2100-12-31)', () => {
  const refusal = (input: unknown) => {
    try {
      parseOrThrow(ClockAdvance, input);
    } catch (error) {
      return error as ApiError;
    }
    throw new Error('accepted');
  };

  it('refuses a date or a date-time outside them, naming that rule rather than the format', () => {
    for (const to of ['2101-01-01', '2101-01-01T00:00:00Z', '2999-12-31T23:59:59.999Z', '1969-12-31T23:59:59Z']) {
      expect(refusal({ to }), to).toMatchObject({ code: 'parameter_invalid', param: 'to', message: 'Invalid to: must be a date or date-time from 1970-01-01 to 2100-12-31' });
    }
    for (const to of ['2030-02-30', 'next tuesday', '']) expect(refusal({ to }).message, to).toBe('Invalid to: must be a date (YYYY-MM-DD) or an ISO 8601 date-time');
    expect(clockTarget(parseOrThrow(ClockAdvance, { to: '2100-12-31T23:59:59Z' }), '2030-01-01T00:00:00Z')).toBe('2100-12-31T23:59:59Z');
  });

  it('refuses days that would carry the clock past them', () => {
    expect(() => clockTarget({ days: 36_600 }, '2030-01-01T00:00:00Z')).toThrow(ApiError);
    expect(() => clockTarget({ days: 36_600 }, '2030-01-01T00:00:00Z')).toThrow('Invalid days: the clock goes no later than 2100-12-31, and 36600 days from 2030-01-01T00:00:00Z is 2130-03-18T00:00:00Z.');
    expect(clockTarget({ days: 1 }, '2100-12-30T00:00:00Z')).toBe('2100-12-31T00:00:00Z');
  });
});
