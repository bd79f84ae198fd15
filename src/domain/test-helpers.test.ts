import { describe, expect, it } from 'vitest';
import { ApiError, parseOrThrow } from './errors.js';
import { AccountCreate, ClockAdvance, clockTarget } from './test-helpers.js';

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
    // A date-time without Z or an offset is ISO 8601 too, but names no instant: the rule says what is missing.
    for (const to of ['next tuesday', '', '2030-01-20T10:00:00', '2030-1-20']) {
      expect(refusal({ to }).message, to).toBe('Invalid to: must be a date (YYYY-MM-DD) or a date-time with Z or an offset (ISO 8601, e.g. 2030-01-31T09:00:00Z)');
    }
    // Well formed, but a day the calendar lacks: said so, not that the form is wrong.
    for (const to of ['2030-02-30', '2030-02-30T09:00:00Z', '2030-13-01', '2031-02-29']) {
      expect(refusal({ to }).message, to).toBe('Invalid to: must be a real calendar date (YYYY-MM-DD)');
    }
    expect(clockTarget(parseOrThrow(ClockAdvance, { to: '2100-12-31T23:59:59Z' }), '2030-01-01T00:00:00Z')).toBe('2100-12-31T23:59:59Z');
  });

  it('refuses days that would carry the clock past them', () => {
    expect(() => clockTarget({ days: 36_600 }, '2030-01-01T00:00:00Z')).toThrow(ApiError);
    expect(() => clockTarget({ days: 36_600 }, '2030-01-01T00:00:00Z')).toThrow('Invalid days: the clock goes no later than 2100-12-31, and 36600 days from 2030-01-01T00:00:00Z is 2130-03-18T00:00:00Z.');
    expect(clockTarget({ days: 1 }, '2100-12-30T00:00:00Z')).toBe('2100-12-31T00:00:00Z');
  });
});

describe('a new sandbox account\'s key', () => {
  it('follows the rule every profile\'s key does: printable characters, no spaces or line breaks', () => {
    for (const api_key of ['sk_test_with a space_0123', 'sk_test_line_break_0123\n']) {
      expect(AccountCreate.safeParse({ api_key }).error?.issues[0]?.message, JSON.stringify(api_key)).toBe('must be printable characters, without spaces or line breaks');
    }
    expect(AccountCreate.safeParse({ api_key: 'sk_test_fine_0123456789' }).success).toBe(true);
  });
});
