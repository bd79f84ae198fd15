import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
let customer: { id: string };
beforeAll(async () => {
  sb = await startSandbox();
  customer = (await sb.http('POST', '/v1/customers', { email: 'out@example.com', first_name: 'Jenny' })).body;
});
afterAll(async () => sb?.stop());

describe('--json: stdout is the JSON value and nothing else', () => {
  it.each([
    [['customers', 'create', '--email', 'json@example.com']],
    [['customers', 'list']],
    [['profiles', 'list']],
    [['profiles', 'show']],
    [['sandbox', 'status']],
    [['api', 'GET', '/v1/customers']],
  ])('pay %s --json (and with --verbose)', async (args) => {
    for (const extra of [[], ['--verbose']]) {
      const result = await sb.pay([...args, '--json', ...extra]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(() => JSON.parse(result.stdout)).not.toThrow();
      expect(result.stdout.trim().startsWith('{') || result.stdout.trim().startsWith('[')).toBe(true);
    }
  });

  it('pay customers get --json is the object itself; an error leaves stdout empty', async () => {
    expect(JSON.parse((await sb.pay(['customers', 'get', customer.id, '--json'])).stdout)).toMatchObject({ id: customer.id, object: 'customer' });
    const missing = await sb.pay(['customers', 'get', 'cus_missing', '--json']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stdout).toBe('');
  });
});

describe('piped output is plain TSV', () => {
  it('lists are rows of tab-separated fields with no header and no colour', async () => {
    const result = await sb.pay(['customers', 'list'], { env: { NO_COLOR: undefined } });
    const lines = result.stdout.split('\n');
    expect(lines.every((line) => line.startsWith('cus_'))).toBe(true);
    expect(lines.find((line) => line.startsWith(customer.id))!.split('\t')).toEqual([customer.id, 'out@example.com', 'Jenny', expect.any(String)]);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('one object is key<TAB>value lines', async () => {
    const result = await sb.pay(['customers', 'get', customer.id]);
    expect(result.stdout).toContain(`id\t${customer.id}\n`);
    expect(result.stdout).toContain('email\tout@example.com\n');
  });
});

describe('colour: never with NO_COLOR or --no-color', () => {
  const hasColour = (text: string) => text.includes('\u001b[');
  it('FORCE_COLOR colours messages; NO_COLOR and --no-color take it away', async () => {
    const forced = await sb.pay(['customers', 'get', 'cus_missing'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(hasColour(forced.stderr)).toBe(true);
    const noColor = await sb.pay(['customers', 'get', 'cus_missing'], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(hasColour(noColor.stderr)).toBe(false);
    const flag = await sb.pay(['customers', 'get', 'cus_missing', '--no-color'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(hasColour(flag.stderr)).toBe(false);
    expect(flag.stderr).toContain('resource_missing');
  });
});

/** Every command path with its help text, read from the help of the program itself. */
async function helpTree(path: string[] = []): Promise<Array<{ path: string[]; help: string; exitCode: number }>> {
  const { stdout: help, exitCode } = await sb.pay([...path, '--help']);
  const section = help.split(/\nCommands:\n/)[1]?.split(/\n\n/)[0] ?? '';
  const names = section
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
  const children = await Promise.all(names.map((name) => helpTree([...path, name])));
  return [{ path, help, exitCode }, ...children.flat()];
}

describe('help', () => {
  it('every command, noun and verb, has examples in its help', async () => {
    const tree = await helpTree();
    expect(tree.map((c) => c.path.join(' '))).toEqual(expect.arrayContaining(['customers create', 'profiles add', 'sandbox accounts add', 'api', 'completion']));
    for (const { path, help, exitCode } of tree) {
      expect(exitCode).toBe(0);
      expect(help, `pay ${path.join(' ')} --help`).toMatch(/\nExamples:\n {2}\$ pay /);
    }
  });
  it('pay --version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const result = await sb.pay(['--version']);
    expect(result).toMatchObject({ exitCode: 0, stdout: version });
  });
});
