import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, configDirs, readConfig as config, runPay, type SandboxHandle, startSandbox } from './harness.js';
import { freePort } from './net.js';

const configDir = configDirs('pay-sandbox-');
let made = 0;
/** A config dir of its own, with the sandbox's account and key fixed by the environment as in CI. */
function ciEnv() {
  const dir = configDir();
  made++;
  const account = `acct_ci${made}x${process.pid}`;
  const apiKey = `sk_test_ci_${made}_${process.pid}_abcdefghijklmnopqrstuvwxyz`;
  return { dir, account, apiKey, env: baseEnv(dir, { PAY_SANDBOX_ACCOUNT: account, PAY_SANDBOX_API_KEY: apiKey }) };
}

describe('pay sandbox start --detach | status | stop', () => {
  it('starts in the background, prints one JSON ready line, writes the sandbox profile and its state', async () => {
    const { dir, account, apiKey, env } = ciEnv();
    const started = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env });
    expect(started.exitCode, started.stderr).toBe(0);
    const ready = JSON.parse(started.stdout);
    expect(ready).toEqual({ base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), account, pid: expect.any(Number) });
    expect(started.stdout + started.stderr).not.toContain(apiKey);

    const file = config(dir);
    expect(file.default_profile).toBe('sandbox');
    expect(file.profiles.sandbox).toMatchObject({ base_url: ready.base_url, account, api_key: apiKey, sandbox: true });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'))).toMatchObject({ pid: ready.pid, base_url: ready.base_url });

    const status = await runPay(['sandbox', 'status', '--json'], { env });
    expect(status.exitCode).toBe(0);
    // What a user can act on: not the kernel's start time of the process, kept to tell it from a later one given its pid.
    expect(JSON.parse(status.stdout)).toEqual({ running: true, pid: ready.pid, base_url: ready.base_url, account, db: ':memory:', started: expect.any(String) });
    const human = await runPay(['sandbox', 'status'], { env });
    expect(human.stdout).not.toMatch(/proc_start/);
    expect((await runPay(['sandbox', 'status', '--json', 'proc_start'], { env })).exitCode).toBe(2);

    const again = await runPay(['sandbox', 'start', '--detach', '--json'], { env });
    expect(JSON.parse(again.stdout)).toEqual(ready);
    expect((await runPay(['sandbox', 'start', '--detach', '--memory', '--json'], { env })).exitCode).toBe(0);
    // Settings the running sandbox does not have are never dropped in silence; a second one in the foreground is a conflict too.
    for (const args of [['--detach', '--clock', '2040-01-01'], ['--detach', '--db', join(dir, 'other.db')], ['--detach', '--host', '0.0.0.0'], ['--port', '0', '--memory']]) {
      const refused = await runPay(['sandbox', 'start', ...args, '--json'], { env });
      expect({ exit: refused.exitCode, stdout: refused.stdout }).toEqual({ exit: 5, stdout: '' });
      expect(refused.stderr).toContain(`already running at ${ready.base_url} (pid ${ready.pid})`);
      if (args.includes('--clock')) expect(refused.stderr).toContain('--clock cannot apply');
      if (args.includes('--host')) expect(refused.stderr).toContain('--host 0.0.0.0 cannot apply');
    }
    // The address it listens on, asked for again, is no difference.
    expect((await runPay(['sandbox', 'start', '--detach', '--host', '127.0.0.1', '--json'], { env })).exitCode).toBe(0);

    const created = await runPay(['customers', 'create', '--email', 'detached@example.com', '--json'], { env });
    expect(created.exitCode, created.stderr).toBe(0);

    const stopped = await runPay(['sandbox', 'stop', '--json'], { env });
    expect(JSON.parse(stopped.stdout)).toEqual({ stopped: true, pid: ready.pid });
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
    const after = await runPay(['sandbox', 'status', '--json'], { env });
    expect(after.exitCode).toBe(7);
    expect(JSON.parse(after.stdout)).toEqual({ running: false });
  });

  it('sandbox reset without --yes in a script is refused before anything: a stopped sandbox is not started for it', async () => {
    const { dir, env } = ciEnv();
    await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory'], { env });
    await runPay(['sandbox', 'stop'], { env });
    const refused = await runPay(['sandbox', 'reset'], { env });
    expect({ exit: refused.exitCode, stdout: refused.stdout }).toEqual({ exit: 2, stdout: '' });
    expect(refused.stderr).toMatch(/^✗ Missing --yes: reset erases every object and event/);
    expect(refused.stderr).not.toMatch(/starting it|Sandbox started/);
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
  });

  it('status of a sandbox whose process runs but does not answer (stopped by Ctrl-Z, stuck) says so, not that none runs', async () => {
    const { env } = ciEnv();
    const ready = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env })).stdout);
    process.kill(ready.pid, 'SIGSTOP');
    try {
      const status = await runPay(['sandbox', 'status'], { env });
      expect({ exit: status.exitCode, stdout: status.stdout }).toEqual({ exit: 7, stdout: '' });
      expect(status.stderr).toBe(
        `✗ The sandbox (pid ${ready.pid}) runs but does not answer at ${ready.base_url}: it may be suspended (Ctrl-Z) or stuck. Stop it with: pay sandbox stop`,
      );
    } finally {
      process.kill(ready.pid, 'SIGCONT');
    }
  });

  it('a command whose profile is the stopped sandbox starts it, says so on stderr, and keeps stdout clean', async () => {
    const { dir, env } = ciEnv();
    const first = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env })).stdout);
    const created = JSON.parse((await runPay(['customers', 'create', '--email', 'kept@example.com', '--json'], { env })).stdout);
    await runPay(['sandbox', 'stop'], { env });

    const list = await runPay(['customers', 'list', '--json'], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stderr).toContain('The sandbox is not running: starting it in the background');
    expect(list.stderr).toContain('Sandbox started at');
    // The same port and the same database file: the data is still there.
    expect(JSON.parse(list.stdout).data.map((c: { id: string }) => c.id)).toContain(created.id);
    const state = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'));
    expect(state.base_url).toBe(first.base_url);
    expect(state.pid).not.toBe(first.pid);

    const next = await runPay(['customers', 'list', '--json'], { env });
    expect(next.stderr).toBe('');
  });

  it('--clock starts new accounts\' clocks: an account the database has keeps its own, and the start says so, detached too', async () => {
    const { dir, env, account } = ciEnv();
    const first = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--clock', '2030-01-01', '--json'], { env });
    expect({ exit: first.exitCode, stderr: first.stderr }).toEqual({ exit: 0, stderr: '' });
    expect((await runPay(['sandbox', 'clock', 'advance', '--days', '3', '--json'], { env })).exitCode).toBe(0);
    await runPay(['sandbox', 'stop'], { env });
    const again = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--clock', '2030-01-01', '--json'], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ account });
    expect(again.stderr).toBe(
      `! --clock 2030-01-01 starts new accounts' clocks only: ${account} keeps its own, at 2030-01-04T00:00:00Z ` +
        '(pay sandbox reset --yes erases its objects and starts it again at 2030-01-01T00:00:00Z).',
    );
    expect(JSON.parse((await runPay(['sandbox', 'clock', '--json'], { env })).stdout).now).toBe('2030-01-04T00:00:00Z');
    expect(readFileSync(join(dir, 'sandbox.log'), 'utf8')).toContain('keeps its own');
  });

  it('keeps sandbox.log its owner\'s only, one left readable by others included: a detached sandbox writes its errors there', async () => {
    const { dir, env } = ciEnv();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'sandbox.log'), '', { mode: 0o644 });
    chmodSync(join(dir, 'sandbox.log'), 0o644);
    expect((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env })).exitCode).toBe(0);
    await runPay(['sandbox', 'stop'], { env });
    expect(statSync(join(dir, 'sandbox.log')).mode & 0o777).toBe(0o600);
  });

  it('started on a --db file of its own, a stopped sandbox is started on demand on that file: its data and its clock', async () => {
    const { dir, env } = ciEnv();
    const db = join(dir, 'own', 'shop.db');
    mkdirSync(dirname(db));
    const first = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--clock', '2031-05-01', '--json'], { env })).stdout);
    const created = JSON.parse((await runPay(['customers', 'create', '--email', 'own@example.com', '--json'], { env })).stdout);
    await runPay(['sandbox', 'stop'], { env });

    const list = await runPay(['customers', 'list', '--json'], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stderr).toContain(`, on ${db}`);
    expect(JSON.parse(list.stdout).data.map((c: { id: string }) => c.id)).toContain(created.id);
    expect(JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'))).toMatchObject({ base_url: first.base_url, db });
    expect(JSON.parse((await runPay(['sandbox', 'clock', '--json'], { env })).stdout).now).toMatch(/^2031-05-01T/);
  });

  it('with no profile at all, the first command starts a sandbox and makes it its default profile', async () => {
    const { dir, account, env } = ciEnv();
    // Not the default port, which another run may hold: the environment names where to start it.
    const port = await freePort();
    const list = await runPay(['customers', 'list', '--json'], { env: { ...env, PAY_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stderr).toContain(`starting it in the background on port ${port}`);
    expect(JSON.parse(list.stdout)).toMatchObject({ object: 'list', data: [] });
    expect(config(dir)).toMatchObject({ default_profile: 'sandbox', profiles: { sandbox: { account, base_url: `http://127.0.0.1:${port}` } } });
  });

  it('the quick start: with nothing configured, pay trigger starts the sandbox on the default port, or a free one when it is taken', async () => {
    const { dir, env } = ciEnv();
    const run = await runPay(['trigger', 'payment_intent.succeeded', '--json'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('The sandbox is not running: starting it in the background on port 12111');
    expect(JSON.parse(run.stdout)).toMatchObject({ flow: 'payment_intent.succeeded' });
    expect(config(dir).profiles.sandbox.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('does not take the default from another profile', async () => {
    const { dir, env } = ciEnv();
    await runPay(['profiles', 'add', 'prod', '--base-url', 'https://prod.example.com', '--account', 'acct_p', '--api-key', 'sk_live_0123456789abcdef'], { env });
    const started = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env });
    expect(started.exitCode).toBe(0);
    expect(config(dir).default_profile).toBe('prod');
    expect(config(dir).profiles.sandbox.sandbox).toBe(true);
  });

  it('a port in use is a usage error saying so on the terminal, with the flag that fixes it, in the foreground and detached', async () => {
    const { env } = ciEnv();
    const first = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env })).stdout);
    const port = new URL(first.base_url).port;
    const said = `✗ Port ${port} is in use; choose another with --port N (or --port 0 for any free port).`;
    const { env: other } = ciEnv();
    const foreground = await runPay(['sandbox', 'start', '--port', port, '--memory'], { env: other });
    expect({ exit: foreground.exitCode, stderr: foreground.stderr }).toEqual({ exit: 2, stderr: said });
    const detached = await runPay(['sandbox', 'start', '--detach', '--port', port, '--memory'], { env: other });
    expect({ exit: detached.exitCode, stderr: detached.stderr }).toEqual({ exit: 2, stderr: said });
  });

  it('a database file serves one sandbox: another start on it is a conflict naming the one that has it, in the foreground and detached', async () => {
    const { dir, env } = ciEnv();
    const db = join(dir, 'shared.db');
    const first = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--json'], { env })).stdout);
    const said = `✗ The database ${db} is in use by another sandbox (pid ${first.pid}): stop it (pay sandbox stop, with its config dir), or start this one with another --db or --memory.`;
    const { env: other } = ciEnv();
    const foreground = await runPay(['sandbox', 'start', '--port', '0', '--db', db], { env: other, timeout: 20_000 });
    expect({ exit: foreground.exitCode, stderr: foreground.stderr }).toEqual({ exit: 5, stderr: said });
    const detached = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', db], { env: other });
    expect({ exit: detached.exitCode, stderr: detached.stderr }).toEqual({ exit: 5, stderr: said });
    // Once it stops, the file is free.
    expect((await runPay(['sandbox', 'stop'], { env })).exitCode).toBe(0);
    const second = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--json'], { env: other });
    expect(second.exitCode).toBe(0);
  });

  it('a database file reached through a symbolic link is that file: in use while another sandbox has it, served through the link once free', async () => {
    const { dir, env } = ciEnv();
    const db = join(dir, 'shared.db');
    const first = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--json'], { env })).stdout);
    const { dir: otherDir, env: other } = ciEnv();
    const link = join(otherDir, 'link.db');
    symlinkSync(db, link);
    const said = `✗ The database ${db} is in use by another sandbox (pid ${first.pid}): stop it (pay sandbox stop, with its config dir), or start this one with another --db or --memory.`;
    const foreground = await runPay(['sandbox', 'start', '--port', '0', '--db', link], { env: other, timeout: 20_000 });
    expect({ exit: foreground.exitCode, stderr: foreground.stderr }).toEqual({ exit: 5, stderr: said });
    const detached = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', link], { env: other });
    expect({ exit: detached.exitCode, stderr: detached.stderr }).toEqual({ exit: 5, stderr: said });
    expect((await runPay(['sandbox', 'stop'], { env })).exitCode).toBe(0);
    const second = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', link, '--json'], { env: other });
    expect(second.exitCode, second.stderr).toBe(0);
    // The file's own key, beside it: not a second one beside the link.
    expect(existsSync(`${link}.key`)).toBe(false);
    // The same file by its other name, in the config dir whose sandbox runs on it: that sandbox, not a conflict.
    const again = await runPay(['sandbox', 'start', '--detach', '--port', '0', '--db', db, '--json'], { env: other });
    expect({ exit: again.exitCode, stderr: again.stderr }).toEqual({ exit: 0, stderr: '' });
    expect(JSON.parse(again.stdout).pid).toBe(JSON.parse(second.stdout).pid);
  });

  it('refuses a host that is no address, and a --db whose folder is missing or that is a folder, before starting anything (exit 2)', async () => {
    const { dir, env } = ciEnv();
    for (const [args, said] of [
      [['--host', ''], "✗ Invalid --host '': must be an IP address or a host name, e.g. 127.0.0.1 or localhost."],
      [['--host', 'not a host'], "✗ Invalid --host 'not a host': must be an IP address or a host name, e.g. 127.0.0.1 or localhost."],
      [['--db', join(dir, 'missing', 'x.db')], `✗ Invalid --db: its folder ${join(dir, 'missing')} does not exist.`],
      [['--db', dir], `✗ Invalid --db: ${dir} is a folder; name a file, e.g. ${join(dir, 'sandbox.db')}.`],
    ] as const) {
      for (const detach of [[], ['--detach']]) {
        const result = await runPay(['sandbox', 'start', '--port', '0', ...args, ...detach], { env, timeout: 20_000 });
        expect({ exit: result.exitCode, stderr: result.stderr }, args.join(' ')).toEqual({ exit: 2, stderr: said });
      }
    }
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
  });

  it('refuses an account or key from the environment that the service would refuse, naming the variable, before writing any profile (exit 2)', async () => {
    const { dir, env } = ciEnv();
    for (const [variables, said] of [
      [{ PAY_SANDBOX_ACCOUNT: 'bad id' }, "✗ Invalid PAY_SANDBOX_ACCOUNT 'bad id': must start with acct_ and use letters, digits and _."],
      [{ PAY_SANDBOX_API_KEY: 'short' }, '✗ Invalid PAY_SANDBOX_API_KEY: must be at least 16 characters.'],
    ] as const) {
      for (const detach of [[], ['--detach']]) {
        const result = await runPay(['sandbox', 'start', '--port', '0', '--memory', ...detach], { env: { ...env, ...variables }, timeout: 20_000 });
        expect({ exit: result.exitCode, stderr: result.stderr }, JSON.stringify(variables)).toEqual({ exit: 2, stderr: said });
      }
    }
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('auto-start finds its port taken, takes a free one and records it in the sandbox profile', async () => {
    // The sandbox profile records the port of its last run…
    const { dir, env } = ciEnv();
    const taken = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env })).stdout).base_url as string;
    await runPay(['sandbox', 'stop'], { env });
    // …which another program has taken since.
    const { env: holder } = ciEnv();
    const held = await runPay(['sandbox', 'start', '--detach', '--port', new URL(taken).port, '--memory', '--json'], { env: holder });
    expect(held.exitCode, held.stderr).toBe(0);
    // A command that needs the sandbox up before anything else starts it.
    const clock = await runPay(['sandbox', 'clock', '--json'], { env });
    expect(clock.exitCode, clock.stderr).toBe(0);
    expect(clock.stderr).toContain(`Port ${new URL(taken).port} is in use: starting it on a free port instead`);
    expect(JSON.parse(clock.stdout)).toMatchObject({ object: 'test_clock' });
    const recorded = config(dir).profiles.sandbox.base_url as string;
    expect(recorded).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(recorded).not.toBe(taken);
    // The next command finds it where the profile says.
    const next = await runPay(['customers', 'list', '--json'], { env });
    expect({ exit: next.exitCode, stderr: next.stderr }).toEqual({ exit: 0, stderr: '' });
  });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the key of a sandbox that is gone', () => {
  it('with the sandbox profile removed while its sandbox runs, a command says so and what to do, never crashing', async () => {
    const { env } = ciEnv();
    const started = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env })).stdout);
    expect((await runPay(['profiles', 'remove', 'sandbox', '--yes'], { env })).exitCode).toBe(0);
    const listed = await runPay(['customers', 'list'], { env });
    expect(listed).toEqual({
      exitCode: 3,
      stdout: '',
      stderr: `✗ The sandbox runs at ${started.base_url} (pid ${started.pid}), but its profile 'sandbox' was removed, and its key with it. Stop it with: pay sandbox stop; the next command starts it again with a new profile.`,
    });
  });

  it('never goes to a program that took its port since: an HTTP command starts the sandbox elsewhere first', async () => {
    const { dir, env, apiKey } = ciEnv();
    const started = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env })).stdout);
    // Gone two ways: stopped (its record removed), then killed (its record left behind).
    await runPay(['sandbox', 'stop'], { env });
    const heard: string[] = [];
    const listenOn = async (url: string) => {
      const other = createServer((req, res) => {
        heard.push(JSON.stringify(req.headers));
        res.statusCode = 500;
        res.end();
      });
      await new Promise<void>((resolve) => other.listen(Number(new URL(url).port), '127.0.0.1', resolve));
      return other;
    };
    for (const gone of ['stopped', 'killed'] as const) {
      const recorded = config(dir).profiles.sandbox.base_url as string;
      const other = await listenOn(recorded);
      try {
        const listed = await runPay(['customers', 'list', '--json'], { env });
        expect(listed.exitCode, `${gone}: ${listed.stderr}`).toBe(0);
        expect(listed.stderr).toContain(`Port ${new URL(recorded).port} is in use: starting it on a free port instead`);
        expect(heard.filter((headers) => headers.includes(apiKey)), gone).toEqual([]);
        expect(heard, gone).toEqual([]);
      } finally {
        other.close();
      }
      if (gone === 'stopped') {
        const { pid } = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8')) as { pid: number };
        process.kill(pid, 'SIGKILL');
        // Its port is free once the process is gone.
        while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(started.base_url).not.toBe(config(dir).profiles.sandbox.base_url);
  });

  it('never goes to the program holding the port PAY_BASE_URL names, nor with a key it does not name to a service elsewhere', async () => {
    const { dir, env, apiKey } = ciEnv();
    const heard: string[] = [];
    const other = createServer((req, res) => {
      heard.push(JSON.stringify(req.headers));
      res.statusCode = 500;
      res.end();
    });
    const port = await freePort();
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    try {
      // No profile yet: PAY_BASE_URL says where the sandbox runs, and another program holds that port.
      const held = await runPay(['customers', 'list', '--json'], { env: { ...env, PAY_BASE_URL: `http://127.0.0.1:${port}` } });
      expect(held.exitCode, held.stderr).toBe(2);
      expect(held.stderr).toContain(`Port ${port} is in use by another program, and PAY_BASE_URL says the sandbox runs at http://127.0.0.1:${port}`);
      // A service elsewhere with no key of its own: no sandbox is started to lend it one.
      const elsewhere = await runPay(['customers', 'list', '--json'], { env: { ...env, PAY_BASE_URL: 'https://pay.invalid', PAY_ACCOUNT: 'acct_x' } });
      expect(elsewhere.exitCode, elsewhere.stderr).toBe(3);
      expect(elsewhere.stderr).toContain('No api_key: set PAY_API_KEY too');
      expect(heard.filter((headers) => headers.includes(apiKey))).toEqual([]);
      expect(heard).toEqual([]);
      expect(existsSync(join(dir, 'sandbox.json'))).toBe(false);
    } finally {
      other.close();
    }
  });

  it('an added account\'s profile follows its sandbox to another port, never to the program that took the old one', async () => {
    const { dir, env } = ciEnv();
    const first = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env })).stdout);
    const added = await runPay(['sandbox', 'accounts', 'add', '--name', 'second', '--json'], { env });
    expect(added.exitCode, added.stderr).toBe(0);
    const apiKey = config(dir).profiles.second.api_key as string;
    await runPay(['sandbox', 'stop'], { env });
    const heard: string[] = [];
    const other = createServer((req, res) => {
      heard.push(JSON.stringify(req.headers));
      res.end('{"object":"list","data":[],"has_more":false}');
    });
    await new Promise<void>((resolve) => other.listen(Number(new URL(first.base_url).port), '127.0.0.1', resolve));
    try {
      // Started again elsewhere (as an auto-start does when its port is taken), or by the added profile's own command.
      const moved = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--json'], { env })).stdout);
      expect(config(dir).profiles.second.base_url).toBe(moved.base_url);
      const created = await runPay(['--profile', 'second', 'customers', 'create', '--email', 'second@example.com', '--json'], { env });
      expect(created.exitCode, created.stderr).toBe(0);
      await runPay(['sandbox', 'stop'], { env });
      const listed = await runPay(['--profile', 'second', 'customers', 'list', '--json'], { env });
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).data.map((c: { email: string }) => c.email)).toEqual(['second@example.com']);
      expect(heard.filter((headers) => headers.includes(apiKey))).toEqual([]);
      expect(heard).toEqual([]);
    } finally {
      other.close();
    }
  });

  it('is never signalled nor sent to another program given its pid since (a crash, a reboot)', async () => {
    const { dir, env, apiKey } = ciEnv();
    const started = JSON.parse((await runPay(['sandbox', 'start', '--detach', '--port', '0', '--memory', '--json'], { env })).stdout);
    await runPay(['sandbox', 'stop'], { env });
    const heard: string[] = [];
    const other = createServer((req, res) => {
      heard.push(JSON.stringify(req.headers));
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((resolve) => other.listen(Number(new URL(started.base_url).port), '127.0.0.1', resolve));
    // Another program now runs under the pid the record names: the record is the sandbox's, made when it started.
    const stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const record = () =>
      writeFileSync(join(dir, 'sandbox.json'), JSON.stringify({ ...started, db: ':memory:', pid: stranger.pid, started: new Date().toISOString(), proc_start: '1' }));
    try {
      record();
      const stopped = await runPay(['sandbox', 'stop', '--json'], { env });
      expect(stopped.exitCode, stopped.stderr).toBe(0);
      expect(JSON.parse(stopped.stdout)).toEqual({ stopped: false, running: false });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(stranger.exitCode ?? stranger.signalCode).toBeNull();

      record();
      const listed = await runPay(['customers', 'list', '--json'], { env });
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stderr).toContain(`Port ${new URL(started.base_url).port} is in use: starting it on a free port instead`);
      expect(heard.filter((headers) => headers.includes(apiKey))).toEqual([]);
      expect(stranger.exitCode ?? stranger.signalCode).toBeNull();
    } finally {
      stranger.kill('SIGKILL');
      other.close();
    }
  });
});

