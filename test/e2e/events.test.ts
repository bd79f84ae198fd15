import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
const ids: string[] = [];
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
  // Two customers a day, on the 15th, 16th and 17th.
  for (let day = 0; day < 3; day++) {
    if (day > 0) await sb.http('POST', '/v1/test-helpers/clock/advance', { days: 1 });
    for (let i = 0; i < 2; i++) await sb.http('POST', '/v1/customers', { email: `d${day}n${i}@example.com` });
  }
  ids.push(...(await sb.http('GET', '/v1/events?limit=100')).body.data.map((e: { id: string }) => e.id));
});
afterAll(async () => sb?.stop());

describe('pay events tail: a long-running process, stopped by a signal', () => {
  it('tails events as they happen, and from a point', async () => {
    const tail = sb.spawn(['events', 'tail', '--json']);
    await tail.said(/Streaming events/);
    const customer = (await sb.http('POST', '/v1/customers', { email: 'live@example.com' })).body;
    const line = JSON.parse(await tail.line(/live@example\.com/));
    expect(line).toMatchObject({ type: 'customer.created', data: { object: { id: customer.id } } });
    expect(tail.stdout).toHaveLength(1);
    tail.signal('SIGINT');
    expect(await tail.exited()).toBe(0);

    const from = sb.spawn(['events', 'tail', '--from', ids[1]!]);
    await from.line(new RegExp(`^${ids[0]}\\t`));
    expect(from.stdout[0]).toMatch(new RegExp(`^${ids[1]}\\tcustomer\\.created\\t`));
    from.signal('SIGINT');
    expect(await from.exited()).toBe(0);
  });

  it('shows the events a sandbox started again with a new database logged before it reconnected', async () => {
    const memory = await startSandbox({ clock: '2030-01-15' }); // --memory, in the foreground
    const tail = memory.spawn(['events', 'tail', '--json']);
    try {
      await tail.said(/Streaming events/);
      await memory.http('POST', '/v1/customers', { email: 'first-log@example.com' });
      await tail.line(/first-log@example\.com/);
      // Down until tail's next try is seconds away: the new log's events come before it reconnects.
      await memory.restart(() => tail.said(/reconnecting in (?:[3-9]|\d\d)\.\ds/, 20_000));
      for (const email of ['new-log-1@example.com', 'new-log-2@example.com']) await memory.http('POST', '/v1/customers', { email });
      expect(tail.stderr()).not.toMatch(/Reconnected/);
      await tail.line(/new-log-2@example\.com/, { timeoutMs: 20_000 });
      expect(tail.stdout.map((line) => JSON.parse(line).data.object.email)).toEqual(['first-log@example.com', 'new-log-1@example.com', 'new-log-2@example.com']);
      expect(tail.stderr()).toContain('Reconnected: resumed after the start of the log, 2 events replayed.');
    } finally {
      tail.signal('SIGKILL');
      await tail.exited();
      await memory.stop();
    }
  }, 60_000);

  it('exits 7 when the service cannot be reached at all, rather than retrying forever', async () => {
    const env = { PAY_BASE_URL: 'http://127.0.0.1:9', PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey };
    const unreachable = await sb.pay(['events', 'tail'], { env });
    expect(unreachable.exitCode, unreachable.stderr).toBe(7);
    expect(unreachable.stderr).toContain('Could not reach the service at http://127.0.0.1:9 (ECONNREFUSED).');
  });

  it('--json id,type keeps only those fields of each line', async () => {
    const tail = sb.spawn(['events', 'tail', '--from', ids[1]!, '--json', 'id,type']);
    expect(JSON.parse(await tail.line(new RegExp(ids[0]!)))).toEqual({ id: ids[0], type: 'customer.created' });
    expect(JSON.parse(tail.stdout[0]!)).toEqual({ id: ids[1], type: 'customer.created' });
    tail.signal('SIGINT');
    expect(await tail.exited()).toBe(0);
  });
});
