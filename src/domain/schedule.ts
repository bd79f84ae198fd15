import { Temporal } from 'temporal-polyfill';
import { toInstant } from '../infra/time.js';

// Billing schedule of a subscription (spec section 2, DESIGN section 5). Dates are
// YYYY-MM-DD calendar dates, all UTC.

export const INTERVAL_UNITS = ['week', 'month', 'year'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

const DURATION_FIELD = { week: 'weeks', month: 'months', year: 'years' } as const;

// Always from the anchor: stepping from the previous date would drift after a clamp
// (Jan 31 → Feb 28 → Mar 28 instead of Mar 31).
function nth(anchor: Temporal.PlainDate, unit: IntervalUnit, count: number, k: number): Temporal.PlainDate {
  return anchor.add({ [DURATION_FIELD[unit]]: k * count }, { overflow: 'constrain' });
}

/** n consecutive due dates, starting with payment fromIndex. */
export function dueDates(anchor: string, unit: IntervalUnit, count: number, n: number, fromIndex = 0): string[] {
  const start = Temporal.PlainDate.from(anchor);
  return Array.from({ length: n }, (_, i) => nth(start, unit, count, fromIndex + i).toString());
}

/** Smallest k whose due date is on or after date. */
export function firstIndexOnOrAfter(anchor: string, unit: IntervalUnit, count: number, date: string): number {
  return firstOnOrAfter(Temporal.PlainDate.from(anchor), unit, count, Temporal.PlainDate.from(date)).k;
}

/** The first due date strictly after date: the next payment once date's is made. */
export function firstDueAfter(anchor: string, unit: IntervalUnit, count: number, date: string): string {
  const target = Temporal.PlainDate.from(date).add({ days: 1 });
  return firstOnOrAfter(Temporal.PlainDate.from(anchor), unit, count, target).date.toString();
}

function firstOnOrAfter(start: Temporal.PlainDate, unit: IntervalUnit, count: number, target: Temporal.PlainDate): { k: number; date: Temporal.PlainDate } {
  // Exact for weeks. For months and years it never overshoots (date k-1 lies in an
  // earlier month) and is one short when date k is in target's month on an earlier day.
  const k = Math.max(0, Math.ceil(unitsBetween(start, target, unit) / count));
  const date = nth(start, unit, count, k);
  return Temporal.PlainDate.compare(date, target) < 0 ? { k: k + 1, date: nth(start, unit, count, k + 1) } : { k, date };
}

function unitsBetween(start: Temporal.PlainDate, end: Temporal.PlainDate, unit: IntervalUnit): number {
  if (unit === 'week') return start.until(end).days / 7;
  const months = (end.year - start.year) * 12 + (end.month - start.month);
  return unit === 'month' ? months : months / 12;
}

/** The instant a payment dated date is due: 00:00:00Z of that date. */
export function dueInstant(date: string): string {
  return `${date}T00:00:00Z`;
}

/** Strict YYYY-MM-DD naming a real calendar date. */
export function isValidDate(s: string): boolean {
  // Temporal alone also accepts 20270101, +002027-01-01 and date-times.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  try {
    Temporal.PlainDate.from(s);
    return true;
  } catch {
    return false;
  }
}

export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** Negative, zero or positive as a is before, on or after b. */
export function compareDates(a: string, b: string): number {
  return Temporal.PlainDate.compare(a, b);
}

/** UTC calendar date of an ISO 8601 date-time with an offset or Z. */
export function dateOf(instant: string): string {
  // The time module's normalisation: a billing engine asks this once a payment, and a Temporal.Instant costs ten times more.
  return toInstant(instant).slice(0, 10);
}
