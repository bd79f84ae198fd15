import { Chalk, type ChalkInstance } from 'chalk';
import { CancelError, UsageError } from '../errors.js';

export interface IOOptions {
  json: boolean;
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
  readonly isStdoutTTY: boolean;
  readonly isStderrTTY: boolean;
  readonly isStdinTTY: boolean;
  readonly color: ChalkInstance;
  readonly errColor: ChalkInstance;
  private stopListeners: Array<() => void> = [];

  constructor(
    private readonly streams: Streams,
    readonly options: IOOptions,
  ) {
    this.isStdoutTTY = Boolean(streams.stdout.isTTY);
    this.isStderrTTY = Boolean(streams.stderr.isTTY);
    this.isStdinTTY = Boolean(streams.stdin.isTTY);
    this.color = new Chalk({ level: this.colorLevel(this.isStdoutTTY) });
    this.errColor = new Chalk({ level: this.colorLevel(this.isStderrTTY) });
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
    const ci = this.streams.env.CI;
    return this.options.input && this.isStdinTTY && this.isStdoutTTY && (ci === undefined || ci === '' || ci === 'false' || ci === '0');
  }

  /** Human output (tables, key/value views) rather than TSV or JSON. */
  get human(): boolean {
    return !this.options.json && this.isStdoutTTY;
  }

  // Data, on stdout.

  out(text: string): void {
    this.streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  printJSON(value: unknown): void {
    this.out(JSON.stringify(value, null, this.isStdoutTTY ? 2 : undefined));
  }

  /** One object: JSON, an aligned `key  value` view at a TTY, `key<TAB>value` lines piped. */
  printObject(object: object, fields?: string[]): void {
    if (this.json) return this.printJSON(object);
    const record = object as Record<string, unknown>;
    const keys = fields ?? Object.keys(record);
    const width = Math.max(...keys.map((k) => k.length));
    for (const key of keys) {
      const value = formatValue(record[key]);
      this.out(this.human ? `${this.color.dim(key.padEnd(width))}  ${value}` : `${key}\t${value}`);
    }
  }

  /** Rows: JSON (the whole value given), a table at a TTY, TSV without a header piped. */
  printList<T>(rows: T[], columns: Column<T>[], jsonValue: unknown = rows): void {
    if (this.json) return this.printJSON(jsonValue);
    const cells = rows.map((row) => columns.map((c) => formatValue(c.value(row))));
    if (!this.human) {
      for (const line of cells) this.out(line.join('\t'));
      return;
    }
    if (rows.length === 0) {
      this.info('No results.');
      return;
    }
    const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((line) => line[i]!.length)));
    this.out(columns.map((c, i) => this.color.bold(c.header.padEnd(widths[i]!))).join('  ').trimEnd());
    for (const line of cells) this.out(line.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  }

  /** A bordered table (cli-table3), for summaries a person reads at a TTY. */
  async printTable(head: string[], rows: Array<Array<string | number>>): Promise<void> {
    if (!this.human) {
      for (const row of rows) this.out(row.join('\t'));
      return;
    }
    const { default: Table } = await import('cli-table3');
    const table = new Table({ head, style: { head: this.color.level > 0 ? ['bold'] : [], border: [] } });
    table.push(...rows);
    this.out(table.toString());
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

  error(message: string): void {
    this.info(`${this.errColor.red('✗')} ${message}`);
  }

  /** Verbose trace lines (keys already masked by the caller). */
  trace(line: string): void {
    if (this.verbose) this.info(this.errColor.dim(line));
  }

  /** Runs `task` under a spinner on stderr at a TTY; silently elsewhere. */
  async spin<T>(text: string, task: () => Promise<T>): Promise<T> {
    // A terminal of 0 columns (a pty nobody sized, as under `script`) sends ora into an endless loop.
    if (!this.isStderrTTY || !this.streams.stderr.columns || this.json || this.verbose) return task();
    const { default: ora } = await import('ora');
    const spinner = ora({ text, stream: this.streams.stderr, color: 'cyan', isEnabled: this.errColor.level > 0 || undefined }).start();
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

  // Prompts: only when canPrompt; otherwise the caller's flag is required.

  private async prompts() {
    return import('@inquirer/prompts');
  }

  /** Fails with a usage error naming the flag when no one can be asked. */
  requirePrompt(flag: string, what: string): void {
    if (!this.canPrompt) throw new UsageError(`Missing ${flag}: ${what} is required${this.options.input ? ' (no TTY to prompt at)' : ' (prompts are off: --no-input)'}.`);
  }

  async ask(flag: string, message: string, options: { default?: string; validate?: (value: string) => true | string } = {}): Promise<string> {
    this.requirePrompt(flag, message);
    const { input } = await this.prompts();
    return cancellable(input({ message, default: options.default, validate: options.validate }, this.promptStreams()));
  }

  async askSecret(flag: string, message: string): Promise<string> {
    this.requirePrompt(flag, message);
    const { password } = await this.prompts();
    return cancellable(password({ message, mask: '*', validate: (v) => (v.length > 0 ? true : 'Required.') }, this.promptStreams()));
  }

  async choose<T>(flag: string, message: string, choices: Array<{ name: string; value: T; description?: string }>): Promise<T> {
    this.requirePrompt(flag, message);
    const { select } = await this.prompts();
    return cancellable(select({ message, choices }, this.promptStreams()));
  }

  async confirm(message: string, fallback: boolean): Promise<boolean> {
    if (!this.canPrompt) return fallback;
    const { confirm } = await this.prompts();
    return cancellable(confirm({ message, default: fallback }, this.promptStreams()));
  }

  private promptStreams() {
    return { input: this.streams.stdin, output: this.streams.stderr };
  }

  // Long-running commands (sandbox, listen, simulate) wait here for Ctrl-C or SIGTERM.

  get handlesStop(): boolean {
    return this.stopListeners.length > 0;
  }

  /** Resolves on SIGINT/SIGTERM; while waited on, an interrupt is a clean stop (exit 0). */
  untilStopped(): Promise<void> {
    return new Promise((resolve) => this.stopListeners.push(resolve));
  }

  stop(): void {
    const listeners = this.stopListeners;
    this.stopListeners = [];
    for (const listener of listeners) listener();
  }
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