describe('accounts, isolation and reset', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => sb?.stop());

  it('pay sandbox accounts add: a second account and a profile for it, isolated from the first', async () => {
    const added = await sb.pay(['sandbox', 'accounts', 'add', '--name', 'second', '--json']);
    expect(added.exitCode, added.stderr).toBe(0);
    const shown = JSON.parse(added.stdout);
    expect(shown).toMatchObject({ profile: 'second', account: expect.stringMatching(/^acct_/), base_url: sb.baseUrl });
    const second = config(sb.configDir).profiles.second;
    expect(second).toMatchObject({ account: shown.account, sandbox: true });

    const mine = (await sb.http('POST', '/v1/customers', { email: 'a-only@example.com' })).body;
    // Account B cannot see A's customer...
    const asB = await sb.pay(['customers', 'get', mine.id, '--profile', 'second']);
    expect(asB.exitCode).toBe(4);
    expect(JSON.parse((await sb.pay(['customers', 'list', '--profile', 'second', '--json'])).stdout).data).toEqual([]);
    // ...and B's key with A's account header is refused.
    const crossed = await sb.pay(['customers', 'list', '--profile', 'second'], { env: { PAY_ACCOUNT: sb.account } });
    expect(crossed.exitCode).toBe(3);
    expect(crossed.stderr).toContain('account_mismatch');
  });

  it('takes its id and key from the caller (CI), the key from stdin only', async () => {
    const key = 'sk_test_ci_second_0123456789abcdefgh';
    const added = await sb.pay(['sandbox', 'accounts', 'add', '--account', 'acct_ci_second', '--api-key-stdin', '--name', 'ci2'], { input: key });
    expect(added.exitCode, added.stderr).toBe(0);
    const res = await sb.http('GET', '/v1/customers', undefined, { 'pay-account': 'acct_ci_second', 'pay-api-key': key });
    expect(res.status).toBe(200);
    const twice = await sb.pay(['sandbox', 'accounts', 'add', '--account', 'acct_ci_second']);
    expect(twice.exitCode).toBe(5);
    // An existing profile is not replaced in passing, the sandbox's own least of all: nothing is created.
    const before = readFileSync(join(sb.configDir, 'config.json'), 'utf8');
    const taken = await sb.pay(['sandbox', 'accounts', 'add', '--account', 'acct_ci_third', '--name', 'sandbox']);
    expect([taken.exitCode, taken.stderr]).toEqual([2, expect.stringContaining("✗ Invalid --name: profile 'sandbox' exists, for account")]);
    expect(readFileSync(join(sb.configDir, 'config.json'), 'utf8')).toBe(before);
    expect((await sb.pay(['sandbox', 'accounts', 'add', '--account', 'acct_ci_third', '--name', 'third'])).exitCode).toBe(0);
  });

  it('pay sandbox reset erases the account\'s objects, asks first, and leaves other accounts alone', async () => {
    await sb.pay(['sandbox', 'accounts', 'add', '--name', 'other']);
    const others = await sb.json(['customers', 'create', '--email', 'other@example.com', '--profile', 'other']);
    await sb.http('POST', '/v1/customers', { email: 'gone@example.com' });

    const unconfirmed = await sb.pay(['sandbox', 'reset']);
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    expect((await sb.http('GET', '/v1/customers')).body.data.length).toBeGreaterThan(0);

    const reset = await sb.pay(['sandbox', 'reset', '--yes', '--json']);
    expect(reset.exitCode, reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ object: 'reset', account: sb.account });
    // Every field printed can be asked for, `object` too.
    const selected = await sb.pay(['sandbox', 'reset', '--yes', '--json', 'object,account']);
    expect([selected.exitCode, selected.stderr]).toEqual([0, '']);
    expect(JSON.parse(selected.stdout)).toEqual({ object: 'reset', account: sb.account });
    expect((await sb.http('GET', '/v1/customers')).body.data).toEqual([]);
    expect((await sb.pay(['customers', 'get', others.id, '--profile', 'other'])).exitCode).toBe(0);
    // Keys and profile stay: the account still works.
    expect((await sb.pay(['customers', 'list'])).exitCode).toBe(0);
  });

  it('reset refuses a profile that is not a sandbox', async () => {
    await sb.pay(['profiles', 'add', 'real', '--base-url', 'https://api.example.com', '--account', 'acct_r', '--api-key', 'sk_live_0123456789abcdef']);
    const result = await sb.pay(['sandbox', 'reset', '--yes', '--profile', 'real']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('not a sandbox');
  });

  it('the clock, reset and accounts take a sandbox on this machine named by the environment alone (a CI job)', async () => {
    const ci = mkdtempSync(join(tmpdir(), 'pay-ci-env-'));
    try {
      const env = { PAY_CONFIG_DIR: ci, PAY_BASE_URL: sb.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey };
      const advanced = await sb.pay(['sandbox', 'clock', 'advance', '--days', '1', '--json'], { env });
      expect(advanced.exitCode, advanced.stderr).toBe(0);
      expect(JSON.parse(advanced.stdout).object).toBe('test_clock');
      expect((await sb.pay(['sandbox', 'clock', '--json'], { env })).exitCode).toBe(0);
      const added = await sb.pay(['sandbox', 'accounts', 'add', '--name', 'ci2', '--json'], { env });
      expect(added.exitCode, added.stderr).toBe(0);
      // The profile points at the sandbox it was added to, which this machine did not start: none is started for it.
      const listed = await sb.pay(['customers', 'list', '--profile', 'ci2', '--json'], { env: { PAY_CONFIG_DIR: ci } });
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stderr).toBe('');
      expect((await sb.pay(['sandbox', 'clock', '--profile', 'ci2', '--json'], { env: { PAY_CONFIG_DIR: ci } })).exitCode).toBe(0);
      expect((await sb.pay(['sandbox', 'reset', '--yes', '--json'], { env })).exitCode).toBe(0);
    } finally {
      rmSync(ci, { recursive: true, force: true });
    }
  });
});
