import { Command, type CommanderError, Help, Option } from 'commander';
import { NetworkError, PathError } from '../client/errors.js';
import { ConfigError, CredentialsError } from '../config/errors.js';
import { ApiError } from '../domain/errors.js';
import { LockedError } from '../infra/pid-lock.js';
import { ListenError } from '../webhooks/errors.js';
import { CancelError, CheckFailedError, ConflictError, DeclinedError, hintOf, NotRunningError, PartialError, PortInUseError, SecretLostError, UsageError } from './errors.js';
import { Factory, type GlobalFlags } from './factory.js';
import { fieldsArg, groupExamples } from './flags.js';
import { IO, type Streams } from './io/io.js';
import { finishHelp, HELP_COMMAND, HELP_OPTION, helpArgs, helpSettings } from './help.js';
import { NOUNS } from './nouns.js';
import { asksVersionOnly, version } from './version.js';

/** DESIGN.md section 8: the one table from errors to exit codes. */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  declined: 6,
  unreachable: 7,
  partial: 8,
  interrupted: 130,
} as const;

/**
 * Every typed error of the CLI and the layers below it, with its exit code and the code
 * its `--json` error object carries. The service's ApiError is mapped by its status.
 */
const ERRORS: ReadonlyArray<readonly [new (...args: never[]) => Error, number, string]> = [
  [UsageError, EXIT.usage, 'usage_error'],
  [PathError, EXIT.usage, 'usage_error'],
  [ConfigError, EXIT.usage, 'config_error'],
  [ListenError, EXIT.usage, 'usage_error'],
  [PortInUseError, EXIT.usage, 'port_in_use'],
  [CredentialsError, EXIT.auth, 'credentials_missing'],
  [LockedError, EXIT.conflict, 'locked'],
  [ConflictError, EXIT.conflict, 'locked'],
  [DeclinedError, EXIT.declined, 'card_declined'],
  [NetworkError, EXIT.unreachable, 'unreachable'],
  [NotRunningError, EXIT.unreachable, 'not_running'],
  [PartialError, EXIT.partial, 'partial'],
  [CheckFailedError, EXIT.error, 'check_failed'],
  [SecretLostError, EXIT.error, 'secret_lost'],
  [CancelError, EXIT.interrupted, 'cancelled'],
];

const known = (error: unknown) => ERRORS.find(([type]) => error instanceof type);

function exitCodeFor(error: unknown): number {
  if (error instanceof ApiError) {
    switch (error.status) {
      case 401:
      case 403:
        return EXIT.auth;
      case 404:
        return EXIT.notFound;
      case 409:
      case 422:
        return EXIT.conflict;
      case 402:
        return EXIT.declined;
      default:
        return EXIT.error;
    }
  }
  return known(error)?.[1] ?? EXIT.error;
}

const VALUE_FLAGS = new Set(['--profile']);

/** Where the first word of a command line is (after global flags); -1 when there is none. */
function firstWord(args: string[], nouns: ReadonlySet<string>): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (VALUE_FLAGS.has(arg) || (arg === '--json' && !nouns.has(args[i + 1] ?? '') && FIELD_LIST.test(args[i + 1] ?? ''))) i++;
    else if (!arg.startsWith('-')) return i;
  }
  return -1;
}

/** `--json id,status`: top-level field names, comma-separated. */
const FIELD_LIST = /^[a-z_][a-z0-9_]*(,[a-z_][a-z0-9_]*)*$/;

/**
 * `--json` takes an optional field list (gh's `--json id,status`). The word after a bare
 * `--json` is its list only when it is one: not the name of a command that can come
 * there (`pay --json events list`), nor, while the command still awaits an argument, of
 * any command (`pay profiles use --json sandbox`), nor an id (`cus_…`), so
 * `pay customers get --json cus_123` keeps working; a field sharing a command's name is a
 * list once the arguments are given (`pay trigger customer.created --json events`), or
 * when it is not one the awaited argument takes (`pay trigger --list --json events`).
 * Spelled out for commander as `--json=list`, or `--json=` for every field.
 */
