import { type Command, Option } from 'commander';
import type { z } from 'zod';
import { clip } from '../domain/errors.js';
import { ID_PREFIX, idPattern, type ObjectKind } from '../domain/ids.js';
import { UsageError } from './errors.js';
import type { Factory } from './factory.js';
import { checkedBody, flagOf, intArg, keyValueArg, listArg, withExamples } from './flags.js';

/*
 * Commands as data (wrangler's createCommand, on commander): a definition lists its
 * arguments and flags once, and `run` receives them as one typed options object. The
 * same definition registers the command, names a request field's flag in errors and
 * checks `--json` fields before anything runs.
 */

/** A flag: its commander spelling, help, how its value is read, and the request field it carries. */
export interface Flag<T> {
  readonly flags: string;
  readonly description: string;
  /** The request field it carries (dotted for nested ones): errors about that field name this flag. */
  readonly field?: string | undefined;
  /** A method, so a flag of any value type is a Flag<unknown>. */
  parse?(value: string, previous: T): T;
  readonly defaultValue?: T | undefined;
  /** The default as help shows it, when not the value itself (`30s`, not 30000). */
  readonly defaultText?: string | undefined;
  readonly choices?: readonly string[] | undefined;
  readonly hidden?: boolean | undefined;
  /** Required, but asked for at a TTY when missing (an error in scripts): help marks it required. */
  readonly prompted?: boolean | undefined;
  /** Flags it cannot be given with (a default value does not count). */
  readonly conflicts?: readonly string[] | undefined;
  /** `--no-<flag>`: clears the field (the value is then null). */
  readonly clear?: { flags: string; description: string } | undefined;
}

/** A positional argument: `<id>` required, `[name]` optional. */
export interface Arg<T> {
  readonly name: string;
  readonly description: string;
  readonly choices?: readonly string[] | undefined;
  /** The prefix an id argument starts with: an id of another kind (`customers get pi_…`) is a usage error, before any request. */
  readonly prefix?: string | undefined;
  /** Carries the value's type only. */
  readonly type?: T;
}

type Flags = Record<string, Flag<unknown>>;
type Args = Record<string, Arg<unknown>>;
type ValueOf<S> = S extends Flag<infer T> ? T : S extends Arg<infer T> ? T : never;

/** What `run` receives: each argument and flag under its key, typed by its definition. */
export type OptionsOf<A extends Args, F extends Flags> = { -readonly [K in keyof A]: ValueOf<A[K]> } & { -readonly [K in keyof F]: ValueOf<F[K]> };

interface FlagOptions {
  field?: string;
  hidden?: boolean;
  /** Required, asked for at a TTY when missing. */
  prompted?: boolean;
  /** Flags it cannot be given with. */
  conflicts?: readonly string[];
}

const make = <T>(flags: string, description: string, rest: Partial<Flag<T>> = {}): Flag<T> => ({ flags, description, ...rest });

