import { z } from 'zod';
import { addMs, compareInstants, DAY_MS, msOf, toInstant } from '../infra/time.js';
import { FIRST_DATE, Instant, LAST_DATE } from './common.js';
import { bothIssue, invalid, neitherIssue } from './errors.js';
import { API_KEY_CHARACTERS, API_KEY_CHARACTERS_RULE } from './secrets.js';

/** The clock stays within the dates the service takes: outside them no subscription could start. */
const CLOCK_START = `${FIRST_DATE}T00:00:00Z`;
const CLOCK_END = `${LAST_DATE}T23:59:59.999Z`;
const CLOCK_RULE = `the clock goes no later than ${LAST_DATE}`;

/** Where a clock is set: a date (00:00:00Z of it) or a date-time, within the service's dates. */
export const ClockTo = Instant
  // zod runs this after a failed union too: what is no date at all (NaN) is outside, its format already said.
  .refine((to) => msOf(dateTimeOf(to)) >= msOf(CLOCK_START) && msOf(dateTimeOf(to)) <= msOf(CLOCK_END), {
    error: `must be a date or date-time from ${FIRST_DATE} to ${LAST_DATE}`,
  });

/** `{to}` (a date means 00:00:00Z of it) or `{days}`, exactly one. */
export const ClockAdvance = z
  .strictObject({
    to: ClockTo.optional(),
    days: z
      .number({ error: 'must be a whole number of days from 1 to 36600' })
      .int({ error: 'must be a whole number of days from 1 to 36600' })
      .min(1, { error: 'must be a whole number of days from 1 to 36600' })
      .max(36_600, { error: 'must be a whole number of days from 1 to 36600' })
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.to === undefined && value.days === undefined) ctx.addIssue(neitherIssue(['to', 'days']));
    else if (value.to !== undefined && value.days !== undefined) ctx.addIssue(bothIssue(['to', 'days'], 'give exactly one of to or days'));
  });
export type ClockAdvance = z.infer<typeof ClockAdvance>;

/** An ISO instant for a clock target: a bare date is 00:00:00Z of that date. */
export function clockTarget(advance: ClockAdvance, now: string): string {
  if (advance.to !== undefined) return instantOf(advance.to);
  const to = addMs(now, advance.days! * DAY_MS);
  if (compareInstants(to, CLOCK_END) > 0) throw invalid('days', `Invalid days: ${CLOCK_RULE}, and ${advance.days} days from ${now} is ${to}.`);
  return to;
}

/** A bare date is 00:00:00Z of it. */
const dateTimeOf = (to: string) => (/^\d{4}-\d{2}-\d{2}$/.test(to) ? `${to}T00:00:00Z` : to);
const instantOf = (to: string) => toInstant(dateTimeOf(to));

export interface TestClockObject {
  object: 'test_clock';
  now: string;
}

/** A sandbox account id: what no API key is, so a value that breaks it is never echoed as an account. */
export const SANDBOX_ACCOUNT_ID = /^acct_[A-Za-z0-9_]+$/;

export const AccountCreate = z.strictObject({
  account: z.string().regex(SANDBOX_ACCOUNT_ID, { error: 'must start with acct_ and use letters, digits and _' }).optional(),
  api_key: z
    .string()
    .min(16, { error: 'must be at least 16 characters' })
    .max(200)
    .regex(API_KEY_CHARACTERS, { error: API_KEY_CHARACTERS_RULE })
    .optional(),
});
export type AccountCreate = z.infer<typeof AccountCreate>;