function jsonFieldArgs(args: string[], program: Command, ids: RegExp | undefined): string[] {
  const out: string[] = [];
  let command = program;
  // The leaf command's arguments given so far.
  let given = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i)];
    if (arg !== '--json') {
      out.push(arg);
      if (arg.startsWith('-')) {
        // A flag's value is not an argument.
        if (takesValue(arg, command, program) && i + 1 < args.length) out.push(args[++i]!);
        continue;
      }
      // The command the words name so far: a word naming one of its subcommands goes down to it.
      const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
      if (sub) [command, given] = [sub, 0];
      else given++;
      continue;
    }
    const next = args[i + 1];
    // The argument the word would be; one with choices is only one of them (pay trigger --list --json events).
    const argument = command.registeredArguments[given];
    const awaited = command.commands.length > 0 || (argument !== undefined && (argument.argChoices === undefined || argument.argChoices.includes(next ?? '')));
    const names = awaited ? commandNames(command.commands.length > 0 ? command : program) : new Set<string>();
    // The word is the argument when it is one of the argument's choices (pay completion --json bash), or when
    // no later word is left to give a required argument still missing (pay profiles use --json staging).
    const missing = command.commands.length === 0 ? command.registeredArguments.slice(given).filter((a) => a.required).length : 0;
    const isArgument = argument?.argChoices?.includes(next ?? '') === true || missing > wordsAfter(args, i + 2, command, program);
    const isList = next !== undefined && FIELD_LIST.test(next) && !names.has(next) && !ids?.test(next) && !isArgument;
    out.push(`--json=${isList ? next : ''}`);
    if (isList) i++;
  }
  return out;
}

/** A flag that takes the next word as its value (`--limit 5`, not `--limit=5` or `--all`). */
const takesValue = (arg: string, command: Command, program: Command) =>
  !arg.includes('=') && [command, program].some((c) => c.options.some((o) => o.required && (o.long === arg || o.short === arg)));

/** How many words from `from` on are arguments, not flags or their values. */
function wordsAfter(args: string[], from: number, command: Command, program: Command): number {
  let count = 0;
  for (let i = from; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return count + args.length - i - 1;
    if (!arg.startsWith('-')) count++;
    else if (takesValue(arg, command, program)) i++;
  }
  return count;
}

/**
 * What an id looks like (`cus_…`), when a word after a bare `--json` has to be told from a
 * field list; no such word, nothing to tell, and the id prefixes are not loaded.
 */
async function idPattern(args: string[]): Promise<RegExp | undefined> {
  if (!args.some((arg, i) => arg === '--json' && FIELD_LIST.test(args[i + 1] ?? ''))) return undefined;
  const { ID_PREFIX } = await import('../domain/ids.js');
  return new RegExp(`^(${Object.values(ID_PREFIX).join('|')})_`);
}

/** The names of a command's subcommands, at every depth (the program's: nouns and the loaded noun's verbs). */
function commandNames(command: Command, names = new Set<string>()): Set<string> {
  for (const sub of command.commands) {
    names.add(sub.name());
    commandNames(sub, names);
  }
  return names;
}

