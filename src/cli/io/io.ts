import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import { maskCardNumbers } from '../../domain/cards.js';
import { formatAmount, isAmountField, isCurrency } from '../../domain/money.js';
import { maskSecretTokens } from '../../domain/secrets.js';
import { CancelError, UsageError } from '../errors.js';

/** `1 subscription`, `3 subscriptions`: a count in a message a person reads. */
export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A list as `--json` prints every list, the service's or pay's own: the service's envelope (DESIGN.md section 4). */
export const listOf = <T>(data: readonly T[], hasMore = false) => ({ object: 'list' as const, data, has_more: hasMore });

export interface IOOptions {
  json: boolean;
  /** `--json a,b`: only these top-level fields of each object printed. */
  jsonFields?: readonly string[] | undefined;
  /** `--no-input`: never prompt. */
  input: boolean;
  /** false with `--no-color`; undefined lets NO_COLOR/FORCE_COLOR and the TTY decide. */
  color: boolean | undefined;
  verbose: boolean;
}

export interface Streams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

export interface Column<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

/**
 * The only code that knows the terminal (gh's IOStreams): data to stdout, messages to
 * stderr; tables and colour only at a TTY; JSON with --json; prompts only when a person
 * can answer them.
 */
export class IO {
  private stopListeners: Array<() => void> = [];
  /** The fields the running command's JSON output has, when it declared them. */
  private knownFields: readonly string[] | undefined;
  private stoppedBy: NodeJS.Signals | undefined;

  constructor(
    private readonly streams: Streams,
    readonly options: IOOptions,
  ) {}

  // Looked at when asked, not at construction: Node makes a stream when first touched, and
  // a `--json` run that succeeds never needs stdin or stderr.

  get isStdoutTTY(): boolean {
    return Boolean(this.streams.stdout.isTTY);
  }

  get isStderrTTY(): boolean {
    return Boolean(this.streams.stderr.isTTY);
  }

  get isStdinTTY(): boolean {
    return Boolean(this.streams.stdin.isTTY);
  }

  // Decided at each use, not at construction: `--no-color` is known only once parsed.

  /** Colour for stdout. */
  get color(): ChalkInstance {
    return chalk(this.colorLevel(this.isStdoutTTY));
  }

  /** Colour for stderr. */
  get errColor(): ChalkInstance {
    return chalk(this.colorLevel(this.isStderrTTY));
  }

  private colorLevel(tty: boolean): 0 | 1 | 2 | 3 {
    const env = this.streams.env;
    if (this.options.color === false || 'NO_COLOR' in env && env.NO_COLOR !== '') return 0;
    if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return 1;
    if (env.FORCE_COLOR === '0' || !tty || env.TERM === 'dumb') return 0;
    return 1;
  }

  get json(): boolean {
    return this.options.json;
  }

  get verbose(): boolean {
    return this.options.verbose;
  }

  get env(): NodeJS.ProcessEnv {
    return this.streams.env;
  }

  /** A person is there to answer: stdin and stdout are TTYs, not CI, not --no-input. */
  get canPrompt(): boolean {
    return this.noPromptBecause === undefined;
  }

  /** Why no one can be asked, in words for an error, or undefined when someone can. */
  get noPromptBecause(): string | undefined {
    const ci = this.streams.env.CI;
    if (!this.options.input) return 'prompts are off: --no-input';
    if (!this.isStdinTTY || !this.isStdoutTTY) return 'no TTY to prompt at';
    if (!(ci === undefined || ci === '' || ci === 'false' || ci === '0')) return 'CI is set: no prompts';
    return undefined;
  }

  /** Human output (tables, key/value views) rather than TSV or JSON. */
  get human(): boolean {
    return !this.options.json && this.isStdoutTTY;
  }

  // Data, on stdout.

