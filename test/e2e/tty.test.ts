import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PAY_BIN, startSandbox } from './harness.js';
import { hasTool, Tmux } from './tmux.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `pay <args>` at a real terminal (tmux), with a config dir of its own. */
function payAtTerminal(args: string[], extraEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pay-tty-'));
  dirs.push(dir);
  const env = { PATH: process.env.PATH, HOME: dir, PAY_CONFIG_DIR: dir, NO_COLOR: '1', ...extraEnv };
  const command = [process.execPath, PAY_BIN, ...args].map((a) => `'${a}'`).join(' ');
  return { dir, tmux: Tmux.start(command, env) };
}

const KEY = 'sk_live_tty_prompt_0123456789abcdef';

describe.skipIf(!hasTool('tmux'))('at a real terminal (tmux)', () => {
  it('pay profiles add prompts for what is missing, the key with a password prompt that masks it', async () => {
    const { dir, tmux } = payAtTerminal(['profiles', 'add', 'staging']);
    try {
      await tmux.waitFor(/Base URL of the service/);
      tmux.type('https://staging.example.com');
      tmux.send('Enter');
      await tmux.waitFor(/Merchant account id/);
      tmux.type('acct_tty');
      tmux.send('Enter');
      await tmux.waitFor(/API key/);
      tmux.type(KEY);
      const typed = await tmux.waitFor(new RegExp(`API key.*\\*{${KEY.length}}`));
      expect(typed).not.toContain(KEY);
      tmux.send('Enter');
      const done = await tmux.waitFor(/Saved profile 'staging'/);
      expect(await tmux.exitCode()).toBe(0);
      expect(done).not.toContain(KEY);
      expect(done).toContain('sk_live_…cdef');
      const file = join(dir, 'config.json');
      expect(JSON.parse(readFileSync(file, 'utf8')).profiles.staging).toMatchObject({ base_url: 'https://staging.example.com', account: 'acct_tty', api_key: KEY });
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      tmux.kill();
    }
  });

  it('pay profiles add checks the base URL and the account id as they are typed, and asks again', async () => {
    const { dir, tmux } = payAtTerminal(['profiles', 'add', 'checked']);
    try {
      await tmux.waitFor(/Base URL of the service/);
      tmux.type('not a url');
      tmux.send('Enter');
      await tmux.waitFor(/Must be an http\(s\) URL without a user or password in it, e\.g\. https:\/\/api\.example\.com\./);
      tmux.send('C-u');
      tmux.type('https://checked.example.com');
      tmux.send('Enter');
      await tmux.waitFor(/Merchant account id/);
      tmux.type('https://checked.example.com/acct');
      tmux.send('Enter');
      await tmux.waitFor(/Must be an account id: letters, digits, _ and -, e\.g\. acct_123\./);
      expect(tmux.screen()).not.toMatch(/API key/);
      tmux.send('C-u');
      tmux.type('acct_checked');
      tmux.send('Enter');
      await tmux.waitFor(/API key/);
      tmux.type(KEY);
      tmux.send('Enter');
      expect(await tmux.exitCode()).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.checked).toMatchObject({ base_url: 'https://checked.example.com', account: 'acct_checked' });
    } finally {
      tmux.kill();
    }
  });

  it.each([
    ['--no-input', ['--no-input'], {}],
    ['CI set', [], { CI: 'true' }],
  ])('with %s it never prompts, even at a terminal: the missing flag is named', async (_name, flags, env) => {
    const { tmux } = payAtTerminal(['profiles', 'add', 'x', ...flags], env);
    try {
      expect(await tmux.exitCode()).toBe(2);
      const screen = tmux.screen();
      expect(screen).toContain('Missing --base-url');
      // An inquirer prompt starts its line with `?`.
      expect(screen).not.toMatch(/^\? /m);
    } finally {
      tmux.kill();
    }
  });

  it('Ctrl-C at a prompt cancels: exit 130, nothing written', async () => {
    const { dir, tmux } = payAtTerminal(['profiles', 'add', 'staging']);
    try {
      await tmux.waitFor(/Base URL of the service/);
      tmux.send('C-c');
      expect(await tmux.exitCode()).toBe(130);
      expect(() => statSync(join(dir, 'config.json'))).toThrow();
    } finally {
      tmux.kill();
    }
  });

  it('terminal simulate: a payment canceled while its question is open takes the question away and says so', async () => {
    const sb = await startSandbox({ clock: '2030-01-15' });
    const command = [process.execPath, PAY_BIN, 'terminal', 'simulate', '--processor', 'A', '--model', 'a-handheld'].map((a) => `'${a}'`).join(' ');
    // A person at a terminal: CI (set on the CI machine itself) would rightly turn prompts off.
    const tmux = Tmux.start(command, { ...sb.env, CI: undefined, PATH: process.env.PATH, HOME: sb.configDir });
    try {
      const reader = /Reader (tmr_\w+) online/.exec(await tmux.waitFor(/Reader tmr_\w+ online/))![1]!;
      const pm = (await sb.http('POST', '/v1/payment-methods', { type: 'card_present', terminal_reader_id: reader })).body;
      const pi = (await sb.http('POST', '/v1/payment-intents', { amount: 1000, currency: 'usd', payment_method_types: ['card_present'], confirm: true, payment_method_id: pm.id })).body;
      await tmux.waitFor(/how does the customer pay\?/);
      expect((await sb.http('POST', `/v1/payment-intents/${pi.id}/cancel`, {})).body.status).toBe('canceled');
      // Said once the prompt is gone: not erased with it, and no dead question left on the screen.
      const screen = await tmux.waitFor(new RegExp(`payment ${pi.id}: the payment intent was canceled`));
      expect(screen).not.toMatch(/how does the customer pay\?/);
    } finally {
      tmux.kill();
      await sb.stop();
    }
  });

  it('lists are tables with a header at a terminal', async () => {
    const { dir, tmux: adding } = payAtTerminal(['profiles', 'add', 'prod', '--base-url', 'https://prod.example.com', '--account', 'acct_prod', '--api-key', KEY]);
    expect(await adding.exitCode()).toBe(0);
    adding.kill();
    const tmux = Tmux.start(`'${process.execPath}' '${PAY_BIN}' profiles list`, { PATH: process.env.PATH, HOME: dir, PAY_CONFIG_DIR: dir, NO_COLOR: '1' });
    try {
      expect(await tmux.exitCode()).toBe(0);
      const lines = tmux.screen().split('\n');
      const header = lines.findIndex((line) => /NAME\s+BASE URL\s+ACCOUNT\s+API KEY/.test(line));
      expect(header).toBeGreaterThanOrEqual(0);
      expect(lines[header + 1]).toMatch(/^\*\s+prod\s+https:\/\/prod\.example\.com\s+acct_prod\s+sk_live_…cdef$/);
    } finally {
      tmux.kill();
    }
  });
});