export async function main(argv: string[], streams: Streams): Promise<number> {
  const nouns = new Set(NOUNS.map((noun) => noun.name));
  const given = argv.slice(2);
  const at = firstWord(given, nouns);
  const args = at === -1 ? given : helpArgs(given, at);
  // bin/pay.js answers `--version` before loading this module; this answers a caller of main().
  if (asksVersionOnly(args)) {
    streams.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const program = new Command('pay');
  const globals = (): GlobalFlags => program.opts<GlobalFlags>();
  // Known before parsing: an error in parsing itself is reported as --json asks.
  const wantsJSON = args.slice(0, args.includes('--') ? args.indexOf('--') : undefined).some((a) => a === '--json' || a.startsWith('--json='));
  const io = new IO(streams, {
    get json() { return globals().json !== undefined; },
    get jsonFields() {
      const json = globals().json;
      return Array.isArray(json) && json.length > 0 ? json : undefined;
    },
    get input() { return globals().input ?? true; },
    get color() { return globals().color === false ? false : undefined; },
    get verbose() { return globals().verbose ?? false; },
  });
  activeIO = io;
  const f = new Factory(io, streams.env, globals);

  program
    .description('Payments from the command line: test payments, webhooks, terminal readers and subscriptions, against the local sandbox or a real deployment.')
    .version(version(), '-V, --version', 'Print the version')
    .addOption(new Option('--json [fields]', 'Print data as JSON on stdout (messages stay on stderr); with fields (id,status) only those').argParser(fieldsArg))
    .addOption(new Option('--profile <name>', 'Profile to use (env PAY_PROFILE; default: the default profile, else the sandbox)'))
    .addOption(new Option('--no-input', 'Never prompt; missing values are errors (also when CI is set or stdin is not a TTY)'))
    .addOption(new Option('--verbose', 'Trace HTTP requests on stderr, API keys masked'))
    .addOption(new Option('--no-color', 'Disable colour (NO_COLOR is honoured too)'))
    .helpOption(...HELP_OPTION)
    .showSuggestionAfterError(true)
    .configureHelp(helpSettings(Help.prototype))
    .exitOverride()
    .configureOutput({
      writeOut: (text) => streams.stdout.write(text),
      writeErr: (text) => streams.stderr.write(text),
    })
    .addHelpText(
      'after',
      `
Examples:
  $ pay sandbox start --detach          # a local service, no account needed
  $ pay customers create --email jenny@example.com
  $ pay customers list --json | jq '.data[].id'
  $ pay api GET /v1/customers --verbose

Environment: PAY_PROFILE, PAY_BASE_URL, PAY_ACCOUNT, PAY_API_KEY, PAY_CONFIG_DIR, NO_COLOR, CI.
Exit codes: 0 ok, 1 error, 2 usage, 3 auth, 4 not found, 5 conflict, 6 declined, 7 unreachable, 8 partial, 130 interrupted.
`,
    );

  const wanted = at === -1 ? undefined : args[at];
  // Completion walks the whole tree; any other command needs only its own noun.
  const loadAll = wanted === 'completion';
  for (const noun of NOUNS) {
    const command = program.command(noun.name).description(noun.summary).helpGroup(noun.group);
    if (loadAll || noun.name === wanted) {
      (await noun.load()).register(command, f);
      groupExamples(command);
    }
  }
  // The program's own `help` goes with the setup commands.
  program.commandsGroup('Setup:').helpCommand(...HELP_COMMAND);
  finishHelp(program, io, () => wantsJSON);

  const parsed = helpOfCommand(program, args, at);
  try {
    await program.parseAsync([...argv.slice(0, 2), ...jsonFieldArgs(parsed, program, await idPattern(parsed))]);
    return EXIT.ok;
  } catch (error) {
    return report(error, io, wantsJSON);
  }
}

/**
 * Help asked of words that name no command (`pay intnets --help`, `pay intents help crate`,
 * `pay help intents crate`) is the usage error those words are, with its suggestion, not
 * the help of where they stopped: the help flag is dropped. A group's own `help <words>`
 * is `<words> --help`, as the program's is. Only groups meet an unknown word here, and a
 * group runs nothing (its default command refuses an unknown verb), so nothing runs instead.
 */
function helpOfCommand(program: Command, given: string[], at: number): string[] {
  let args = given;
  let command = program;
  for (let i = at; i !== -1 && i < args.length && !args[i]!.startsWith('-'); i++) {
    // Past a command without subcommands, words are its arguments.
    if (command.commands.length === 0) return args;
    if (args[i] === 'help') {
      const named = helpArgs(args, i);
      if (named === args) return args;
      args = named;
    }
    const word = args[i]!;
    const next = command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (!next) return args.filter((arg) => arg !== '--help' && arg !== '-h');
    command = next;
  }
  return args;
}

/** An error as `--json` prints it on stderr: `{"error": {type?, code, message, param?, status?, exit_code}}`. */
function errorObject(error: unknown, exitCode: number): Record<string, unknown> {
  if (error instanceof ApiError) {
    const intent = error.extra.payment_intent as { id?: string } | undefined;
    return {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param ? { param: error.param } : {}),
      status: error.status,
      ...(intent?.id ? { payment_intent_id: intent.id } : {}),
      exit_code: exitCode,
    };
  }
  // A decline the service answered without a 402 (a reader's outcome) reads as one.
  if (error instanceof DeclinedError) {
    return { type: 'card_error', code: error.code, message: error.message, payment_intent_id: error.paymentIntentId, ...(error.refundId ? { refund_id: error.refundId } : {}), exit_code: exitCode };
  }
  const code = known(error)?.[2] ?? 'unexpected';
  return { code, message: error instanceof Error ? error.message : String(error), exit_code: exitCode };
}

