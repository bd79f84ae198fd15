import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../domain/events.js';
import type { DeliveryResult } from '../../../webhooks/forwarder.js';
import { IO } from '../../io/io.js';
import { listenSink } from './view.js';

/** An IO whose stdout and stderr record each write, in the order made. */
function recordingIO(json: boolean) {
  const writes: Array<{ stream: 'stdout' | 'stderr'; text: string }> = [];
  const stream = (name: 'stdout' | 'stderr') =>
    Object.assign(new Writable({ write: (chunk: Buffer, _encoding, done) => done(void writes.push({ stream: name, text: chunk.toString() })) }), { isTTY: false });
  const streams = { stdin: process.stdin, stdout: stream('stdout'), stderr: stream('stderr'), env: { NO_COLOR: '1' } } as unknown as ConstructorParameters<typeof IO>[0];
  return { io: new IO(streams, { json, input: false, color: false, verbose: false }), writes };
}

const event: Event = { id: 'evt_1', object: 'event', type: 'customer.created', created: '2030-01-15T00:00:00Z', livemode: false, data: { object: { id: 'cus_1', object: 'customer', created: '2030-01-15T00:00:00Z', livemode: false } } };
const delivered: DeliveryResult = { event_id: 'evt_1', event_type: 'customer.created', url: 'http://127.0.0.1:4242/hook', status: 200, error: null, duration_ms: 3, attempt: 1, outcome: 'delivered', retry_in_ms: null };

describe('listen\'s output', () => {
  it('writes the lines of one turn together, each as JSON.stringify makes it, and what it holds before anything said on stderr', async () => {
    const { io, writes } = recordingIO(true);
    const sink = listenSink(io, { printSecret: false });
    sink.event(event, ['http://127.0.0.1:4242/hook'], false, JSON.stringify(event));
    sink.delivery(delivered);
    sink.notice('http://127.0.0.1:4242/hook is not answering');
    sink.event({ ...event, id: 'evt_2' }, [], true, JSON.stringify({ ...event, id: 'evt_2' }));
    sink.delivery({ ...delivered, event_id: 'evt_2' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([
      { stream: 'stdout', text: `${JSON.stringify({ type: 'event', resend: false, targets: ['http://127.0.0.1:4242/hook'], event })}\n${JSON.stringify({ type: 'delivery', ...delivered })}\n` },
      { stream: 'stderr', text: 'http://127.0.0.1:4242/hook is not answering\n' },
      { stream: 'stdout', text: `${JSON.stringify({ type: 'event', resend: true, targets: [], event: { ...event, id: 'evt_2' } })}\n${JSON.stringify({ type: 'delivery', ...delivered, event_id: 'evt_2' })}\n` },
    ]);
  });

  it('writes what it holds when flushed, the text lines as before', () => {
    const { io, writes } = recordingIO(false);
    const sink = listenSink(io, { printSecret: false });
    sink.event(event, ['http://127.0.0.1:4242/hook'], false, JSON.stringify(event));
    sink.delivery(delivered);
    expect(writes).toEqual([]);
    sink.flush();
    expect(writes).toEqual([{ stream: 'stdout', text: '--> customer.created [evt_1]\n<-- [200] POST http://127.0.0.1:4242/hook [evt_1] 3ms\n' }]);
  });
});
