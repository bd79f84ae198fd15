import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.js';
import { type SandboxHandle, startSandbox } from './harness.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A sandbox and an app of their own: a run's unacknowledged events would carry over to the next. */
async function setup(respond: (type: string) => number = () => 200): Promise<{ sb: SandboxHandle; app: Receiver }> {
  const sb = await startSandbox({ clock: '2030-01-15' });
  cleanup.push(() => sb.stop());
  const app = new Receiver();
  app.respond = (request) => respond(request.event.type);
  await app.start();
  cleanup.push(() => app.stop());
  return { sb, app };
}

const jsonLines = (lines: string[]) => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { type: string; [key: string]: any });

describe('pay webhooks listen in CI: it ends by itself, and says whether the app took every event', () => {
  it('--exit-after-idle: exits 0 once ready and nothing came for that long', async () => {
    const { sb, app } = await setup();
    const listener = sb.spawn(['webhooks', 'listen', '--forward-to', app.url(), '--exit-after-idle', '1s', '--json']);
    await listener.line(/"type":"ready"/);
    expect(await listener.exited()).toBe(0);
    expect(jsonLines(listener.stdout).at(-1)).toEqual({ type: 'stopped', reason: 'idle', events: 0, waiting: 0, failed: [] });
    expect(listener.stderr()).toContain('Stopped: no event for 1s (0 events settled).');
  });

  it('--max-events: exits 0 once that many events were forwarded and acknowledged', async () => {
    const { sb, app } = await setup();
    const listener = sb.spawn(['webhooks', 'listen', '--forward-to', app.url(), '--max-events', '3', '--json']);
    await listener.line(/"type":"ready"/);
    const triggered = await sb.json(['trigger', 'payment_intent.succeeded']);
    expect(await listener.exited()).toBe(0);
    const lines = jsonLines(listener.stdout);
    expect(lines.filter((l) => l.type === 'delivery').map((l) => l.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(lines.at(-1)).toMatchObject({ type: 'stopped', reason: 'max_events', events: 3, failed: [] });
    expect(app.received.map((r) => r.event.type).sort()).toEqual(['charge.succeeded', 'payment_intent.created', 'payment_intent.succeeded']);
    expect(app.received.every((r) => r.body.includes(triggered.created.payment_intent))).toBe(true);
    expect(listener.stderr()).toContain('Stopped after 3 events (--max-events).');
    // The events were acknowledged: the service holds none back for this listener.
    const again = sb.spawn(['webhooks', 'listen', '--forward-to', app.url(), '--exit-after-idle', '1s', '--json']);
    expect(await again.exited()).toBe(0);
    expect(jsonLines(again.stdout).find((l) => l.type === 'ready')).toMatchObject({ backlog: 0 });
  });

  it('--fail-on-error: exits 1 naming each event the app refused or kept failing, and 0 without it', async () => {
    const answers: Record<string, number> = { 'payment_intent.created': 400, 'charge.succeeded': 500 };
    const { sb, app } = await setup((type) => answers[type] ?? 200);
    const args = ['webhooks', 'listen', '--forward-to', app.url(), '--exit-after-idle', '2s'];
    const listener = sb.spawn([...args, '--fail-on-error']);
    await listener.line(/^Ready!/);
    const { created } = await sb.json(['trigger', 'payment_intent.succeeded']);
    expect(await listener.exited()).toBe(1);
    const events = (await sb.http('GET', `/v1/events?limit=10`)).body.data as Array<{ id: string; type: string }>;
    const idOf = (type: string) => events.find((e) => e.type === type)!.id;
    const stderr = listener.stderr();
    expect(stderr).toContain('The app did not take 2 events (--fail-on-error):');
    expect(stderr).toContain(`${idOf('payment_intent.created')} payment_intent.created · POST ${app.url()} → [400] · refused, not retried`);
    expect(stderr).toMatch(new RegExp(`${idOf('charge.succeeded')} charge\\.succeeded · POST \\S+ → \\[500\\] · still failing after \\d+ attempts`));
    expect(stderr).not.toContain(`${idOf('payment_intent.succeeded')}`);
    expect(app.received.some((r) => r.body.includes(created.payment_intent))).toBe(true);
    // The same run without the flag ends 0 (the failing event waits in the spool for the next run).
    const lenient = sb.spawn([...args, '--json']);
    expect(await lenient.exited()).toBe(0);
    expect(jsonLines(lenient.stdout).at(-1)).toMatchObject({ type: 'stopped', reason: 'idle', failed: [{ event_type: 'charge.succeeded', status: 500 }] });
  });

  it('--max-events counts the events forwarded: one that no --route takes is not one of them', async () => {
    const { sb, app } = await setup();
    const listener = sb.spawn(['webhooks', 'listen', '--route', `customer.*=${app.url()}`, '--max-events', '1', '--json']);
    await listener.line(/"type":"ready"/);
    await sb.json(['trigger', 'payment_intent.succeeded']);
    for (const type of ['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded']) await listener.line(new RegExp(`"type":"event","resend":false,"targets":\\[\\],"event":\\{[^}]*"type":"${type}"`));
    // Acknowledged, not forwarded: listen waits on for one it forwards.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const customer = (await sb.http('POST', '/v1/customers', {})).body;
    expect(await listener.exited()).toBe(0);
    expect(app.received.map((r) => r.event.data.object.id)).toEqual([customer.id]);
    expect(jsonLines(listener.stdout).at(-1)).toMatchObject({ type: 'stopped', reason: 'max_events', events: 1, failed: [] });
    expect(listener.stderr()).toContain('Stopped after 1 event (--max-events).');
  });

  it('refuses a --max-events below 1 (exit 2)', async () => {
    const { sb, app } = await setup();
    const result = await sb.pay(['webhooks', 'listen', '--forward-to', app.url(), '--max-events', '0']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Invalid --max-events 0: must be 1 or more.');
  });
});
