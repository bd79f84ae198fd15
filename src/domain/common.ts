import { z } from 'zod';
import { idPattern } from './ids.js';
import { isCurrency } from './money.js';
import { httpUrlRule, isHttpUrlWithoutCredentials } from './urls.js';

/** The largest amount the service takes; what a card is charged (amount + tip) is bounded alike. */
export const MAX_AMOUNT = 99_999_999;

/**
 * Money is an integer in the currency's minor unit. The range comes first: the first
 * issue is the one reported, and zod's int() also fails a whole number beyond 2^53.
 */
export const Amount = z
  .number({ error: 'must be an integer amount in the currency\'s minor unit (e.g. 1099 for 10.99)' })
  .min(1, { error: 'must be at least 1' })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT}` })
  .int({ error: 'must be an integer amount in the currency\'s minor unit (e.g. 1099 for 10.99)' });

const CURRENCY_RULE = 'must be a lowercase ISO 4217 currency code, e.g. usd, eur or jpy';
export const Currency = z.string({ error: CURRENCY_RULE }).refine(isCurrency, { error: CURRENCY_RULE });

/**
 * A URL that is kept and shown (urls.ts), the message naming `example`. z.url parses it
 * as before (trimmed, `://` required); the rule then refuses a user or password.
 */
export const HttpUrlWithoutCredentials = (example: string) => {
  const error = httpUrlRule(example);
  return z.url({ protocol: /^https?$/, abort: true, error }).refine(isHttpUrlWithoutCredentials, { error });
};

export const Metadata = z
  .record(
    z.string().min(1, { error: 'metadata keys must not be empty' }).max(40, { error: 'metadata keys are at most 40 characters' }),
    z.string({ error: 'metadata values must be strings' }).max(500, { error: 'metadata values are at most 500 characters' }),
    { error: 'must be an object of string keys to string values' },
  )
  .refine((m) => Object.keys(m).length <= 50, { error: 'at most 50 metadata keys' });

/** An update's metadata merged into what is kept: its keys replace theirs, and an empty value removes its key. */
export function mergeMetadata(kept: Record<string, string>, changes: Record<string, string> | undefined): Record<string, string> {
  if (changes === undefined) return kept;
  const merged = { ...kept, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === '') delete merged[key];
  return merged;
}

/** The same keys with the same values: an update that leaves metadata so changes nothing. */
export function sameMetadata(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** The dates the service takes: a schedule reaching past this is a typo, not a plan. */
export const LAST_DATE = '2100-12-31';
export const FIRST_DATE = '1970-01-01';

const REAL_DATE_RULE = 'must be a real calendar date (YYYY-MM-DD)';
const isRealDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
};

/** A real calendar date, YYYY-MM-DD, whatever its year. */
export const CalendarDate = z
  .string({ error: 'must be a date in the form YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date in the form YYYY-MM-DD' })
  .refine(isRealDate, { error: REAL_DATE_RULE, abort: true });

/** What names one instant: a date (00:00:00Z of it), or a date-time with Z or an offset (a local time names none). */
export const INSTANT_RULE = 'must be a date (YYYY-MM-DD) or a date-time with Z or an offset (ISO 8601, e.g. 2030-01-31T09:00:00Z)';
/** A date, or a date-time's, that the calendar lacks (2030-02-30) is told so: its form was right. */
const instantError = (issue: { input?: unknown }) =>
  typeof issue.input === 'string' && /^\d{4}-\d{2}-\d{2}(?:T|$)/.test(issue.input) && !isRealDate(issue.input.slice(0, 10)) ? REAL_DATE_RULE : INSTANT_RULE;
// The date-time's own error too: zod reports the option that got furthest, not always the union's.
export const Instant = z.union([CalendarDate, z.iso.datetime({ offset: true, error: instantError })], { error: instantError });

// Same-length ISO dates compare as strings.
export const DateString = CalendarDate.refine((s) => s >= FIRST_DATE && s <= LAST_DATE, { error: `must be a date from ${FIRST_DATE} to ${LAST_DATE}` });

export const IdOf = (prefix: string) =>
  z
    .string({ error: `must be an id starting with ${prefix}_` })
    .regex(idPattern(prefix), { error: `must be an id starting with ${prefix}_` });

/** Text a person gives and others read (a name, what is paid for): one line, trimmed, not empty. */
export const LineText = (what: string, max: number) =>
  z
    .string({ error: `must be ${what}, as a string` })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .regex(/^[^\p{Cc}]*$/u, { error: 'must be one line without control characters' });

/**
 * An Idempotency-Key header's value. Printable ASCII: a header carries nothing else
 * intact (UTF-8 arrives as Latin-1; undici refuses to send it), and spaces at either end
 * are stripped on the way. Not empty: an empty header is a script's unset variable, and
 * taken as a key it made each such write a replay of the first. At most 255 characters
 * (Stripe's bound): a key is kept with every record it names.
 */
export const IDEMPOTENCY_KEY_RULE = 'must be 1 to 255 printable ASCII characters, with no space at either end';
export const IdempotencyKey = z.string().regex(/^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/, { error: IDEMPOTENCY_KEY_RULE });

/** A list's page size when none is asked for (DESIGN section 4). */
export const DEFAULT_LIST_LIMIT = 10;

const LIMIT_RULE = 'must be an integer from 1 to 100';
const CURSOR_RULE = 'must be the id of the last object of the page before';

/**
 * Query strings carry text: a limit is decimal digits (not whatever else Number() reads,
 * as 0x10 or 1e1), or a number (the CLI's flag).
 */
export const ListQuery = z.strictObject({
  limit: z
    .union([z.number(), z.string().regex(/^[0-9]+$/).transform(Number)], { error: LIMIT_RULE })
    .pipe(z.number().int({ error: LIMIT_RULE }).min(1, { error: LIMIT_RULE }).max(100, { error: LIMIT_RULE }))
    .default(DEFAULT_LIST_LIMIT),
  starting_after: z.string().min(1, { error: CURSOR_RULE }).optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

/**
 * The query of a list of one kind: its cursor is an id of that kind, so one of another
 * kind (`pm_…` paging customers) is refused by its form, before any lookup, and the CLI
 * names its flag.
 */
export const ListQueryOf = (prefix: string) =>
  ListQuery.extend({
    starting_after: z
      .string()
      .min(1, { error: CURSOR_RULE })
      .regex(idPattern(prefix), { error: `must be the id (${prefix}_…) of the last object of the page before` })
      .optional(),
  });

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/** Every object carries these (DESIGN.md section 4). */
export interface BaseObject {
  id: string;
  object: string;
  created: string;
  livemode: boolean;
}
