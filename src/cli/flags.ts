import { InvalidArgumentError, type Command } from 'commander';
import type { z } from 'zod';
import { isMissingIssue } from '../domain/errors.js';
import { UsageError } from './errors.js';

/**
 * The flag of a request field (DESIGN section 8): kebab case, `_id` dropped from
 * references. `first_name` → `--first-name`; `payment_method_id` → `--payment-method`.
 */
export const flagOf = (param: string) => `--${param.replace(/_id$/, '').replace(/[._]/g, '-')}`;

/** A whole number flag; commander reports a bad one as a usage error naming the flag. */
export function intArg(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('must be a whole number.');
  return Number(value);
}

/** Repeatable `--metadata key=value`. */
export function keyValueArg(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected key=value, got '${value}'.`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

/** Repeatable or comma-separated list. */
export function listArg(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

/**
 * The request body a command sends, checked with the same domain schema the service
 * uses: a bad value is a usage error naming the flag, before any request is made.
 */
export function checkedBody<S extends z.ZodType>(schema: S, fields: Record<string, unknown>, flag: (param: string) => string = flagOf): z.output<S> {
  const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String);
  const param = issue.code === 'unrecognized_keys' ? [...path, issue.keys[0]].join('.') : path.join('.');
  if (isMissingIssue(issue)) throw new UsageError(`Missing ${flag(param)}: it is required.`);
  throw new UsageError(`Invalid ${flag(param)}: ${issue.message}.`.replace(/\.\.$/, '.'));
}

/** Help text with examples, shown after the options. */
export function withExamples(command: Command, ...examples: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

/** Standard list flags. */
export function listOptions(command: Command): Command {
  return command
    .option('--limit <n>', 'How many to show, 1 to 100', intArg, 10)
    .option('--starting-after <id>', 'Show the page after this id (cursor from a previous page)');
}

/** `--amount` and `--currency`, for commands that ask for money. */
export function moneyOptions(command: Command): Command {
  return command
    .option('--amount <n>', 'Amount in the currency\'s minor unit, e.g. 1099 for 10.99', intArg)
    .option('--currency <code>', 'Three-letter lowercase currency code, e.g. usd');
}
