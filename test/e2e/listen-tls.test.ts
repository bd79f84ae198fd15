import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

/** A local app on https with a self-signed certificate (a fixture valid until 2126), as `mkcert`-less dev servers run. */
const tls = { key: readFileSync(new URL('fixtures/self-signed.key', import.meta.url)), cert: readFileSync(new URL('fixtures/self-signed.crt', import.meta.url)) };

let sb: SandboxHandle;
let app: Server;
const received: string[] = [];
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
  app = createServer(tls, (req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => app.close(resolve));
  await sb?.stop();
});

describe('pay webhooks listen to an https app with a self-signed certificate', () => {
  it('says --skip-verify is the way to take it, and with it delivers what waited in the spool', async () => {
    const url = `https://127.0.0.1:${(app.address() as AddressInfo).port}/hook`;
    const refused = sb.spawn(['webhooks', 'listen', '--forward-to', url]);
    await refused.line(/^Ready!/);
    await sb.http('POST', '/v1/customers', {});
    const id = (await sb.http('GET', '/v1/events?limit=1')).body.data[0].id;
    await refused.said(/is not answering \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    expect(refused.stderr()).toMatch(/Its TLS certificate is not trusted: run pay webhooks listen with --skip-verify to accept it\./);
    refused.signal('SIGINT');
    expect(await refused.exited()).toBe(0);
    expect(received).toEqual([]);

    const skipping = sb.spawn(['webhooks', 'listen', '--forward-to', url, '--skip-verify']);
    await skipping.line(new RegExp(`^<-- \\[200\\] POST ${url.replace(/\./g, '\\.')} \\[${id}\\]`));
    expect(received).toEqual([id]);
    skipping.signal('SIGINT');
    expect(await skipping.exited()).toBe(0);
  });
});
