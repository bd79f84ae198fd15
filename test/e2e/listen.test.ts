import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.js';
import { type PayProcess, type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
const app = new Receiver();
const dir = mkdtempSync(join(tmpdir(), 'pay-listen-e2e-'));
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15', db: join(dir, 'sandbox.db') });
  await app.start();
});
afterAll(async () => {
  await app.stop();
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let running: PayProcess | undefined;
/** Other listens a test started: ended with it, whatever happened, so none holds the profile's lock into the next test. */
const others: PayProcess[] = [];
afterEach(async () => {
  for (const listener of [running, ...others.splice(0)]) {
    listener?.signal('SIGKILL');
    await listener?.exited();
  }
  running = undefined;
  app.received.length = 0;
  app.respond = () => 200;
});

function listen(args: string[], env?: Record<string, string | undefined>): PayProcess {
  running = sb.spawn(['webhooks', 'listen', ...args], { env });
  return running;
}

async function stop(listener: PayProcess): Promise<number> {
  listener.signal('SIGINT');
  const code = await listener.exited();
  running = undefined;
  return code;
}

const customer = async (): Promise<string> => {
  const created = (await sb.http('POST', '/v1/customers', {})).body;
  const events = (await sb.http('GET', '/v1/events?limit=1')).body.data;
  expect(events[0].data.object.id).toBe(created.id);
  return events[0].id;
};

describe('pay webhooks listen', () => {
  it('prints Ready with a masked secret that stays the same run after run, then a line per event and delivery', async () => {
    const before = await customer();
    const first = listen(['--forward-to', app.url('/hook?x=1'), '--forward-header', 'X-Trace: abc']);
    const ready = await first.line(/^Ready!/);
    expect(ready).toMatch(new RegExp(`^Ready! Forwarding events to ${app.url('/hook\\?x=1').replace(/\./g, '\\.')} · signing secret whsec_\\S{2}…\\S{4} \\(\\^C to quit\\)$`));
    const id = await customer();
    await first.line(new RegExp(`^--> customer\\.created \\[${id}\\]$`));
    await first.line(new RegExp(`^<-- \\[200\\] POST ${app.url('/hook\\?x=1').replace(/\./g, '\\.')} \\[${id}\\] \\d+ms$`));
    expect(app.received.map((r) => r.id)).toEqual([id]); // a first run starts after what came before
    expect(app.received[0]).toMatchObject({ path: '/hook?x=1', headers: { 'x-trace': 'abc', 'webhook-id': id } });
    expect(before).not.toBe(id);
    expect(await stop(first)).toBe(0);

    const second = listen(['--forward-to', app.url('/hook'), '--print-secret']);
    const whole = (await second.line(/^Ready!/)).match(/signing secret (whsec_\S+)/)![1]!;
    expect(ready).toContain(`${whole.slice(0, 8)}…${whole.slice(-4)}`);
    // Alone, as the Stripe CLI's: the same secret, for the app's configuration, and an exit.
    expect(await sb.pay(['webhooks', 'listen', '--print-secret'])).toMatchObject({ exitCode: 0, stdout: whole });
    expect(JSON.parse((await sb.pay(['webhooks', 'listen', '--print-secret', '--json'])).stdout)).toEqual({ secret: whole });
    app.secret = whole;
    await customer();
    await app.waitFor(() => app.received.length === 2);
    expect(app.received[1]!.verified).toBe(true);
    expect(await stop(second)).toBe(0);

    const rotated = await sb.pay(['webhooks', 'rotate-secret']);
    expect(rotated.exitCode).toBe(0);
    const secret = rotated.stdout.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(whole);
    const third = listen(['--forward-to', app.url('/hook'), '--print-secret']);
    expect(await third.line(/^Ready!/)).toContain(secret);
    expect(await stop(third)).toBe(0);
  });

  it('refuses a second listen of the same profile', async () => {
    const first = listen(['--forward-to', app.url()]);
    await first.line(/^Ready!/);
    const second = await sb.pay(['webhooks', 'listen', '--forward-to', app.url()]);
    expect(second.exitCode).toBe(5);
    expect(second.stderr).toMatch(/Another pay webhooks listen for this profile is running \(pid \d+\)/);
  });

  it('of two listens of one profile started at the same moment, one forwards and the other exits 5 naming it', async () => {
    // The lock left by the listen killed in the test before is stale: both find it so.
    const both = [sb.spawn(['webhooks', 'listen', '--forward-to', app.url()]), sb.spawn(['webhooks', 'listen', '--forward-to', app.url()])];
    others.push(...both);
    // The refused one ends by itself; the other is the one forwarding.
    const refused = await Promise.race(both.map((p, i) => p.exited().then((code) => ({ i, code }))));
    const forwarding = both[1 - refused.i]!;
    running = forwarding;
    expect(refused.code).toBe(5);
    expect(both[refused.i]!.stderr()).toMatch(/Another pay webhooks listen for this profile is running \(pid \d+\): stop it first/);
    await forwarding.line(/^Ready!/);
    const id = await customer();
    await app.waitFor(() => app.received.some((r) => r.id === id));
    expect(await stop(forwarding)).toBe(0);
    expect(app.received.filter((r) => r.id === id)).toHaveLength(1);
  });

  it('of two first listens of a profile started at once, one forwards with the secret the profile keeps', async () => {
    // A profile that has never listened, so it has no listen identity yet.
    const added = await sb.pay(['profiles', 'add', 'fresh', '--base-url', sb.baseUrl, '--account', sb.account, '--api-key', sb.apiKey]);
    expect(added.exitCode).toBe(0);
    const env = { PAY_PROFILE: 'fresh' };
    const both = [sb.spawn(['webhooks', 'listen', '--forward-to', app.url()], { env }), sb.spawn(['webhooks', 'listen', '--forward-to', app.url()], { env })];
    others.push(...both);
    const refused = await Promise.race(both.map((p, i) => p.exited().then((code) => ({ i, code }))));
    expect(refused.code).toBe(5);
    const forwarding = both[1 - refused.i]!;
    const ready = await forwarding.line(/^Ready!/);
    expect(await stop(forwarding)).toBe(0);
    const again = sb.spawn(['webhooks', 'listen', '--forward-to', app.url(), '--print-secret'], { env });
    others.push(again);
    const whole = (await again.line(/^Ready!/)).match(/signing secret (whsec_\S+)/)![1]!;
    expect(ready).toContain(`${whole.slice(0, 8)}…${whole.slice(-4)}`);
  });

  describe('a profile\'s listen identity lives and goes with the profile', () => {
    const config = () => JSON.parse(readFileSync(join(sb.configDir, 'config.json'), 'utf8')).profiles as Record<string, { api_key?: string; listen_secret?: string; listener_id?: string }>;
    /** Every file `listen` keeps for profiles, by name, with its bytes. */
    const listenFiles = () => {
      const listenDir = join(sb.configDir, 'listen');
      return existsSync(listenDir) ? readdirSync(listenDir).map((name) => ({ name, bytes: readFileSync(join(listenDir, name)).toString('latin1') })) : [];
    };
    const add = (name: string, account = sb.account, apiKey = sb.apiKey) => sb.pay(['profiles', 'add', name, '--base-url', sb.baseUrl, '--account', account, '--api-key', apiKey]);
    /** One listen of the profile until Ready: its whole secret. */
    async function secretOf(name: string): Promise<string> {
      const listener = listen(['--forward-to', app.url(), '--print-secret'], { PAY_PROFILE: name });
      const secret = (await listener.line(/^Ready!/)).match(/signing secret (whsec_\S+)/)![1]!;
      expect(await stop(listener)).toBe(0);
      return secret;
    }

    it('removing it removes its secret and its spool, and is refused while its listen runs', async () => {
      expect((await add('roamer')).exitCode).toBe(0);
      const first = await secretOf('roamer');
      const listenerId = config().roamer!.listener_id!;
      expect(listenFiles().some((f) => f.name.startsWith(listenerId))).toBe(true);
      // Saved again with the same account (a new key, say): the app's secret stays.
      expect((await add('roamer')).exitCode).toBe(0);
      expect(await secretOf('roamer')).toBe(first);

      const running = listen(['--forward-to', app.url()], { PAY_PROFILE: 'roamer' });
      await running.line(/^Ready!/);
      const refused = await sb.pay(['profiles', 'remove', 'roamer', '--yes']);
      expect(refused.exitCode).toBe(5);
      expect(refused.stderr).toMatch(/Another pay webhooks listen for this profile is running \(pid \d+\): stop it before removing the profile\./);
      expect(config().roamer?.listen_secret).toBe(first);
      expect(await stop(running)).toBe(0);

      expect((await sb.pay(['profiles', 'remove', 'roamer', '--yes'])).exitCode).toBe(0);
      expect(listenFiles().filter((f) => f.name.includes(listenerId) || f.name.startsWith('roamer') || f.bytes.includes(first))).toEqual([]);
      expect(readFileSync(join(sb.configDir, 'config.json'), 'utf8')).not.toContain(first);
      // Added again under the same name, it is a new profile: a new secret, never the old one.
      expect((await add('roamer')).exitCode).toBe(0);
      expect(await secretOf('roamer')).not.toBe(first);
    });

    it('saved over with another account, it gets a new identity and the old one\'s spool goes', async () => {
      const other = await sb.pay(['sandbox', 'accounts', 'add', '--name', 'other-account', '--json']);
      expect(other.exitCode, other.stderr).toBe(0);
      const { account } = JSON.parse(other.stdout) as { account: string };
      const otherKey = (config()['other-account'] as { api_key?: string }).api_key!;
      expect((await add('mover')).exitCode).toBe(0);
      const first = await secretOf('mover');
      const listenerId = config().mover!.listener_id!;
      expect((await add('mover', account, otherKey)).exitCode).toBe(0);
      expect(config().mover).not.toHaveProperty('listen_secret');
      expect(listenFiles().filter((f) => f.name.includes(listenerId) || f.bytes.includes(first))).toEqual([]);
      const second = await secretOf('mover');
      expect(second).not.toBe(first);
      expect(config().mover!.listener_id).not.toBe(listenerId);
    });
  });

  it('retries an event the app fails or is too slow for, without holding up later ones; a 4xx is final', async () => {
    const slow = await customer();
    const failing = await customer();
    const refused = await customer();
    const fine = await customer();
    const seen = new Map<string, number>();
    app.respond = async ({ id }) => {
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      if (id === slow && n === 1) await new Promise((resolve) => setTimeout(resolve, 1_500));
      if (id === failing && n === 1) return 500;
      if (id === refused) return 404;
      return 200;
    };
    const listener = listen(['--forward-to', app.url(), '--from', slow, '--timeout', '300ms', '--json']);
    const results = (id: string) =>
      listener.stdout
        .map((l) => JSON.parse(l))
        .filter((l) => l.type === 'delivery' && l.event_id === id)
        .map((l) => `${l.status ?? l.error}:${l.outcome}`);
    // Wait for listen's own report of each final outcome, not only the app's receipt.
    await app.waitFor(() => [slow, failing, fine].every((id) => results(id).includes('200:delivered')) && results(refused).length > 0, 15_000);
    expect(results(slow)).toEqual(['timeout:retrying', '200:delivered']);
    expect(results(failing)).toEqual(['500:retrying', '200:delivered']);
    expect(results(refused)).toEqual(['404:rejected']);
    expect(results(fine)).toEqual(['200:delivered']);
    const order = app.received.map((r) => r.id);
    expect(order.indexOf(fine)).toBeLessThan(order.lastIndexOf(slow));
    expect(order.filter((id) => id === refused)).toHaveLength(1);
  });

  it('routes by event type and filters types at the service', async () => {
    const listener = listen(['--forward-to', app.url('/all'), '--route', 'customer.*=' + app.url('/customers')]);
    await listener.line(/^Ready! Forwarding customer\.\* to .*\/customers, everything else to .*\/all/);
    const id = await customer();
    await app.waitFor(() => app.received.length === 1);
    expect(app.received[0]).toMatchObject({ id, path: '/customers' });
    expect(await stop(listener)).toBe(0);

    const filtered = listen(['--forward-to', app.url('/all'), '--events', 'payment_intent.*']);
    await filtered.line(/^Ready!/);
    await customer();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(filtered.stdout.filter((l) => l.startsWith('-->'))).toEqual([]);
    expect(app.received).toHaveLength(1);
  });

  it('gets events resent by pay events resend while it runs', async () => {
    const listener = listen(['--forward-to', app.url()]);
    await listener.line(/^Ready!/);
    const id = await customer();
    await listener.line(new RegExp(`^<-- \\[200\\] .*\\[${id}\\]`));
    const resent = await sb.pay(['events', 'resend', id]);
    expect(resent.exitCode).toBe(0);
    expect(resent.stderr).toContain(`Resent ${id} to 0 webhook endpoints and 1 running listener.`);
    await listener.line(new RegExp(`^--> customer\\.created \\[${id}\\] \\(resent\\)$`));
    await app.waitFor(() => app.received.filter((r) => r.id === id).length === 2);
  });

  it('says so when the service goes away, and resumes where it stopped when it is back (on stderr, and to a script as JSON lines)', async () => {
    const listener = listen(['--forward-to', app.url(), '--json']);
    await listener.line(/^\{"type":"ready"/);
    const first = await customer();
    await app.waitFor(() => app.ids().has(first));
    await sb.restart();
    await listener.said(/Lost the connection to http:\/\/127\.0\.0\.1:\d+ \(.+\): reconnecting in \d+\.\ds…/);
    await listener.said(new RegExp(`Reconnected: resumed after ${first}, nothing missed\\.`));
    expect(JSON.parse(await listener.line(/^\{"type":"disconnected"/))).toEqual({ type: 'disconnected', reason: expect.any(String), retry_in_ms: expect.any(Number), was_connected: true });
    expect(JSON.parse(await listener.line(/^\{"type":"reconnected"/))).toEqual({ type: 'reconnected', after: first, backlog: 0 });
    const second = await customer();
    await app.waitFor(() => app.ids().has(second));
  });

  it('with --json, its first line is ready even when the service could not be reached at first: the failed tries are said on stderr', async () => {
    // A profile of the environment: the sandbox profile would start the sandbox itself.
    const env = { PAY_BASE_URL: sb.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey };
    await sb.kill();
    const listener = listen(['--forward-to', app.url(), '--json'], env);
    await listener.said(/Could not connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): reconnecting in/);
    await sb.restart();
    await listener.line(/"type":"ready"/);
    expect(JSON.parse(listener.stdout[0]!)).toMatchObject({ type: 'ready', cursor_source: 'latest' });
    // Once ready, a lost connection is a JSON line again.
    await sb.restart();
    expect(JSON.parse(await listener.line(/"type":"disconnected"/))).toMatchObject({ type: 'disconnected', was_connected: true });
    await listener.line(/"type":"reconnected"/);
  });

  it('exits 7 after --give-up-after when the service cannot be reached, and 3 on a refused key', async () => {
    const env = { PAY_BASE_URL: 'http://127.0.0.1:9', PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey };
    const started = Date.now();
    const unreachable = await sb.pay(['webhooks', 'listen', '--forward-to', app.url(), '--give-up-after', '1s'], { env });
    expect(unreachable.exitCode).toBe(7);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(unreachable.stderr).toMatch(/Could not connect to http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\): reconnecting/);
    expect(unreachable.stderr).toMatch(/giving up, as --give-up-after asks/);
    const refused = await sb.pay(['webhooks', 'listen', '--forward-to', app.url()], { env: { ...env, PAY_BASE_URL: sb.baseUrl, PAY_API_KEY: 'sk_test_not_a_key_at_all_0000' } });
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain('api_key_invalid');
  });

  it('giving up on the service (exit 7), says what waits in its spool, as a stop does, and the next run delivers it', async () => {
    const env = { PAY_BASE_URL: sb.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey };
    const down = new Receiver();
    await down.start();
    await down.stop();
    try {
      const listener = listen(['--forward-to', down.url(), '--give-up-after', '1s'], env);
      await listener.line(/^Ready!/);
      const id = await customer();
      await listener.line(new RegExp(`^<-- \\[ERR\\] .*\\[${id}\\] ECONNREFUSED`));
      await sb.kill();
      expect(await listener.exited()).toBe(7);
      expect(listener.stderr()).toMatch(/1 event waits in the spool: the next pay webhooks listen delivers it\.\n✗ Could not reach the service at \S+ for 1s \(ECONNREFUSED\): giving up/);
      await sb.restart();
      await down.start();
      expect(await listen(['--forward-to', down.url(), '--exit-after-idle', '1s'], env).exited()).toBe(0);
      expect(down.ids()).toEqual(new Set([id]));
    } finally {
      await down.stop();
    }
  });

  it('checks its flags before connecting', async () => {
    for (const [args, message] of [
      [[], /Missing --forward-to/],
      [['--forward-to', 'localhost:3000'], /Invalid --forward-to: must be an http\(s\) URL/],
      // Its lines show the URLs and its spool keeps them: a password in one would be shown.
      [['--forward-to', 'http://user:hunter2@localhost:3000/hook'], /Invalid --forward-to: must be an http\(s\) URL without a user or password in it/],
      [['--forward-to', app.url(), '--route', 'customer.*=http://token@localhost:3000/c'], /Invalid --route: must be an http\(s\) URL without a user or password in it/],
      [['--forward-to', app.url(), '--events', 'customer.craeted'], /--events.*unknown event type 'customer\.craeted'/],
      [['--forward-to', app.url(), '--route', 'customer.*'], /Invalid --route 'customer\.\*': expected pattern=url/],
      [['--forward-to', app.url(), '--forward-header', 'no colon'], /Invalid --forward-header/],
      [['--forward-to', app.url(), '--timeout', 'soon'], /--timeout/],
    ] as const) {
      const result = await sb.pay(['webhooks', 'listen', ...args]);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/hunter2|token@/);
    }
  });
});

// After the others: its listen makes the profile's later runs resume rather than start fresh.
describe('pay webhooks listen, the app coming back', () => {
  it('says the app is answering again without counting events when none are left waiting', async () => {
    const down = new Receiver();
    await down.start();
    const url = down.url('/hook');
    await down.stop();
    try {
      // The last test's listen was killed: what it delivered since its last settled batch is replayed, to another app, first.
      const drain = listen(['--forward-to', app.url(), '--exit-after-idle', '1s']);
      expect(await drain.exited()).toBe(0);
      const listener = listen(['--forward-to', url]);
      await listener.line(/^Ready!/);
      await customer();
      await listener.said(/is not answering/);
      await down.start(); // back on the same port: the waiting event is the probe, and then none is left
      await listener.said(/is answering again/);
      await down.waitFor(() => down.received.length === 1);
      expect(listener.stderr(), listener.stderr()).toContain(`${url} is answering again.\n`);
      expect(listener.stderr()).not.toMatch(/\b0 events?\b/);
      expect(await stop(listener)).toBe(0);
    } finally {
      await down.stop();
    }
  });
});