/** The flag builders: each types the value `run` gets. */
export const flag = {
  string: ((flags: string, description: string, options: FlagOptions & { default?: string } = {}) =>
    make(flags, description, { field: options.field, hidden: options.hidden, conflicts: options.conflicts, prompted: options.prompted, defaultValue: options.default })) as {
    (flags: string, description: string, options: FlagOptions & { default: string }): Flag<string>;
    (flags: string, description: string, options?: FlagOptions): Flag<string | undefined>;
  },
  int: ((flags: string, description: string, options: FlagOptions & { default?: number } = {}) =>
    make(flags, description, { field: options.field, hidden: options.hidden, conflicts: options.conflicts, prompted: options.prompted, parse: intArg, defaultValue: options.default })) as {
    (flags: string, description: string, options: FlagOptions & { default: number }): Flag<number>;
    (flags: string, description: string, options?: FlagOptions): Flag<number | undefined>;
  },
  /** On or off; `optional` leaves it undefined rather than false when not given. */
  bool: ((flags: string, description: string, options: FlagOptions & { optional?: boolean } = {}) =>
    make(flags, description, { field: options.field, defaultValue: options.optional ? undefined : false, conflicts: options.conflicts })) as {
    (flags: string, description: string, options: FlagOptions & { optional: true }): Flag<boolean | undefined>;
    (flags: string, description: string, options?: FlagOptions): Flag<boolean>;
  },
  choice: (<const V extends string>(flags: string, description: string, values: readonly V[], options: FlagOptions & { default?: V } = {}) =>
    make(flags, description, { field: options.field, conflicts: options.conflicts, prompted: options.prompted, choices: values, defaultValue: options.default })) as {
    <const V extends string>(flags: string, description: string, values: readonly V[], options: FlagOptions & { default: V }): Flag<V>;
    <const V extends string>(flags: string, description: string, values: readonly V[], options?: FlagOptions): Flag<V | undefined>;
  },
  /** Repeatable `key=value`. */
  keyValue: (flags: string, description: string, options: FlagOptions = {}) =>
    make<Record<string, string> | undefined>(flags, description, { ...options, parse: keyValueArg }),
  /** Comma-separated or repeated values. */
  list: (flags: string, description: string, options: FlagOptions = {}) => make<string[] | undefined>(flags, description, { ...options, parse: listArg }),
  /**
   * A value read by `parse` (which throws commander's InvalidArgumentError on a bad one);
   * its default is given as a person would type it (`30s`) and shown so in help.
   */
  parsed: (<T>(flags: string, description: string, parse: (value: string) => T, options: FlagOptions & { default?: string } = {}) =>
    make<T | undefined>(flags, description, {
      field: options.field,
      hidden: options.hidden,
      conflicts: options.conflicts,
      parse: (value) => parse(value),
      defaultValue: options.default === undefined ? undefined : parse(options.default),
      defaultText: options.default,
    })) as {
    <T>(flags: string, description: string, parse: (value: string) => T, options: FlagOptions & { default: string }): Flag<T>;
    <T>(flags: string, description: string, parse: (value: string) => T, options?: FlagOptions): Flag<T | undefined>;
  },
  /** Repeatable, each value kept as given (or as `parse` reads it), in order. */
  repeated: <T = string>(flags: string, description: string, parse: (value: string) => T = (value) => value as T, options: FlagOptions = {}): Flag<T[] | undefined> =>
    make<T[] | undefined>(flags, description, { ...options, parse: (value, previous) => [...(previous ?? []), parse(value)] }),
  /** A value flag with a `--no-…` partner that clears the field: the value is then null. */
  clearable: <T>(inner: Flag<T | undefined>, flags: string, description: string): Flag<T | null | undefined> =>
    ({ ...inner, clear: { flags, description } }) as Flag<T | null | undefined>,
};

export const arg = {
  required: (name: `<${string}>`, description: string): Arg<string> => ({ name, description }),
  /** `<id>` of an object of this kind, e.g. `arg.id('customer', 'Customer id (cus_…)')`. */
  id: (kind: ObjectKind, description: string): Arg<string> => ({ name: '<id>', description, prefix: ID_PREFIX[kind] }),
  optional: (name: `[${string}]`, description: string): Arg<string | undefined> => ({ name, description }),
  /** One of `values` (checked by commander, offered by completion). */
  choice: <const V extends string>(name: `[${string}]`, description: string, values: readonly V[]): Arg<V | undefined> => ({ name, description, choices: values }),
};

/** The long name of a flag, as errors name it: `-y, --yes <x>` → `--yes`. */
export const longName = (spec: Flag<unknown>) => /--[\w-]+/.exec(spec.flags)![0];

/**
 * The long name of each flag that carries a request field, by that field. A field with
 * two spellings (`--card`, `--card-number`) is named as it was given, else by the first.
 */
