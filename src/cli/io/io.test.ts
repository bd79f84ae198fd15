import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { IO, type IOOptions, type Streams } from './io.js';

/** Streams that look like a terminal (or not), collecting what is written. */
function terminal(tty: { stdin?: boolean; stdout?: boolean; stderr?: boolean }, env: NodeJS.ProcessEnv = {}) {
  const make = (isTTY: boolean) => Object.assign(new PassThrough(), { isTTY, columns: 80 }) as unknown as NodeJS.WriteStream;
  const streams: Streams = { stdin: make(tty.stdin ?? false) as unknown as NodeJS.ReadStream, stdout: make(tty.stdout ?? false), stderr: make(tty.stderr ?? false), env };
  const read = (stream: NodeJS.WriteStream) => () => String((stream as unknown as PassThrough).read() ?? '');
  return { streams, stdout: read(streams.stdout), stderr: read(streams.stderr) };
}
const options = (o: Partial<IOOptions> = {}): IOOptions => ({ json: false, input: true, color: undefined, verbose: false, ...o });
const ALL_TTY = { stdin: true, stdout: true, stderr: true };

describe('IO.canPrompt', () => {
  it('is true only with stdin and stdout at a TTY, not CI, and not --no-input', () => {
    expect(new IO(terminal(ALL_TTY).streams, options()).canPrompt).toBe(true);
    expect(new IO(terminal({ ...ALL_TTY, stdin: false }).streams, options()).canPrompt).toBe(false);
    expect(new IO(terminal({ ...ALL_TTY, stdout: false }).streams, options()).canPrompt).toBe(false);
    expect(new IO(terminal(ALL_TTY, { CI: 'true' }).streams, options()).canPrompt).toBe(false);
    expect(new IO(terminal(ALL_TTY, { CI: '1' }).streams, options()).canPrompt).toBe(false);
    expect(new IO(terminal(ALL_TTY).streams, options({ input: false })).canPrompt).toBe(false);
  });

  it('a prompt nobody can answer is a usage error naming the flag', async () => {
    const io = new IO(terminal(ALL_TTY).streams, options({ input: false }));
    await expect(io.ask('--base-url', 'Base URL')).rejects.toThrow(UsageError);
    await expect(io.askSecret('--api-key-stdin', 'API key')).rejects.toThrow(/--api-key-stdin.*--no-input/);
    // Each says why no one is asked: at a terminal with CI set, not "no TTY".
    await expect(new IO(terminal(ALL_TTY, { CI: 'true' }).streams, options()).ask('--amount', 'Amount')).rejects.toThrow('Missing --amount: Amount is required (CI is set: no prompts).');
    await expect(new IO(terminal({}).streams, options()).ask('--amount', 'Amount')).rejects.toThrow('(no TTY to prompt at)');
  });
});

describe('IO colour', () => {
  it('colours only at a TTY, never with NO_COLOR or --no-color', () => {
    expect(new IO(terminal(ALL_TTY).streams, options()).color.level).toBeGreaterThan(0);
    expect(new IO(terminal({}).streams, options()).color.level).toBe(0);
    expect(new IO(terminal(ALL_TTY, { NO_COLOR: '1' }).streams, options()).color.level).toBe(0);
    expect(new IO(terminal(ALL_TTY, { FORCE_COLOR: '1' }).streams, options({ color: false })).errColor.level).toBe(0);
    expect(new IO(terminal({}, { FORCE_COLOR: '1' }).streams, options()).color.level).toBeGreaterThan(0);
  });

  it('decides at each use, so a flag parsed after construction counts', () => {
    const flags = options();
    const io = new IO(terminal(ALL_TTY).streams, flags);
    flags.color = false;
    expect(io.errColor.level).toBe(0);
  });
});

describe('IO output', () => {
  const rows = [{ id: 'cus_1', email: 'a@example.com' }, { id: 'cus_22', email: null }];
  const columns = [{ header: 'ID', value: (r: (typeof rows)[number]) => r.id }, { header: 'EMAIL', value: (r: (typeof rows)[number]) => r.email }];

  it('piped: TSV rows without a header', () => {
    const t = terminal({});
    new IO(t.streams, options()).printList(rows, columns);
    expect(t.stdout()).toBe('cus_1\ta@example.com\ncus_22\t\n');
  });

  it('at a TTY: an aligned table with a header (cli-table3)', () => {
    const t = terminal(ALL_TTY, { NO_COLOR: '1' });
    new IO(t.streams, options()).printList(rows, columns);
    expect(t.stdout()).toBe('ID      EMAIL\ncus_1   a@example.com\ncus_22\n');
  });

  it('--json: only the JSON value on stdout, messages on stderr', () => {
    const t = terminal(ALL_TTY);
    const io = new IO(t.streams, options({ json: true }));
    io.printList(rows, columns, { object: 'list', data: rows });
    io.success('done');
    expect(JSON.parse(t.stdout())).toEqual({ object: 'list', data: rows });
    expect(t.stderr()).toContain('done');
  });

  it('--json piped looks at neither stdin nor stderr: Node makes those streams only when first used', () => {
    const t = terminal({});
    const touched: string[] = [];
    const streams: Streams = {
      get stdin() {
        touched.push('stdin');
        return t.streams.stdin;
      },
      stdout: t.streams.stdout,
      get stderr() {
        touched.push('stderr');
        return t.streams.stderr;
      },
      env: {},
    };
    const io = new IO(streams, options({ json: true }));
    io.printList(rows, columns, { object: 'list', data: rows });
    expect(io.human).toBe(false);
    expect(JSON.parse(t.stdout())).toEqual({ object: 'list', data: rows });
    expect(touched).toEqual([]);
  });

  it('objects: key<TAB>value lines piped', () => {
    const t = terminal({});
    new IO(t.streams, options()).printObject({ id: 'cus_1', metadata: { plan: 'gold' }, email: null });
    expect(t.stdout()).toBe('id\tcus_1\nmetadata\t{"plan":"gold"}\nemail\t\n');
  });

  it('objects at a terminal show amounts as money, in the object\'s currency; piped, the integers', () => {
    const intent = { id: 'pi_1', amount: 1099, amount_received: 1099, tip_amount: 0, currency: 'usd', attempts: 2 };
    const tty = terminal(ALL_TTY, { NO_COLOR: '1' });
    new IO(tty.streams, options()).printObject(intent);
    expect(tty.stdout()).toBe('id               pi_1\namount           $10.99\namount_received  $10.99\ntip_amount       $0.00\ncurrency         usd\nattempts         2\n');
    const yen = terminal(ALL_TTY, { NO_COLOR: '1' });
    new IO(yen.streams, options()).printObject({ price: 1500, currency: 'jpy' });
    expect(yen.stdout()).toContain('¥1,500');
    const piped = terminal({});
    new IO(piped.streams, options()).printObject(intent);
    expect(piped.stdout()).toContain('amount\t1099\n');
  });

  it('a spinner never writes where there is no terminal', async () => {
    const t = terminal({});
    await expect(new IO(t.streams, options()).spin('Working…', async () => 7)).resolves.toBe(7);
    expect(t.stderr()).toBe('');
  });
});