function report(error: unknown, io: IO, json: boolean): number {
  if (isCommanderError(error)) {
    // Commander already printed help or the usage error (with a suggestion on typos).
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const code = exitCodeFor(error);
  if (json) {
    io.errorJSON(errorObject(error, code));
    return code;
  }
  if (error instanceof ApiError) {
    const details = [`${error.code}`, error.param ? `param: ${error.param}` : '', `HTTP ${error.status}`].filter(Boolean).join(' · ');
    io.error(`${error.message} (${details})`);
    const intent = error.extra.payment_intent as { id?: string } | undefined;
    if (intent?.id) io.info(`  payment intent: ${intent.id}`);
    const hint = hintOf(error);
    if (hint) io.info(`  ${hint}`);
  } else if (error instanceof NetworkError) {
    io.error(error.message);
    io.info('  Is it running? Check with: pay sandbox status (or your profile: pay profiles show)');
  } else if (known(error)) {
    io.error((error as Error).message);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    io.error(`Unexpected error: ${message}`);
    if (io.verbose && error instanceof Error && error.stack) io.trace(error.stack);
  }
  return code;
}

function isCommanderError(error: unknown): error is CommanderError {
  return error instanceof Error && typeof (error as CommanderError).code === 'string' && (error as CommanderError).code.startsWith('commander.');
}

/** The IO of the command being run, so a signal can stop a long-running command cleanly. */
let activeIO: IO | undefined;

/** The process entry: one exit point. */
export async function run(): Promise<void> {
  // NO_COLOR wins over FORCE_COLOR here (IO's colour level). Node decides the other way
  // and, once a dependency loads node:assert, warns on stderr that it ignores NO_COLOR:
  // noise in a message stream and in a `--json` error. Without FORCE_COLOR it has nothing to say.
  if (process.env.NO_COLOR) delete process.env.FORCE_COLOR;
  // stdin and stderr made when first used: a `--json` run that succeeds touches neither.
  let stderr: NodeJS.WriteStream | undefined;
  const streams: Streams = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    get stderr() {
      return (stderr ??= process.stderr);
    },
    env: process.env,
  };
  let stoppedAt = -Infinity;
  const onSignal = (signal: NodeJS.Signals) => {
    // conf's exit hook (when-exit) catches the same signal after us and raises it again
    // at once: that copy is the same interrupt, not a second Ctrl-C meaning "quit now".
    if (performance.now() - stoppedAt < 250) return;
    // A long-running command (sandbox, listen, a batch) stops cleanly, unless a stop is
    // under way already (a batch waiting for its retries in flight): that is "quit now".
    // Anything else is interrupted.
    if (activeIO?.handlesStop) {
      stoppedAt = performance.now();
      return activeIO.stop(signal);
    }
    process.exit(signal === 'SIGINT' ? EXIT.interrupted : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  streams.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // The reader went away (`| head`): nothing left to say, unless all was said and the command serves on (a sandbox).
    if (error.code === 'EPIPE' && !activeIO?.stdoutDone) process.exit(EXIT.ok);
  });
  const code = await main(process.argv, streams);
  // Exit only once what was written has left: a pipe may be asynchronous (macOS), and
  // exiting at once would cut `pay … --json | jq` short. A write's callback runs after
  // every write queued before it.
  process.exitCode = code;
  await Promise.all([streams.stdout, ...(stderr ? [stderr] : [])].map((stream) => new Promise((resolve) => stream.write('', resolve))));
  process.exit(code);
}