function flagByField(flags: Flags, given: Record<string, unknown> = {}): ReadonlyMap<string, string> {
  const byField = new Map<string, string>();
  for (const [key, spec] of Object.entries(flags)) {
    if (spec.field !== undefined && (!byField.has(spec.field) || given[key] !== undefined)) byField.set(spec.field, longName(spec));
  }
  return byField;
}

/** Each command's flags by the request field they carry: a usage error can point `--terminal-reader-id` at `--reader`. */
export const flagsByField = new WeakMap<Command, ReadonlyMap<string, string>>();

/** Names a request field by the flag that carries it (a nested field by its own flag or its parent's), as `given` spelled it. */
export function flagNamer(flags: Flags, names: Record<string, string> = {}, given: Record<string, unknown> = {}): (param: string) => string {
  const byField = flagByField(flags, given);
  return (param) => {
    if (names[param]) return names[param];
    const path = param.replace(/\.\d+(?=\.|$)/g, '');
    for (let at = path; at; at = at.includes('.') ? at.slice(0, at.lastIndexOf('.')) : '') {
      const named = byField.get(at);
      if (named) return named;
    }
    return flagOf(param);
  };
}

/** The request fields a command's flags carry: each flag with a `field` puts its value there (dotted fields nest; of two spellings, the one given). */
export function fieldsFrom<F extends Flags>(flags: F, options: { [K in keyof F]?: unknown }): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(flags)) {
    const value = options[key as keyof F];
    if (spec.field === undefined || value === undefined) continue;
    const path = spec.field.split('.');
    let target = fields;
    for (const part of path.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
    target[path.at(-1)!] = value;
  }
  return fields;
}

/**
 * The request body a command's flags make (and `extra` values from elsewhere), checked
 * with the domain schema the service uses: a bad value is a usage error naming its flag.
 */
export function bodyFrom<S extends z.ZodType, F extends Flags>(
  schema: S,
  flags: F,
  options: { [K in keyof F]?: unknown },
  extra: Record<string, unknown> = {},
  names: Record<string, string> = {},
): z.output<S> {
  return checkedBody(schema, { ...fieldsFrom(flags, options), ...extra }, flagNamer(flags, names, options));
}

export interface CommandSpec<A extends Args, F extends Flags> {
  name: string;
  description: string;
  args?: A;
  flags?: F;
  /** Shown in help, first the most common use. */
  examples: readonly string[];
  /** More help after the examples. */
  help?: string;
  /** Top-level fields of the `--json` output: a `--json` list is checked against them before anything runs. */
  fields?: readonly string[];
  /**
   * For a command that streams JSON lines of several kinds (listen, simulate): what they
   * are, shown in help. A `--json` field list does not apply and is refused.
   */
  jsonLines?: string;
  /** Run when the parent is given without a subcommand. */
  isDefault?: boolean;
  run(options: OptionsOf<A, F>, f: Factory): Promise<unknown>;
}

/** Anything a noun can register under itself: a definition or a group. */
export interface Registrable {
  register(parent: Command, f: Factory): void;
}

export interface CommandDefinition<A extends Args, F extends Flags> {
  readonly spec: CommandSpec<A, F>;
  /** Adds the command under `parent`. */
  register(parent: Command, f: Factory): Command;
  /** Gives an existing command (a noun that is itself the command) its arguments, flags and action. */
  configure(command: Command, f: Factory): Command;
  run(options: OptionsOf<A, F>, f: Factory): Promise<unknown>;
}

