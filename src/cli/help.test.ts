import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../../test/support/cli.js';

// Help text and usage errors as gh writes them (issue 14), in-process: nothing here needs a service.

const dir = mkdtempSync(join(tmpdir(), 'pay-help-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pay = (args: string[]) => runCli(args, { env: cliEnv(dir) });

describe('help', () => {
  it('pay help intents create prints the help of create, as pay intents create --help does', async () => {
    const viaHelp = await pay(['help', 'intents', 'create']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: pay intents create \[options\]/);
    expect(viaHelp.stdout).toBe((await pay(['intents', 'create', '--help'])).stdout);
    expect((await pay(['help', 'intents'])).stdout).toMatch(/^Usage: pay intents \[options\] \[command\]/);
    // Words that name no command are the usage error they would be without help, suggestion included.
    expect(await pay(['help', 'intnets'])).toEqual({ code: 2, stdout: '', stderr: "✗ Unknown command 'intnets'. Did you mean intents?\n  Run 'pay --help' for usage." });
    expect(await pay(['help', 'intents', 'crate'])).toEqual({ code: 2, stdout: '', stderr: "✗ Unknown command 'crate'. Did you mean create?\n  Run 'pay intents --help' for usage." });
  });

  it('help asked of a misspelt command, with --help, -h or a group\'s own help, is the usage error with its suggestion', async () => {
    const intnets = { code: 2, stdout: '', stderr: "✗ Unknown command 'intnets'. Did you mean intents?\n  Run 'pay --help' for usage." };
    const crate = { code: 2, stdout: '', stderr: "✗ Unknown command 'crate'. Did you mean create?\n  Run 'pay intents --help' for usage." };
    expect(await pay(['intnets', '--help'])).toEqual(intnets);
    expect(await pay(['intnets', '-h'])).toEqual(intnets);
    expect(await pay(['intents', 'crate', '--help'])).toEqual(crate);
    expect(await pay(['intents', 'help', 'crate'])).toEqual(crate);
    expect(await pay(['sandbox', 'clock', 'help', 'advnce'])).toEqual({ code: 2, stdout: '', stderr: "✗ Unknown command 'advnce'. Did you mean advance?\n  Run 'pay sandbox clock --help' for usage." });
    expect((await pay(['intents', 'crate', '--help', '--json'])).stderr).toBe('{"error":{"code":"usage_error","message":"Unknown command \'crate\'. Did you mean create?","exit_code":2}}');
    // Words that do name a command still get its help, however it is asked.
    const create = (await pay(['intents', 'create', '--help'])).stdout;
    expect(create).toMatch(/^Usage: pay intents create \[options\]/);
    expect(await pay(['intents', 'help', 'create'])).toEqual({ code: 0, stdout: create, stderr: '' });
    expect((await pay(['sandbox', 'clock', 'help', 'advance'])).stdout).toMatch(/^Usage: pay sandbox clock advance \[options\]/);
    expect((await pay(['intents', 'help'])).stdout).toMatch(/^Usage: pay intents \[options\] \[command\]/);
  });

  it('groups the top-level commands, words the built-in lines as ours, and ends with where to learn more', async () => {
    const { stdout } = await pay(['--help']);
    const headings = stdout.split('\n').filter((line) => /^[A-Z][\w ]*:$/.test(line));
    expect(headings).toEqual(['Options:', 'Core resources:', 'Events and webhooks:', 'In person:', 'Sandbox:', 'Setup:', 'Examples:', 'Learn more:']);
    const group = (heading: string) => stdout.split(`${heading}\n`)[1]!.split('\n\n')[0]!;
    expect(group('Core resources:')).toMatch(/^ {2}customers\s/);
    expect(group('In person:')).toMatch(/readers[\s\S]*terminal/);
    expect(group('Setup:')).toMatch(/profiles[\s\S]*help \[command\]\s+Show help for a command/);
    expect(stdout).toContain('-h, --help        Show help for the command');
    expect(stdout).not.toMatch(/display help/);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('  Use "pay <command> --help" for more about a command.');
    expect((await pay(['intents', '--help'])).stdout.trimEnd().split('\n').at(-1)).toBe('  Use "pay intents <command> --help" for more about a command.');
  });

  it('marks required flags, drops (default: false) and shows a duration default as typed', async () => {
    const create = (await pay(['webhooks', 'endpoints', 'create', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(create).toContain('--url <url> Where events are POSTed (http or https) (required; asked for at a terminal)');
    // Every value the command asks for when missing, not only some of those on one screen.
    const checkout = (await pay(['checkout', 'create', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(checkout).toContain('--success-url <url> Where the customer goes after paying (gets ?session_id=cs_…) (required; asked for at a terminal)');
    expect(checkout).toContain('--cancel-url <url> Where the page\'s cancel link goes (required; asked for at a terminal)');
    const asked = '(required; asked for at a terminal)';
    for (const [command, marked] of [
      [['refunds', 'create'], ['--payment-intent']],
      [['payment-methods', 'attach'], ['--customer']],
      [['readers', 'activate'], ['--activation-code']],
      [['profiles', 'add'], ['--base-url', '--account']],
      [['subscriptions', 'create'], ['--customer', '--payment-method', '--price', '--billing-cycle-anchor', '--interval-unit', '--interval-count']],
    ] as const) {
      const help = (await pay([...command, '--help'])).stdout.replace(/\s+/g, ' ');
      // The flag's entry: from its name to the next flag's.
      const entry = (name: string) => help.slice(help.indexOf(`${name} <`), help.indexOf(' -', help.indexOf(`${name} <`) + name.length));
      for (const name of marked) expect(entry(name), `${command.join(' ')} ${name}`).toContain(asked);
    }
    const listen = (await pay(['webhooks', 'listen', '--help'])).stdout;
    expect(listen.replace(/\s+/g, ' ')).toContain('--timeout <duration> How long the app may take to answer before the event is retried (e.g. 30s, 10m for a debugger) (default: 30s)');
    expect(listen).not.toContain('(default: false)');
    expect(listen).not.toContain('30000');
  });
});

describe('usage errors', () => {
  it('an unknown command or flag is one ✗ line with the suggestion, then a pointer to --help', async () => {
    expect(await pay(['intnets'])).toEqual({ code: 2, stdout: '', stderr: "✗ Unknown command 'intnets'. Did you mean intents?\n  Run 'pay --help' for usage." });
    expect(await pay(['customers', 'lst'])).toEqual({ code: 2, stdout: '', stderr: "✗ Unknown command 'lst'. Did you mean list?\n  Run 'pay customers --help' for usage." });
    // A group with a default command (pay sandbox clock shows the clock) is no different: a misspelt verb is not an argument of the default.
    expect(await pay(['sandbox', 'clock', 'advnce', '--days', '1'])).toEqual({ code: 2, stdout: '', stderr: "✗ Unknown command 'advnce'. Did you mean advance?\n  Run 'pay sandbox clock --help' for usage." });
    expect(await pay(['customers', 'list', '--limt', '3'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "✗ Unknown option '--limt'. Did you mean --limit?\n  Run 'pay customers list --help' for usage.",
    });
    // A flag spelled as the spec names its field (kebab or snake, with or without _id) points at the flag carrying it.
    expect(await pay(['payment-methods', 'create', '--type', 'card_present', '--terminal-reader-id', 'tmr_1'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "✗ Unknown option '--terminal-reader-id'. Did you mean --reader?\n  Run 'pay payment-methods create --help' for usage.",
    });
    expect((await pay(['payment-methods', 'create', '--terminal_reader=tmr_1'])).stderr).toMatch(/^✗ Unknown option '--terminal_reader=tmr_1'\. Did you mean --reader\?\n/);
    expect((await pay(['subscriptions', 'create', '--payment-method-id', 'pm_1'])).stderr).toMatch(/^✗ Unknown option '--payment-method-id'\. Did you mean --payment-method\?\n/);
    expect((await pay(['customers', 'list', '--nothing-like-it'])).stderr).toBe("✗ Unknown option '--nothing-like-it'\n  Run 'pay customers list --help' for usage.");
    expect((await pay(['customers', 'list', '--limit', 'many'])).stderr).toBe("✗ Invalid --limit 'many': must be a whole number.\n  Run 'pay customers list --help' for usage.");
    expect((await pay(['customers', 'get'])).stderr).toBe("✗ Missing <id>: it is required.\n  Run 'pay customers get --help' for usage.");
  });

  it('a card number typed where it does not belong is echoed as its last 4 digits only, as the service echoes one', async () => {
    const misplaced = [
      ['payment-methods', 'create', '--exp-month', '4242 4242 4242 4242', '--exp-year', '2030'],
      ['payment-methods', 'create', '--type', '4242424242424242'],
      ['payment-methods', 'create', '--card', '4242424242424242', '5555555555554444'],
    ];
    for (const args of misplaced) {
      const result = await pay(args);
      expect([result.code, result.stderr], args.join(' ')).toEqual([2, expect.stringContaining('…4')]);
      expect(result.stderr.replace(/\s/g, '')).not.toMatch(/4242424242424242|5555555555554444/);
    }
    expect((await pay(['payment-methods', 'create', '--type', '4242424242424242', '--json'])).stderr).not.toContain('4242424242424242');
  });

  it('an API key or signing secret typed where it does not belong is echoed masked, as a key is shown anywhere', async () => {
    const key = 'sk_test_m62QCng3mA1WcST3SJg55NRweZFICsDc';
    const secret = 'whsec_UOzwB/9nHCvs2ZR7Z8dt8x3Y3fwVjhTO';
    const misplaced = [
      // The key as a positional argument, as some CLIs take it.
      ['profiles', 'add', 'staging', key],
      ['sandbox', 'accounts', 'add', '--api-key-stdin', key],
      // A value given to a flag that takes none.
      ['profiles', 'add', 'staging', `--api-key-stdin=${key}`],
      ['webhooks', 'listen', secret],
      ['--profile', key, 'customers', 'list'],
    ];
    for (const args of misplaced) {
      for (const json of [[], ['--json']]) {
        const result = await pay([...args, ...json]);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toMatch(/sk_test_…CsDc|whsec_UO…jhTO/);
        expect(result.stderr).not.toContain(key);
        expect(result.stderr).not.toContain(secret);
      }
    }
  });
});
