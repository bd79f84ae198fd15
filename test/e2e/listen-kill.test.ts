import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.js';
import { until } from '../support/wait.js';
import { type PayProcess, type SandboxHandle, startSandbox } from './harness.js';

let sb: SandboxHandle;
const app = new Receiver();
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
  await app.start();
});
afterAll(async () => {
  await app.stop();
  await sb?.stop();
});

/** Creates n customers, ten requests at a time: n customer.created events. */
async function createEvents(n: number): Promise<void> {
  for (let done = 0; done < n; done += 10) {
    await Promise.all(Array.from({ length: Math.min(10, n - done) }, () => sb.http('POST', '/v1/customers', {})));
  }
}

async function allEventIds(): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = (await sb.http('GET', `/v1/events?limit=100${after ? `&starting_after=${after}` : ''}`)).body;
    ids.push(...page.data.map((e: { id: string }) => e.id));
    if (!page.has_more) return ids;
    after = ids.at(-1);
  }
}

describe('pay webhooks listen never loses an event', () => {
  it('delivers 500 events, each signed, through two app restarts and a killed listen', async () => {
    const args = ['webhooks', 'listen', '--forward-to', app.url('/hook?via=listen'), '--print-secret', '--json'];
    const first: PayProcess = sb.spawn(args);
    const ready = JSON.parse(await first.line(/"type":"ready"/));
    expect(ready.secret).toMatch(/^whsec_/);
    app.secret = ready.secret;

    await createEvents(100);
    await app.stop(); // the app is killed…
    await createEvents(50);
    await app.start(); // …and comes back on the same port
    await createEvents(100);
    await first.said(/is answering again/);

    first.signal('SIGKILL'); // listen itself dies without a word
    await first.exited();
    await createEvents(50);
    const second = sb.spawn(args);
    const readyAgain = JSON.parse(await second.line(/"type":"ready"/));
    expect(readyAgain.secret).toBe(ready.secret); // the app's secret did not change
    await second.said(/Resumed after evt_\w+, (\d+ events? replayed|nothing missed)/);

    await createEvents(50);
    await app.stop();
    await createEvents(100);
    await app.start();
    await createEvents(50);

    const ids = await allEventIds();
    expect(ids).toHaveLength(500);
    await until(() => ids.filter((id) => !app.ids().has(id)).length, (missing) => missing === 0, 'every event at the app', 60_000);
    expect(app.received.every((r) => r.verified === true)).toBe(true);
    expect(app.received.every((r) => r.path === '/hook?via=listen')).toBe(true);

    // Each interruption was announced: the app going and coming back, the resumption.
    expect(first.stderr()).toMatch(/is not answering \((ECONNREFUSED|ECONNRESET)\)/);
    expect(second.stderr()).toMatch(/is not answering \((ECONNREFUSED|ECONNRESET)\)[\s\S]*is answering again/);
    const deliveries = second.stdout.map((l) => JSON.parse(l)).filter((l) => l.type === 'delivery' && l.outcome === 'delivered');
    expect(deliveries.length).toBeGreaterThan(0);

    second.signal('SIGINT');
    expect(await second.exited()).toBe(0);
    expect(second.stderr()).toMatch(/Stopped\./);
  }, 90_000);
});