export function defineCommand<const A extends Args = Record<never, never>, const F extends Flags = Record<never, never>>(spec: CommandSpec<A, F>): CommandDefinition<A, F> {
  const args = Object.entries(spec.args ?? {});
  const flags = Object.entries(spec.flags ?? {});
  const definition: CommandDefinition<A, F> = {
    spec,
    run: (options, f) => spec.run(options, f),
    register(parent, f) {
      const command = parent.command(spec.name, { isDefault: spec.isDefault }).description(spec.description);
      if (spec.isDefault && args.length === 0) {
        // Commander hands a default command whatever follows its parent that is not a verb, so a
        // misspelt verb (`clock advnce --days 1`) would be an unknown option of the default or too
        // many arguments for it: it is an unknown command of the parent, with commander's suggestion.
        parent.hook('preSubcommand', (self, sub) => {
          const first = self.args[0];
          if (sub === command && first !== undefined && first !== command.name()) (self as Command & { unknownCommand(): never }).unknownCommand();
        });
      }
      return definition.configure(command, f);
    },
    configure(command, f) {
      for (const [, a] of args) {
        const argument = command.createArgument(a.name, a.description);
        if (a.choices) argument.choices(a.choices);
        command.addArgument(argument);
      }
      flagsByField.set(command, flagByField(spec.flags ?? {}));
      let contradiction: string | undefined;
      const attributes = flags.map(([key, given]) => {
        const required = given.prompted ? ' (required; asked for at a terminal)' : '';
        const option = new Option(given.flags, `${given.description}${required}`);
        if (given.parse) option.argParser(given.parse);
        if (given.choices) option.choices(given.choices);
        if (given.defaultValue !== undefined) option.default(given.defaultValue, given.defaultText);
        if (given.hidden) option.hideHelp();
        if (given.conflicts) option.conflicts([...given.conflicts]);
        command.addOption(option);
        if (given.clear) {
          const clear = new Option(given.clear.flags, given.clear.description);
          command.addOption(clear);
          // Both share one value, the later winning: given together, they are a contradiction, not a choice.
          const seen = new Set<string>();
          for (const name of [option.name(), clear.name()]) {
            command.on(`option:${name}`, () => {
              seen.add(name);
              if (seen.size === 2) contradiction = `${option.long} and ${clear.long} cannot be used together: choose one.`;
            });
          }
        }
        return [key, option.attributeName(), given.clear !== undefined] as const;
      });
      command.action(async (...received: unknown[]) => {
        if (contradiction !== undefined) throw new UsageError(contradiction);
        const parsed = received[args.length] as Record<string, unknown>;
        const options: Record<string, unknown> = {};
        args.forEach(([key, given], i) => {
          const value = received[i];
          if (given.prefix !== undefined && typeof value === 'string' && !idPattern(given.prefix).test(value)) {
            throw new UsageError(`Invalid ${given.name} '${clip(value)}': must be an id starting with ${given.prefix}_.`);
          }
          options[key] = value;
        });
        for (const [key, attribute, clearable] of attributes) options[key] = clearable && parsed[attribute] === false ? null : parsed[attribute];
        if (spec.jsonLines !== undefined) f.io.refuseFields(`${command.name()} prints JSON lines of several kinds`);
        if (spec.fields) f.io.declareFields(spec.fields);
        await spec.run(options as OptionsOf<A, F>, f);
      });
      if (spec.examples.length > 0) withExamples(command, ...spec.examples);
      if (spec.help) command.addHelpText('after', spec.help);
      if (spec.jsonLines !== undefined) command.addHelpText('after', `\nWith --json: ${spec.jsonLines} A field list (--json a,b) does not apply here.\n`);
      return command;
    },
  };
  return definition;
}

/** A noun's `register`: its verbs, from a list. */
export const verbs =
  (...items: Registrable[]) =>
  (noun: Command, f: Factory): void => {
    for (const item of items) item.register(noun, f);
  };

/** A command that only groups others (`pay webhooks endpoints …`). */
export const group = (name: string, description: string, items: Registrable[], examples: readonly string[] = []): Registrable => ({
  register(parent, f) {
    const command = parent.command(name).description(description);
    for (const item of items) item.register(command, f);
    if (examples.length > 0) withExamples(command, ...examples);
  },
});

/**
 * Every top-level field of T, each once, for `--json` field lists: the compiler rejects
 * an unknown one and names a missing one.
 */
export const fieldsOf =
  <T>() =>
  <const K extends ReadonlyArray<keyof T & string>>(...fields: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, K[number]> })): readonly string[] =>
    fields;
