import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  compareDates,
  dateOf,
  dueDates,
  dueInstant,
  firstDueAfter,
  firstIndexOnOrAfter,
  INTERVAL_UNITS,
  isValidDate,
} from './schedule.js';

// Reference arithmetic kept independent of Temporal, so the property checks the rule
// itself rather than the library.
const DAY_MS = 86_400_000;
const parts = (d: string) => d.split('-').map(Number) as [number, number, number];
const epochDay = (d: string) => {
  const [y, m, day] = parts(d);
  return Date.UTC(y, m - 1, day) / DAY_MS;
};
const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const fromEpochDay = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

describe('dueDate', () => {
  it('clamps Jan 31 monthly to each month end without drifting', () => {
    expect(dueDates('2027-01-31', 'month', 1, 5)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
    expect(dueDates('2028-01-31', 'month', 1, 3)).toEqual(['2028-01-31', '2028-02-29', '2028-03-31']);
  });

  it('monthly count 3 is every third month', () => {
    expect(dueDates('2027-01-15', 'month', 3, 5)).toEqual([
      '2027-01-15',
      '2027-04-15',
      '2027-07-15',
      '2027-10-15',
      '2028-01-15',
    ]);
  });

  it('weekly count 2 is the same weekday every other week', () => {
    // 2027-03-03 is a Wednesday.
    expect(dueDates('2027-03-03', 'week', 2, 4)).toEqual(['2027-03-03', '2027-03-17', '2027-03-31', '2027-04-14']);
  });

  it('yearly from Feb 29 is Feb 28 in common years and Feb 29 in leap years', () => {
    expect(dueDates('2028-02-29', 'year', 1, 5)).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
  });

  it('dueDates starts at fromIndex', () => {
    expect(dueDates('2027-01-31', 'month', 1, 2, 3)).toEqual(['2027-04-30', '2027-05-31']);
    expect(dueDates('2027-01-31', 'month', 1, 1, 13)).toEqual(['2028-02-29']);
  });
});

describe('firstIndexOnOrAfter', () => {
  it('finds the next due date, including clamped ones', () => {
    expect(firstIndexOnOrAfter('2027-01-31', 'month', 1, '2026-12-01')).toBe(0);
    expect(firstIndexOnOrAfter('2027-01-31', 'month', 1, '2027-01-31')).toBe(0);
    expect(firstIndexOnOrAfter('2027-01-31', 'month', 1, '2027-02-01')).toBe(1);
    expect(firstIndexOnOrAfter('2027-01-31', 'month', 1, '2027-02-28')).toBe(1);
    expect(firstIndexOnOrAfter('2027-01-31', 'month', 1, '2027-03-01')).toBe(2);
    expect(firstIndexOnOrAfter('2027-01-15', 'month', 1, '2027-03-20')).toBe(3);
    expect(firstIndexOnOrAfter('2027-03-03', 'week', 2, '2027-03-18')).toBe(2);
  });
});

describe('schedule properties', () => {
  const anchorArb = fc
    .integer({ min: epochDay('1990-01-01'), max: epochDay('2060-12-31') })
    .map(fromEpochDay);
  const unitArb = fc.constantFrom(...INTERVAL_UNITS);
  const countArb = fc.integer({ min: 1, max: 12 });

  it('every date is anchor + k × count units, strictly increasing, over 30 years', () => {
    fc.assert(
      fc.property(anchorArb, unitArb, countArb, (anchor, unit, count) => {
        const spanDays = 30 * 365;
        const stepDays = unit === 'week' ? 7 * count : unit === 'month' ? 28 * count : 365 * count;
        const dates = dueDates(anchor, unit, count, Math.floor(spanDays / stepDays) + 1);
        const [ay, am, ad] = parts(anchor);

        dates.forEach((date, k) => {
          expect(isValidDate(date)).toBe(true);
          if (unit === 'week') {
            expect(epochDay(date) - epochDay(anchor)).toBe(7 * count * k);
          } else {
            const monthIndex = ay * 12 + (am - 1) + k * count * (unit === 'year' ? 12 : 1);
            const y = Math.floor(monthIndex / 12);
            const m = (monthIndex % 12) + 1;
            expect(parts(date)).toEqual([y, m, Math.min(ad, daysInMonth(y, m))]);
          }
        });
        for (let k = 1; k < dates.length; k++) {
          expect(compareDates(dates[k - 1]!, dates[k]!)).toBeLessThan(0);
          if (unit === 'week') expect(epochDay(dates[k]!) - epochDay(dates[k - 1]!)).toBe(7 * count);
        }
      }),
    );
  });

  it('firstIndexOnOrAfter and firstDueAfter agree with a linear scan', () => {
    const nthDate = (anchor: string, unit: (typeof INTERVAL_UNITS)[number], count: number, k: number) => dueDates(anchor, unit, count, 1, k)[0]!;
    fc.assert(
      fc.property(anchorArb, unitArb, countArb, fc.integer({ min: -400, max: 30 * 365 }), (anchor, unit, count, offset) => {
        const date = addDays(anchor, offset);
        let k = 0;
        while (compareDates(nthDate(anchor, unit, count, k), date) < 0) k++;
        expect(firstIndexOnOrAfter(anchor, unit, count, date)).toBe(k);
        const after = compareDates(nthDate(anchor, unit, count, k), date) === 0 ? k + 1 : k;
        expect(firstDueAfter(anchor, unit, count, date)).toBe(nthDate(anchor, unit, count, after));
      }),
    );
  });
});

describe('date helpers', () => {
  it('isValidDate accepts only strict YYYY-MM-DD calendar dates', () => {
    expect(isValidDate('2028-02-29')).toBe(true);
    for (const s of ['2027-02-29', '2027-13-01', '2027-00-10', '2027-1-01', '20270101', '+002027-01-01', '2027-01-01T00:00:00Z', ''])
      expect(isValidDate(s), s).toBe(false);
  });

  it('addDays crosses months and years', () => {
    expect(addDays('2027-12-31', 1)).toBe('2028-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });

  it('compareDates orders dates', () => {
    expect(compareDates('2027-01-01', '2027-01-02')).toBeLessThan(0);
    expect(compareDates('2027-01-02', '2027-01-02')).toBe(0);
    expect(compareDates('2028-01-01', '2027-12-31')).toBeGreaterThan(0);
  });

  it('dueInstant and dateOf work in UTC', () => {
    expect(dueInstant('2027-02-28')).toBe('2027-02-28T00:00:00Z');
    expect(dateOf('2027-02-28T00:00:00Z')).toBe('2027-02-28');
    expect(dateOf('2027-02-28T23:30:00-05:00')).toBe('2027-03-01');
    expect(dateOf('2027-03-01T01:00:00.123+02:00')).toBe('2027-02-28');
  });
});
