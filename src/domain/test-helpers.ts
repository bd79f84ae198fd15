import { z } from 'zod';
import { addMs, DAY_MS, toInstant } from '../infra/time.js';
import { DateString } from './common.js';

const DateTime = z.iso.datetime({ offset: true, error: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' });

/** `{to}` (a date means 00:00:00Z of it) or `{days}`, exactly one. */
export const ClockAdvance = z
  .strictObject({
    to: z.union([DateString, DateTime], { error: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' }).optional(),
    days: z
      .number({ error: 'must be a whole number of days from 1 to 36600' })
      .int({ error: 'must be a whole number of days from 1 to 36600' })
      .min(1, { error: 'must be a whole number of days from 1 to 36600' })
      .max(36_600, { error: 'must be a whole number of days from 1 to 36600' })
      .optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.to === undefined) === (value.days === undefined)) {
      ctx.addIssue({ code: 'custom', path: value.to === undefined ? ['to'] : ['days'], message: 'give exactly one of to or days' });
    }
  });
export type ClockAdvance = z.infer<typeof ClockAdvance>;

/** An ISO instant for a clock target: a bare date is 00:00:00Z of that date. */
export function clockTarget(advance: ClockAdvance, now: string): string {
  if (advance.days !== undefined) return addMs(now, advance.days * DAY_MS);
  const to = advance.to!;
  if (/^\d{4}-\d{2}-\d{2}$/.test(to)) return `${to}T00:00:00Z`;
  return toInstant(to);
}

export interface TestClockObject {
  object: 'test_clock';
  now: string;
}

export const AccountCreate = z.strictObject({
  account: z.string().regex(/^acct_[A-Za-z0-9_]+$/, { error: 'must start with acct_ and use letters, digits and _' }).optional(),
  api_key: z.string().min(16, { error: 'must be at least 16 characters' }).max(200).optional(),
});
export type AccountCreate = z.infer<typeof AccountCreate>;
