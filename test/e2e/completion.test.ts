import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runPay } from './harness.js';
import { hasTool, payOnPath, Tmux } from './tmux.js';

const SCRIPTS = fileURLToPath(new URL('../../completions/', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'pay-completion-'));
const bin = payOnPath();
const env = baseEnv(configDir, { PATH: bin.path });

beforeAll(async () => {
  for (const name of ['staging', 'prod']) {
    const added = await runPay(['profiles', 'add', name, '--base-url', 'https://api.example.com', '--account', 'acct_1', '--api-key', 'sk_test_completion_0123456789'], { env });
    expect(added.exitCode).toBe(0);
  }
});
afterAll(() => {
  rmSync(configDir, { recursive: true, force: true });
  bin.remove();
});

describe('pay completion', () => {
  it.each(['bash', 'zsh', 'fish'])('the checked-in %s script is what the command tree generates now', async (shell) => {
    const generated = await runPay(['completion', shell], { env });
    expect(generated.exitCode).toBe(0);
    const checkedIn = readFileSync(join(SCRIPTS, `pay.${shell}`), 'utf8');
    // When this fails, the commands changed: run `npm run completions` and commit completions/.
    expect(checkedIn, `completions/pay.${shell} is stale: run npm run completions`).toBe(`${generated.stdout}\n`);
  });

  it('with --json, prints the script as a field of one JSON object', async () => {
    const result = await runPay(['completion', 'fish', '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ shell: 'fish', script: readFileSync(join(SCRIPTS, 'pay.fish'), 'utf8') });
  });

  it('rejects an unknown shell as a usage error', async () => {
    const result = await runPay(['completion', 'powershell'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('bash, zsh, fish');
  });
});

/** What bash completes for a command line ending in `words` (the last one being typed). */
function bashComplete(...words: string[]): string[] {
  const script = `source ${join(SCRIPTS, 'pay.bash')}; COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _pay; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script, 'bash', 'pay', ...words], { env: env as NodeJS.ProcessEnv, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

describe('bash completion (the checked-in script, in bash)', () => {
  it('completes commands, subcommands and flags of the tree', () => {
    expect(bashComplete('')).toEqual(expect.arrayContaining(['api', 'customers', 'profiles', 'sandbox', 'completion']));
    expect(bashComplete('cus')).toEqual(['customers']);
    expect(bashComplete('customers', '')).toEqual(expect.arrayContaining(['create', 'get', 'list']));
    expect(bashComplete('sandbox', 'accounts', '')).toContain('add');
    expect(bashComplete('customers', 'create', '--m')).toEqual(['--metadata', '--middle-name']);
    expect(bashComplete('customers', 'list', '--')).toEqual(expect.arrayContaining(['--limit', '--starting-after', '--json', '--profile', '--no-input']));
    expect(bashComplete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('completes the flows of pay trigger and the values of terminal simulate\'s flags, as on readers', () => {
    expect(bashComplete('trigger', '')).toEqual(expect.arrayContaining(['payment_intent.succeeded', 'subscription.active', 'checkout.completed']));
    expect(bashComplete('trigger', 'subscription.')).toEqual(['subscription.active', 'subscription.past_due']);
    expect(bashComplete('terminal', 'simulate', '--processor', '')).toEqual(['A', 'B']);
    expect(bashComplete('terminal', 'simulate', '--model', 'b-')).toEqual(['b-countertop', 'b-handheld', 'b-mobile']);
    expect(bashComplete('terminal', 'simulate', '--method', '')).toEqual(bashComplete('readers', 'present', 'tmr_1', '--method', ''));
    expect(bashComplete('terminal', 'simulate', '--outcome', '')).toEqual(bashComplete('readers', 'present', 'tmr_1', '--outcome', ''));
    expect(bashComplete('terminal', 'simulate', '--outcome', '')).toContain('insufficient_funds');
  });

  it('completes profile names for --profile from the profiles on disk', () => {
    expect(bashComplete('--profile', '').sort()).toEqual(['prod', 'staging']);
    expect(bashComplete('customers', 'list', '--profile', 'st')).toEqual(['staging']);
    expect(bashComplete('profiles', 'use', '')).toEqual(['prod', 'staging']);
  });

  it('skips flag values when finding the command', () => {
    expect(bashComplete('--profile', 'staging', 'cu')).toEqual(['customers']);
    expect(bashComplete('customers', 'list', '--limit', '5', '--st')).toEqual(['--starting-after']);
  });

  it('takes the word after --json (its field list optional) for what it is: a command, a flag, or the list', () => {
    expect(bashComplete('--json', 'cus')).toEqual(['customers']);
    expect(bashComplete('customers', '--json', '')).toEqual(expect.arrayContaining(['create', 'get', 'list']));
    expect(bashComplete('customers', 'list', '--json', '--l')).toEqual(['--limit']);
    expect(bashComplete('customers', 'list', '--json', 'id,email', '--l')).toEqual(['--limit']);
  });
});

describe.skipIf(!hasTool('fish'))('fish completion (the checked-in script, in fish)', () => {
  const fish = (line: string) =>
    execFileSync('fish', ['--no-config', '-c', `source ${join(SCRIPTS, 'pay.fish')}; complete -C ${JSON.stringify(line)}`], { env: env as NodeJS.ProcessEnv, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]);

  it('completes commands, flags and profile names', () => {
    expect(fish('pay cus')).toEqual(['customers']);
    expect(fish('pay customers create --fi')).toEqual(['--first-name']);
    expect(fish('pay --profile ').sort()).toEqual(['prod', 'staging']);
    expect(fish('pay --profile staging sand')).toEqual(['sandbox']);
    expect(fish('pay completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(fish('pay trigger charge')).toEqual(['charge.refunded']);
    expect(fish('pay terminal simulate --processor ').sort()).toEqual(['A', 'B']);
  });
});

describe.skipIf(!hasTool('zsh') || !hasTool('tmux'))('zsh completion (the checked-in script, in zsh at a terminal)', () => {
  it('completes a command, a flag and a profile name on Tab', async () => {
    const zsh = Tmux.start('zsh -f', { ...env, HOME: configDir });
    try {
      zsh.type(`autoload -Uz compinit && compinit -u -d ${configDir}/zcompdump && source ${join(SCRIPTS, 'pay.zsh')} && echo READY`);
      zsh.send('Enter');
      await zsh.waitFor(/^READY$/m);
      zsh.type('pay customers cr');
      zsh.send('Tab');
      await zsh.waitFor(/pay customers create$/m);
      zsh.type('--fir');
      zsh.send('Tab');
      await zsh.waitFor(/pay customers create --first-name$/m);
      zsh.send('C-u');
      zsh.type('pay --profile st');
      zsh.send('Tab');
      await zsh.waitFor(/pay --profile staging$/m);
    } finally {
      zsh.kill();
    }
  });
});
