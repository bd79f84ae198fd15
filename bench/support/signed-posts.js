// Row 4's baseline sender: event bodies signed as listen signs them (Standard Webhooks, the
// listener's secret, at send time) and POSTed straight to the app, `window` in flight.
// bench/listen.js sends them from its own process (the app's); run as a script, this file
// sends them from a process of its own, as listen's deliveries come: BODIES (a JSON file of
// { id, body }), SECRET, APP_URL and WINDOW from the environment.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';

/** A sender to one app: `send(bodies, window)` POSTs them, `window` at a time, oldest first. */
export function signedSender(appUrl, secret, connections) {
  const signer = new Webhook(secret);
  const dispatcher = new Agent({ connections });
  const post = async ({ id, body }) => {
    const now = new Date();
    const response = await request(appUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signer.sign(id, now, body) },
      body,
      dispatcher,
    });
    await response.body.dump();
  };
  const send = async (bodies, window) => {
    let next = 0;
    await Promise.all(Array.from({ length: window }, async () => {
      while (next < bodies.length) await post(bodies[next++]);
    }));
  };
  return { post, send, close: () => dispatcher.close() };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const window = Number(process.env.WINDOW);
  const sender = signedSender(process.env.APP_URL, process.env.SECRET, window);
  await sender.send(JSON.parse(readFileSync(process.env.BODIES, 'utf8')), window);
  await sender.close();
}
