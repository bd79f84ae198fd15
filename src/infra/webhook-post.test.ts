import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { postSignedEvent } from './webhook-post.js';
import { newWebhookSecret } from './webhook-signing.js';

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** An app on a loopback port, answering as `answer` says (or never); it counts the requests it got. */
async function app(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  closing.push(async () => server.closeAllConnections());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, seen };
}

function dispatcher(): Agent {
  const agent = new Agent();
  closing.push(() => agent.destroy());
  return agent;
}

const event = (n: number) => ({ id: `evt_post${n}`, object: 'event', type: 'customer.created' });
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('postSignedEvent', () => {
  it('says how a POST went: the status, or a short reason when nothing answered', async () => {
    const ok = await app((_req, res) => res.writeHead(204).end());
    const agent = dispatcher();
    const secret = newWebhookSecret();
    const answered = await postSignedEvent(ok.url, event(1), secret, { dispatcher: agent, userAgent: 'test', timeoutMs: 10_000 });
    expect(answered).toMatchObject({ status_code: 204, error: null });
    expect(Date.parse(answered.attempted_at)).not.toBeNaN();
    expect(ok.seen[0]!.headers).toMatchObject({ 'webhook-id': 'evt_post1', 'user-agent': 'test', 'content-type': 'application/json' });

    const refused = await postSignedEvent('http://127.0.0.1:9/hooks', event(2), secret, { dispatcher: agent, userAgent: 'test', timeoutMs: 10_000 });
    expect(refused).toMatchObject({ status_code: null, error: 'ECONNREFUSED' });
  });

  it('cuts every POST in flight under a signal when it aborts, and sends none once it has', async () => {
    const silent = await app(() => {});
    const agent = dispatcher();
    const secret = newWebhookSecret();
    const controller = new AbortController();
    const posts = [1, 2, 3].map((n) => postSignedEvent(silent.url, event(n), secret, { dispatcher: agent, userAgent: 'test', timeoutMs: 10_000, signal: controller.signal }));
    const settled = Promise.allSettled(posts);
    await until(() => silent.seen.length === 3);
    controller.abort(new Error('stopping'));
    const outcomes = await settled;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    await until(() => silent.seen.every((req) => req.socket.destroyed));

    await expect(postSignedEvent(silent.url, event(4), secret, { dispatcher: agent, userAgent: 'test', timeoutMs: 10_000, signal: controller.signal })).rejects.toThrow('stopping');
    expect(silent.seen).toHaveLength(3);
  });

  it('lets a finished POST go: a later abort cuts only what is still in flight, and a signal has one listener, not one a POST', async () => {
    let hold = true;
    const held: ServerResponse[] = [];
    const slow = await app((_req, res) => (hold ? held.push(res) : res.writeHead(200).end()));
    const agent = dispatcher();
    const secret = newWebhookSecret();
    const controller = new AbortController();
    const waiting = postSignedEvent(slow.url, event(1), secret, { dispatcher: agent, userAgent: 'test', timeoutMs: 10_000, signal: controller.signal });
    await until(() => held.length === 1);
    hold = false;
    for (const n of [2, 3, 4]) {
      await expect(postSignedEvent(slow.url, event(n), secret, { dispatcher: agent, userAgent: 'test', timeoutMs: 10_000, signal: controller.signal })).resolves.toMatchObject({ status_code: 200 });
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(new Error('stopping'));
    await expect(waiting).rejects.toThrow('stopping');
  });

  it('gives up on an app that trickles its answer once the attempt has had its whole time', async () => {
    const trickles: NodeJS.Timeout[] = [];
    closing.push(async () => trickles.forEach(clearInterval));
    // Headers at once, then a byte every 20 ms: each within the body timeout, the body never done.
    const trickling = await app((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      trickles.push(setInterval(() => res.write('.'), 20));
    });
    const agent = new Agent({ bodyTimeout: 1_000 });
    closing.push(() => agent.destroy());
    const attempt = await postSignedEvent(trickling.url, event(1), newWebhookSecret(), { dispatcher: agent, userAgent: 'test', timeoutMs: 300 });
    expect(attempt).toMatchObject({ status_code: null, error: 'timeout' });
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(300);
  });
});