  out(text: string): void {
    this.streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /**
   * Checks a `--json` field list against the fields the command's output has, before
   * the command does anything: an unknown field is a usage error listing the valid ones.
   */
  declareFields(fields: readonly string[]): void {
    this.knownFields = fields;
    this.checkFields(fields);
  }

  private checkFields(known: readonly string[]): void {
    const unknown = this.options.jsonFields?.find((field) => !known.includes(field));
    if (unknown !== undefined) throw new UsageError(`Unknown --json field '${unknown}': choose from ${known.join(', ')}.`);
  }

  /**
   * Output whose fields are known only once the request was made (`pay api`'s answer, a
   * write perhaps done): a field it lacks is not a usage error, which would tell a script
   * nothing was sent, but null, as elsewhere for an item without it, and a warning names it.
   */
  allowFieldsOf(value: unknown): void {
    const items = itemsOf(value);
    if (this.options.jsonFields === undefined || items.length === 0) return;
    const known = [...new Set(items.flatMap((item) => Object.keys(item)))];
    const missing = this.options.jsonFields.filter((field) => !known.includes(field));
    if (missing.length > 0) this.warn(`The answer has no field ${missing.map((field) => `'${field}'`).join(', ')} (printed as null); its fields: ${known.join(', ')}.`);
    this.knownFields = [...known, ...missing];
  }

  /** A command whose JSON output has no fixed fields refuses a field list, saying why. */
  refuseFields(why: string): void {
    if (this.options.jsonFields !== undefined) throw new UsageError(`Invalid --json ${this.options.jsonFields.join(',')}: ${why}; give --json alone.`);
  }

  /** JSON on stdout; with `--json a,b`, each object (a list's items) keeps only those fields, unless `whole`. */
  printJSON(value: unknown, options: { whole?: boolean } = {}): void {
    this.out(JSON.stringify(options.whole ? value : this.selected(value), null, this.isStdoutTTY ? 2 : undefined));
  }

  /** One object as one compact JSON line (streams: one a line), its fields chosen as printJSON's. */
  printJSONLine(value: object): void {
    this.out(JSON.stringify(this.selected(value)));
  }

  private selected(value: unknown): unknown {
    const fields = this.options.jsonFields;
    if (fields === undefined) return value;
    const items = itemsOf(value);
    // A command that did not declare its fields is checked against what it prints.
    if (this.knownFields === undefined && items.length > 0) this.checkFields([...new Set(items.flatMap((item) => Object.keys(item)))]);
    return selectFields(value, fields);
  }

  /** One object: JSON, an aligned `key  value` view at a TTY, `key<TAB>value` lines piped. */
  printObject(object: object): void {
    if (this.json) return this.printJSON(object);
    const record = object as Record<string, unknown>;
    const keys = Object.keys(record);
    const width = Math.max(...keys.map((k) => k.length));
    // A person reads amounts as money ($10.99), as tables show them; a script gets the integers.
    const currency = this.human && typeof record.currency === 'string' && isCurrency(record.currency) ? record.currency : undefined;
    for (const key of keys) {
      const raw = record[key];
      const value = currency !== undefined && typeof raw === 'number' && isAmountField(key) ? formatAmount(raw, currency) : formatValue(raw);
      this.out(this.human ? `${this.color.dim(key.padEnd(width))}  ${value}` : `${key}\t${value}`);
    }
  }

  /** Rows: JSON (the whole value given, else the rows as a list), an aligned table at a TTY, TSV without a header piped. */
  printList<T>(rows: T[], columns: Column<T>[], jsonValue: unknown = listOf(rows)): void {
    if (this.json) return this.printJSON(jsonValue);
    const cells = rows.map((row) => columns.map((c) => formatValue(c.value(row))));
    if (!this.human) {
      for (const line of cells) this.out(line.join('\t'));
      return;
    }
    if (rows.length === 0) return this.info('No results.');
    this.out(this.table(columns.map((c) => c.header), cells, false));
  }

  /** A bordered table for summaries a person reads at a TTY; TSV piped. */
  printTable(head: string[], rows: Array<Array<string | number>>): void {
    if (this.json) return this.printJSON(rows.map((row) => Object.fromEntries(head.map((h, i) => [h, row[i]]))));
    if (!this.human) {
      for (const row of rows) this.out(row.join('\t'));
      return;
    }
    this.out(this.table(head, rows, true));
  }

  /** cli-table3, loaded only when a person will see a table (it is CommonJS: sync). */
  private table(head: string[], rows: Array<Array<string | number>>, borders: boolean): string {
    const Table = require('cli-table3') as typeof import('cli-table3');
    const style = { head: this.color.level > 0 ? ['bold'] : [], border: [] as string[] };
    const table = borders
      ? new Table({ head, style })
      : new Table({ head, chars: BORDERLESS, style: { ...style, 'padding-left': 0, 'padding-right': 0 } });
    table.push(...rows);
    return table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
  }

  // Messages, on stderr.

  info(message: string): void {
    this.streams.stderr.write(`${message}\n`);
  }

  success(message: string): void {
    this.info(`${this.errColor.green('✓')} ${message}`);
  }

  warn(message: string): void {
    this.info(`${this.errColor.yellow('!')} ${message}`);
  }

  // An error may echo what was typed (a value, a word taken for a command): a card number
  // typed in the wrong place shows its last 4 digits only, as the service's errors do, and
  // a key or signing secret its first 8 and last 4 characters, as a key is shown anywhere.

  error(message: string): void {
    this.info(`${this.errColor.red('✗')} ${maskSecretTokens(maskCardNumbers(message))}`);
  }

  /** An error as one JSON object on stderr (`--json`): scripts read it rather than a sentence. */
  errorJSON(error: Record<string, unknown>): void {
    this.info(maskSecretTokens(maskCardNumbers(JSON.stringify({ error }))));
  }

  /** Verbose trace lines (fields masked by name by the caller); a card number anywhere in one, as its last 4 digits, a key as maskSecret shows it. */
  trace(line: string): void {
    if (this.verbose) this.info(this.errColor.dim(maskSecretTokens(maskCardNumbers(line))));
  }

  /** Runs `task` under a spinner on stderr at a TTY; silently elsewhere. */
  async spin<T>(text: string, task: () => Promise<T>): Promise<T> {
    // A terminal of 0 columns (a pty nobody sized, as under `script`) sends ora into an endless loop.
    if (!this.isStderrTTY || !this.streams.stderr.columns || this.json || this.verbose) return task();
    const { default: ora } = await import('ora');
    const spinner = ora({ text, stream: this.streams.stderr, color: this.errColor.level > 0 ? 'cyan' : false }).start();
    try {
      const result = await task();
      spinner.stop();
      return result;
    } catch (error) {
      spinner.stop();
      throw error;
    }
  }

  /** All of stdin, for secrets passed by pipe (`--api-key-stdin`). */
  async readStdin(): Promise<string> {
    let text = '';
    for await (const chunk of this.streams.stdin) text += String(chunk);
    return text.trim();
  }

  /** A key piped in for `--api-key-stdin`: an empty stdin is a missing key, said with `example`, the command that pipes one in. */
  async readKeyFromStdin(example: string): Promise<string> {
    const key = await this.readStdin();
    if (key === '') throw new UsageError(`Missing --api-key-stdin: stdin was empty; pipe the key in, e.g. printf %s "$KEY" | ${example} --api-key-stdin …`);
    return key;
  }

  // Prompts: only when canPrompt; otherwise the caller's flag is required.

  private async prompts() {
    return import('@inquirer/prompts');
  }

  /** Fails with a usage error naming the flag when no one can be asked. */
  requirePrompt(flag: string, what: string): void {
    const because = this.noPromptBecause;
    if (because !== undefined) throw new UsageError(`Missing ${flag}: ${what} is required (${because}).`);
  }

  async ask(flag: string, message: string, options: { default?: string; validate?: (value: string) => true | string; signal?: AbortSignal } = {}): Promise<string> {
    this.requirePrompt(flag, message);
    const { input } = await this.prompts();
    return cancellable(input({ message, default: options.default, validate: options.validate }, this.promptStreams(options.signal)));
  }

  async askSecret(flag: string, message: string, options: { validate?: (value: string) => true | string; signal?: AbortSignal } = {}): Promise<string> {
    this.requirePrompt(flag, message);
    const { password } = await this.prompts();
    return cancellable(password({ message, mask: '*', validate: options.validate ?? ((v) => (v.length > 0 ? true : 'Required.')) }, this.promptStreams(options.signal)));
  }

  /**
   * A list to pick from. `signal` takes the prompt away (the question no longer stands);
   * it then rejects with a CancelError. However it ends the list is wiped from the
   * screen (Ctrl-C would leave it drawn), and a chosen answer is written back as one line.
   */
  async choose<T>(flag: string, message: string, choices: Array<{ name: string; value: T; description?: string }>, options: { signal?: AbortSignal } = {}): Promise<T> {
    this.requirePrompt(flag, message);
    const { select } = await this.prompts();
    const value = await cancellable(select({ message, choices, pageSize: Math.max(7, choices.length) }, { ...this.promptStreams(options.signal), clearPromptOnDone: true }));
    const chosen = choices.find((choice) => choice.value === value)!;
    this.info(`${this.errColor.green('✔')} ${message} ${this.errColor.cyan(chosen.name)}`);
    return value;
  }

  async confirm(message: string, fallback: boolean): Promise<boolean> {
    if (!this.canPrompt) return fallback;
    const { confirm } = await this.prompts();
    return cancellable(confirm({ message, default: fallback }, this.promptStreams()));
  }

  private promptStreams(signal?: AbortSignal) {
    return { input: this.streams.stdin, output: this.streams.stderr, ...(signal ? { signal } : {}) };
  }

  /** Set once a command has written all its data: a reader of stdout going away then ends nothing (main.ts). */
  stdoutDone = false;

  doneWithStdout(): void {
    this.stdoutDone = true;
  }

  // Long-running commands (sandbox, listen, simulate) wait here for Ctrl-C or SIGTERM.

  /**
   * A command waits for a stop. Not once its stop began: a second Ctrl-C then means quit
   * now (main.ts tells it from the echo of the first that conf's exit hook raises).
   */
  get handlesStop(): boolean {
    return this.stopListeners.length > 0;
  }

  /** Resolves on SIGINT/SIGTERM; while waited on, an interrupt is a clean stop (exit 0). */
  untilStopped(): Promise<void> {
    return new Promise((resolve) => this.stopListeners.push(resolve));
  }

  /** Whether the running command was stopped by Ctrl-C (SIGINT) rather than asked to end (SIGTERM). */
  get interrupted(): boolean {
    return this.stoppedBy === 'SIGINT';
  }

  stop(signal?: NodeJS.Signals): void {
    this.stoppedBy ??= signal;
    const listeners = this.stopListeners;
    this.stopListeners = [];
    for (const listener of listeners) listener();
  }
}

const require = createRequire(import.meta.url);

/**
 * chalk at a level, loaded when output first asks for colour (a message, a view, a
 * table): a `--json` run never does, and its start-up skips chalk's setup. Sync, so
 * `io.color` stays a getter: chalk is ES modules, which Node's require loads too.
 */
function chalk(level: 0 | 1 | 2 | 3): ChalkInstance {
  const { Chalk } = require('chalk') as typeof import('chalk');
  return new Chalk({ level });
}

/** Columns two spaces apart, no rules: the look of `gh` and `kubectl` lists. */
const BORDERLESS = {
  ...Object.fromEntries(
    ['top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right', 'left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid'].map((k) => [k, '']),
  ),
  middle: '  ',
};

type Row = Record<string, unknown>;
const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const isList = (value: unknown): value is Row & { data: unknown[] } => isRow(value) && value.object === 'list' && Array.isArray(value.data);

/** The objects a JSON value holds: a list's items, an array's, or the object itself. */
function itemsOf(value: unknown): Row[] {
  const items = isList(value) ? value.data : Array.isArray(value) ? value : [value];
  return items.filter(isRow);
}

/** Each object with only `fields` (null where it has none); a list keeps its envelope. */
function selectFields(value: unknown, fields: readonly string[]): unknown {
  const pick = (item: unknown) => (isRow(item) ? Object.fromEntries(fields.map((field) => [field, item[field] ?? null])) : item);
  if (isList(value)) return { ...value, data: value.data.map(pick) };
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Ctrl-C at an inquirer prompt is a cancellation (exit 130), not a crash. */
async function cancellable<T>(prompt: Promise<T>): Promise<T> {
  try {
    return await prompt;
  } catch (error) {
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) throw new CancelError();
    throw error;
  }
}
