import { InvalidArgumentError, type Command } from 'commander';
import type { z } from 'zod';
import { isMissingIssue, keyIssueOf, pairOf } from '../domain/errors.js';
import { UsageError } from './errors.js';

/**
 * The flag of a request field (DESIGN section 8): kebab case, `_id` dropped from
 * references, list positions dropped. `first_name` → `--first-name`;
 * `payment_method_id` → `--payment-method`; `enabled_events.0` → `--enabled-events`.
 */
export const flagOf = (param: string) => `--${param.replace(/\.\d+(?=\.|$)/g, '').replace(/_id$/, '').replace(/[._]/g, '-')}`;

/** A whole number flag; commander reports a bad one as a usage error naming the flag. */
export function intArg(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('must be a whole number.');
  return Number(value);
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** The longest wait a timer holds (2^31 - 1 ms, about 24.8 days): Node fires a longer one at once. */
const LONGEST_DURATION = 2 ** 31 - 1;

/** `500ms`, `30s`, `2m`, `1h` (a bare number is seconds), as milliseconds. */
export function durationArg(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError(`expected a duration such as 500ms, 30s, 2m or 1h, got '${value}'.`);
  const ms = Number(match[1]) * DURATION_UNITS[match[2] ?? 's']!;
  if (ms <= 0) throw new InvalidArgumentError('must be longer than 0.');
  if (ms > LONGEST_DURATION) throw new InvalidArgumentError(`must be at most ${Math.floor(LONGEST_DURATION / DURATION_UNITS.h!)}h.`);
  return ms;
}

/** `--json id,status`: field names; empty for every field. */
export function fieldsArg(value: string): string[] {
  const fields = value.split(',').map((v) => v.trim()).filter(Boolean);
  if (fields.some((field) => !/^[a-z_][a-z0-9_]*$/.test(field))) throw new InvalidArgumentError('expected top-level field names separated by commas, e.g. id,status.');
  return fields;
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
  const pair = pairOf(issue);
  if (pair) throw new UsageError(pairMessage([flag(pair[0]), flag(pair[1])], isMissingIssue(issue)));
  if (isMissingIssue(issue)) throw new UsageError(`Missing ${flag(param)}: ${issue.code === 'custom' ? issue.message : 'it is required'}.`);
  throw new UsageError(`Invalid ${flag(param)}: ${(keyIssueOf(issue) ?? issue).message}.`.replace(/\.\.$/, '.'));
}

/** Two flags of which one is needed, given neither (`missing`) or both. */
export const pairMessage = ([a, b]: readonly [string, string], missing: boolean) =>
  missing ? `Missing ${a} or ${b}: give one of them.` : `${a} and ${b} cannot be used together: choose one.`;

/** Help text with examples, shown after the options. */
export function withExamples(command: Command, ...examples: string[]): Command {
  EXAMPLES.set(command, examples);
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

const EXAMPLES = new WeakMap<Command, string[]>();

/** A group without examples of its own shows the first example of each of its commands. */
export function groupExamples(command: Command): void {
  for (const sub of command.commands) groupExamples(sub);
  if (command.commands.length === 0 || EXAMPLES.has(command)) return;
  const examples = command.commands.flatMap((sub) => EXAMPLES.get(sub)?.slice(0, 1) ?? []);
  if (examples.length > 0) withExamples(command, ...examples);
}

/** `--override` values: numbers and booleans as JSON would have them, the rest as strings. */
function scalar(value: string): unknown {
  if (/^-?\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

/** A `key=value` flag split at its first `=`; `flag` names it in errors. */
export function splitPair(pair: string, flag: string): [string, string] {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`Invalid ${flag} '${pair}': expected key=value.`);
  return [pair.slice(0, eq), pair.slice(eq + 1)];
}

/** Fields as a body: dotted keys nest, and `key[subkey]` as gh api spells it; `key[]` appends. */
export function bodyFromFields(fields: Array<[string, unknown]>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [rawKey, value] of fields) {
    const append = rawKey.endsWith('[]');
    const keys = (append ? rawKey.slice(0, -2) : rawKey).replace(/\[([^[\]]+)\]/g, '.$1').split('.');
    let target = body;
    for (const key of keys.slice(0, -1)) {
      const next = target[key];
      target = (next && typeof next === 'object' ? next : (target[key] = {})) as Record<string, unknown>;
    }
    const last = keys.at(-1)!;
    if (append) target[last] = [...((target[last] as unknown[] | undefined) ?? []), value];
    else target[last] = value;
  }
  return body;
}

/** `key=value` pairs as a body, numbers and booleans typed; `flag` names them in errors. */
export function bodyFromPairs(pairs: string[], flag: string): Record<string, unknown> {
  return bodyFromFields(pairs.map((pair) => {
    const [key, value] = splitPair(pair, flag);
    return [key, scalar(value)];
  }));
}
