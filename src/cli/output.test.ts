import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox } from '../../test/support/cli.js';

const sb = cliSandbox();
let customer: { id: string };
beforeAll(async () => {
  customer = (await sb.http('POST', '/v1/customers', { email: 'out@example.com', first_name: 'Jenny' })).body;
});

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
      expect(result.code, result.stderr).toBe(0);
      expect(() => JSON.parse(result.stdout)).not.toThrow();
      expect(result.stdout.trim().startsWith('{') || result.stdout.trim().startsWith('[')).toBe(true);
    }
  });

  it('every list is the service\'s envelope {object: "list", data, has_more}, whether the service made it or pay did', async () => {
    for (const args of [['customers', 'list'], ['profiles', 'list'], ['sandbox', 'cards'], ['trigger', '--list'], ['subscriptions', 'past-due']]) {
      const list = JSON.parse((await sb.pay([...args, '--json'])).stdout);
      expect(Object.keys(list), args.join(' ')).toEqual(expect.arrayContaining(['object', 'data', 'has_more']));
      expect([list.object, Array.isArray(list.data), typeof list.has_more], args.join(' ')).toEqual(['list', true, 'boolean']);
    }
  });

  it('a command missing its verb is a usage error in the --json error shape, not help text', async () => {
    for (const args of [['customers'], [], ['webhooks', 'endpoints']]) {
      const result = await sb.pay([...args, '--json']);
      expect([result.code, result.stdout], args.join(' ')).toEqual([2, '']);
      const error = JSON.parse(result.stderr).error;
      expect(error).toMatchObject({ code: 'usage_error', exit_code: 2 });
      expect(error.message).toMatch(/^Missing <command>: /);
    }
    expect(JSON.parse((await sb.pay(['customers', '--json'])).stderr).error.message).toBe("Missing <command>: pay customers needs one of create, get, list (pay customers --help).");
    // Without --json, the help is the answer, on stderr as before.
    const human = await sb.pay(['customers']);
    expect([human.code, human.stdout]).toEqual([2, '']);
    expect(human.stderr).toContain('Usage: pay customers');
  });

  it('pay customers get --json is the object itself; an error leaves stdout empty', async () => {
    expect(JSON.parse((await sb.pay(['customers', 'get', customer.id, '--json'])).stdout)).toMatchObject({ id: customer.id, object: 'customer' });
    const missing = await sb.pay(['customers', 'get', 'cus_missing', '--json']);
    expect(missing.code).toBe(4);
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
  const { stdout: help, code: exitCode } = await sb.pay([...path, '--help']);
  // Commands are listed under headings of their groups (Commands:, Core resources:…).
  const notCommands = new Set(['Usage', 'Arguments', 'Options', 'Global Options', 'Examples', 'Learn more']);
  const section = help
    .split(/\n\n/)
    .filter((block) => /^[A-Z][\w ]*:\n/.test(block) && !notCommands.has(block.slice(0, block.indexOf(':'))))
    .join('\n');
  const names = section
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
  const children = await Promise.all(names.map((name) => helpTree([...path, name])));
  return [{ path, help, exitCode }, ...children.flat()];
}

/** A word of a shell line, and whether any of it was quoted (then the shell does not expand it). */
interface Word { text: string; quoted: boolean }

/**
 * The `pay …` commands of an example line, as a shell splits them: `$(…)` is a command
 * of its own; `&&`, `||`, `|`, `;`, `&` end one; a redirection's file, leading
 * `NAME=value` assignments and a `# comment` are not words of it.
 */
function payCommands(line: string): Word[][] {
  const inner: string[] = [];
  const outer = line.replace(/\$\(([^()]*)\)/g, (_, command: string) => (inner.push(command), 'X'));
  const commands: Word[][] = [[]];
  for (const [, op, word] of outer.matchAll(/\s*(?:(&&|\|\||[|;&]|\d?>>?|<)|((?:[^\s'"|;&<>]|'[^']*'|"[^"]*")+))/g)) {
    if (word?.startsWith('#')) break;
    if (op && !/[<>]/.test(op)) commands.push([]);
    else commands.at(-1)!.push({ text: (word ?? op!).replace(/'([^']*)'|"([^"]*)"/g, '$1$2'), quoted: /['"]/.test(word ?? '') });
  }
  // A redirection stays in its command as a word, to drop it with its file.
  const words = commands.map((c) => c.filter((w, i) => !/[<>]/.test(w.text) && !/[<>]/.test(c[i - 1]?.text ?? '')));
  const pay = words.map((c) => c.slice(c.findIndex((w) => !/^\w+=/.test(w.text)))).filter((c) => c[0]?.text === 'pay');
  return [...pay, ...inner.flatMap(payCommands)];
}

/** A command's flags as its help lists them (its own and the global ones): name → how it takes a value, and its choices. */
function helpFlags(help: string): Map<string, { value: 'none' | 'required' | 'optional'; choices?: string[] }> {
  const flags = new Map<string, { value: 'none' | 'required' | 'optional'; choices?: string[] }>();
  for (const entry of help.split(/\n(?= {2}-)|\n\n/)) {
    const match = /^ {2}(?:(-\w), )?(--[\w-]+)( <| \[)?/.exec(entry);
    if (!match) continue;
    const choices = /\(choices: ([^)]*)\)/.exec(entry.replace(/\s+/g, ' '))?.[1]!.split(', ').map((c) => c.replace(/^"|"$/g, ''));
    const flag = { value: match[3] === ' <' ? 'required' : match[3] ? 'optional' : 'none', ...(choices && { choices }) } as const;
    for (const name of [match[1], match[2]]) if (name) flags.set(name, flag);
  }
  return flags;
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
  it('every example of every command names flags that command has, with a value where it takes one, and is quoted where a shell would expand it', async () => {
    const tree = await helpTree();
    const commands = new Map(tree.map((c) => [c.path.join(' '), c.help]));
    const problems: string[] = [];
    for (const { help } of tree) {
      for (const example of help.split('\n').filter((line) => line.startsWith('  $ '))) {
        for (const [, ...words] of payCommands(example.replace(/^ {2}\$ /, ''))) {
          const say = (problem: string) => problems.push(`${example.trim()}\n    ${problem}`);
          let path = '';
          while (words.length > 0 && commands.has(`${path} ${words[0]!.text}`.trim())) path = `${path} ${words.shift()!.text}`.trim();
          const commandHelp = commands.get(path)!;
          const flags = helpFlags(commandHelp);
          const args: string[] = [];
          for (const { text } of words.filter((w) => !w.quoted && /[*?[]/.test(w.text))) say(`${text}: quote it, or the shell expands it (zsh refuses it when no file matches)`);
          for (let i = 0; i < words.length; i++) {
            const { text } = words[i]!;
            if (!text.startsWith('-')) {
              args.push(text);
              continue;
            }
            const [name, inline] = text.split(/=(.*)/s) as [string, string | undefined];
            const flag = flags.get(name);
            if (!flag) {
              say(`${name} is no option of pay ${path}`);
              continue;
            }
            if (flag.value === 'none' && inline !== undefined) say(`${name} takes no value`);
            const next = words[i + 1]?.text;
            const takes = inline === undefined && (flag.value === 'required' || (flag.value === 'optional' && next !== undefined && !next.startsWith('-')));
            if (flag.value === 'required' && inline === undefined && (next === undefined || next.startsWith('-'))) say(`${name} needs a value`);
            const value = inline ?? (takes ? next : undefined);
            if (takes) i++;
            if (value !== undefined && flag.choices && !flag.choices.includes(value)) say(`${name} ${value}: choose from ${flag.choices.join(', ')}`);
          }
          const required = (/^Usage: .*$/m.exec(commandHelp)![0].match(/<[^>]+>/g) ?? []).length;
          if (args.length < required) say(`pay ${path} needs ${required} argument(s), got ${args.length}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
  it('pay --version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const result = await sb.pay(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: version });
  });
});

describe('--json fields: one field list for every command (gh\'s --json id,status)', () => {
  it('keeps only the fields named, of an object and of each item of a list', async () => {
    const one = await sb.pay(['customers', 'get', customer.id, '--json', 'id,email']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ id: customer.id, email: 'out@example.com' });
    const list = JSON.parse((await sb.pay(['customers', 'list', '--json', 'id'])).stdout);
    expect(list).toMatchObject({ object: 'list', has_more: false });
    expect(list.data).toContainEqual({ id: customer.id });
    expect(list.data.every((c: object) => Object.keys(c).join() === 'id')).toBe(true);
    // Also after the id, and as --json=…
    expect(JSON.parse((await sb.pay(['customers', 'get', '--json=id,created', customer.id])).stdout)).toEqual({ id: customer.id, created: expect.any(String) });
    // An id after a bare --json is the command's argument, not a field list.
    expect(JSON.parse((await sb.pay(['customers', 'get', '--json', customer.id])).stdout)).toMatchObject({ id: customer.id, object: 'customer' });
  });

  it('an unknown field is a usage error naming it and the valid ones, before any request (exit 2)', async () => {
    const before = (await sb.http('GET', '/v1/customers?limit=100')).body.data.length;
    const result = await sb.pay(['customers', 'create', '--email', 'fields@example.com', '--json', 'id,emial']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr).error;
    expect(error).toMatchObject({ code: 'usage_error', exit_code: 2 });
    expect(error.message).toContain("Unknown --json field 'emial'");
    expect(error.message).toContain('id, object, created, livemode, email, first_name');
    expect((await sb.http('GET', '/v1/customers?limit=100')).body.data.length).toBe(before);
  });

  it('commands that print plain objects select the same way (profiles, sandbox cards)', async () => {
    expect(JSON.parse((await sb.pay(['profiles', 'list', '--json', 'name,default'])).stdout)).toEqual({ object: 'list', data: [{ name: 'sandbox', default: true }], has_more: false });
    const cards = JSON.parse((await sb.pay(['sandbox', 'cards', '--json', 'number'])).stdout);
    expect(cards.data[0]).toEqual({ number: '4242424242424242' });
    const bad = await sb.pay(['sandbox', 'cards', '--json', 'nope']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.message).toMatch(/Unknown --json field 'nope': choose from number, /);
  });
});

describe('--json fields on the commands with output of their own', () => {
  it('pay api selects from the answer, and prints an error body whole', async () => {
    expect(JSON.parse((await sb.pay(['api', 'GET', `/v1/customers/${customer.id}`, '--json', 'id,email'])).stdout)).toEqual({ id: customer.id, email: 'out@example.com' });
    const missing = await sb.pay(['api', 'GET', '/v1/customers/cus_missing', '--json', 'id']);
    expect(missing.code).toBe(4);
    expect(JSON.parse(missing.stdout).error).toMatchObject({ code: 'resource_missing' });
  });

  it('pay api: a field the answer lacks, known only after the request, never loses a write: null, and a warning naming it', async () => {
    const result = await sb.pay(['api', 'POST', '/v1/customers', '-f', 'email=api-fields@example.com', '--json', 'id,emial']);
    // Not a usage error (exit 2 says nothing was sent): the customer exists, and its id is printed.
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual({ id: expect.stringMatching(/^cus_/), emial: null });
    expect((await sb.http('GET', `/v1/customers/${printed.id}`)).body.email).toBe('api-fields@example.com');
    expect(result.stderr).toBe("! The answer has no field 'emial' (printed as null); its fields: id, object, created, livemode, email, first_name, middle_name, last_name, phone, metadata.");
  });

  it('trigger: the run\'s fields, or with --list the flows\'; an unknown one before any request', async () => {
    const run = JSON.parse((await sb.pay(['trigger', 'customer.created', '--json', 'flow,created'])).stdout);
    expect(Object.keys(run)).toEqual(['flow', 'created']);
    expect(run.created.customer).toMatch(/^cus_/);
    // A field named as a command is (events): after the command's words, a word after --json is its list.
    const events = await sb.pay(['trigger', 'customer.created', '--json', 'events']);
    expect([events.code, events.stderr]).toEqual([0, '']);
    expect(JSON.parse(events.stdout)).toEqual({ events: ['customer.created'] });
    expect(JSON.parse((await sb.pay(['--json', 'events', 'list', '--limit', '1'])).stdout)).toMatchObject({ object: 'list' });
    expect(JSON.parse((await sb.pay(['events', '--json', 'list', '--limit', '1'])).stdout)).toMatchObject({ object: 'list' });
    // While an argument is awaited, a command's name after --json is that argument (a profile named sandbox).
    expect(JSON.parse((await sb.pay(['profiles', 'use', '--json', 'sandbox'])).stdout)).toEqual({ default_profile: 'sandbox' });
    const flows = JSON.parse((await sb.pay(['trigger', '--list', '--json', 'name'])).stdout);
    expect(JSON.parse((await sb.pay(['trigger', '--list', '--json', 'events'])).stdout).data[0]).toEqual({ events: ['customer.created'] });
    expect(flows.data).toContainEqual({ name: 'payment_intent.succeeded' });
    const before = (await sb.http('GET', '/v1/customers?limit=100')).body.data.length;
    const bad = await sb.pay(['trigger', 'customer.created', '--json', 'name']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.message).toBe("Unknown --json field 'name': choose from flow, created, events, steps.");
    expect((await sb.http('GET', '/v1/customers?limit=100')).body.data.length).toBe(before);
  });

  it('a bare --json before the argument a command still needs: the word is that argument, not a field list', async () => {
    const added = await sb.pay(['profiles', 'add', 'staging', '--base-url', 'https://x.example.com', '--account', 'acct_x', '--api-key', 'sk_test_json_0123456789']);
    expect(added.code, added.stderr).toBe(0);
    const used = await sb.pay(['profiles', 'use', '--json', 'staging']);
    expect([used.code, used.stderr]).toEqual([0, '']);
    expect(JSON.parse(used.stdout)).toEqual({ default_profile: 'staging' });
    expect((await sb.pay(['profiles', 'use', 'sandbox'])).code).toBe(0);
    // One of the values an optional argument takes is that argument.
    const completion = await sb.pay(['completion', '--json', 'bash']);
    expect([completion.code, JSON.parse(completion.stdout).shell]).toEqual([0, 'bash']);
    // With the argument still to come, the word is a field list.
    const customer = await sb.json(['customers', 'create', '--email', 'fields@example.com']);
    expect(JSON.parse((await sb.pay(['customers', 'get', '--json', 'id,email', customer.id])).stdout)).toEqual({ id: customer.id, email: 'fields@example.com' });
  });

  it('support\'s past-due list and a batch\'s dry run select from their rows', async () => {
    expect(JSON.parse((await sb.pay(['subscriptions', 'past-due', '--json', 'subscription_id,retry'])).stdout)).toMatchObject({ object: 'list', data: [] });
    const bad = await sb.pay(['subscriptions', 'retry-past-due', '--dry-run', '--json', 'counts']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.message).toContain("Unknown --json field 'counts': choose from subscription_id, customer_id");
  });

  it('streams of several kinds of line (listen, simulate) refuse a field list, before connecting', async () => {
    for (const args of [['webhooks', 'listen', '--forward-to', 'http://127.0.0.1:9/hooks'], ['terminal', 'simulate', '--processor', 'A', '--model', 'a-countertop']]) {
      const result = await sb.pay([...args, '--json', 'type']);
      expect(result.code).toBe(2);
      expect(JSON.parse(result.stderr).error.message).toMatch(/^Invalid --json type: (listen|simulate) prints JSON lines of several kinds; give --json alone\.$/);
    }
    expect((await sb.pay(['webhooks', 'listen', '--help'])).stdout).toContain('A field list (--json a,b) does not apply here.');
  });
});

describe('errors under --json: one JSON object on stderr', () => {
  it('a service error carries type, code, message, param, status and the exit code', async () => {
    const missing = await sb.pay(['customers', 'get', 'cus_missing', '--json']);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(missing.stderr)).toEqual({
      error: { type: 'not_found_error', code: 'resource_missing', message: "No such customer: 'cus_missing'.", param: 'id', status: 404, exit_code: 4 },
    });
    const human = await sb.pay(['customers', 'get', 'cus_missing']);
    expect(human.stderr).toBe("✗ No such customer: 'cus_missing'. (resource_missing · param: id · HTTP 404)");
  });

  it('a usage error, commander\'s included, is an object too', async () => {
    const bad = await sb.pay(['customers', 'create', '--email', 'nope', '--json']);
    expect(JSON.parse(bad.stderr)).toEqual({ error: { code: 'usage_error', message: expect.stringContaining('Invalid --email'), exit_code: 2 } });
    const flag = await sb.pay(['customers', 'list', '--limt', '3', '--json']);
    expect(flag.code).toBe(2);
    expect(JSON.parse(flag.stderr).error).toMatchObject({ code: 'usage_error', message: "Unknown option '--limt'. Did you mean --limit?", exit_code: 2 });
  });
});
