import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cliSandbox } from '../../test/support/cli.js';
import { Client } from '../client/client.js';
import { FlowFile } from '../domain/flows.js';
import { checkBodies, FlowBodyError, runFlow } from './runner.js';

const servers: Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve)))));

/** A local HTTP server answering fn's JSON; `received` counts the requests it got. */
async function serve(fn: (url: string) => unknown): Promise<{ origin: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(fn(req.url ?? '')));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('pay_checkout steps', () => {
  it('send no card to a checkout page on another origin than the service', async () => {
    const elsewhere = await serve(() => ({}));
    const session = { id: 'cs_1', object: 'checkout_session', checkout_session_url: `${elsewhere.origin}/checkout/cs_1`, payment_intent_id: 'pi_1' };
    // A run reads the event log before it starts: empty here.
    const service = await serve((url) => (url.startsWith('/v1/events') ? { object: 'list', data: [], has_more: false } : session));
    const client = new Client({ baseUrl: service.origin, account: 'acct_1', apiKey: 'sk_test_x', headerPrefix: 'pay', retries: 0 });
    const flow = FlowFile.parse({ name: 'pay', steps: [{ name: 'pay', pay_checkout: { session: 'cs_1' } }] });
    await expect(runFlow(flow, { client, warn: () => {} })).rejects.toThrow(/not on the service's origin/);
    expect(elsewhere.received).toEqual([]);
    await client.close();
  });

  it('have their card checked by the page\'s own rules before any step runs, naming the field', () => {
    const flow = FlowFile.parse({ name: 'pay', steps: [{ name: 'pay', pay_checkout: { session: 'cs_1', card: { exp: '12/99' } } }] });
    const check = (override: Record<string, unknown>) => () => checkBodies(flow, new Map([['pay', override]]));
    expect(check({ card: { exp: '13/99' } })).toThrow(new FlowBodyError("Invalid card of step 'pay': the checkout page refuses card.exp_month: must be the expiry month as an integer from 1 to 12."));
    expect(check({ card: { cvc: '1' } })).toThrow(/refuses card\.cvc: /);
    expect(check({ card: { zip: '' } })).toThrow(/refuses billing_details\.address\.zip: /);
    expect(check({ card: { bogus: '1' } })).toThrow(/^Invalid --override pay\.card\.bogus: a pay_checkout step takes no field 'card\.bogus'/);
    expect(check({ card: { number: '4000000000001117' } })).not.toThrow();
    expect(check({})).not.toThrow();
  });
});

describe('request steps', () => {
  it('have their body checked by the endpoint\'s schema; the fields a step takes leave out those fixed at creation', () => {
    const flow = FlowFile.parse({ name: 'update', steps: [{ name: 'update', request: { method: 'POST', path: '/v1/subscriptions/sub_1', body: { price: 5 } } }] });
    expect(() => checkBodies(flow, new Map())).toThrow(
      new FlowBodyError("Invalid step 'update': price: step 'update' (POST /v1/subscriptions/sub_1) takes no field 'price'; its fields: payment_method_id, metadata, platform_fee_amount, cancel_at."),
    );
  });
});

describe('present steps', () => {
  it('have their fields checked by the present endpoint\'s schema before any step runs, naming the field', () => {
    const flow = FlowFile.parse({ name: 'tap', steps: [{ name: 'tap', present: { reader: 'tmr_1', outcome: 'approved', tip_amount: 200 } }] });
    const check = (override: Record<string, unknown>) => () => checkBodies(flow, new Map([['tap', override]]));
    expect(check({ outcome: 'bogus' })).toThrow(/^Invalid --override tap\.outcome: must be one of approved, declined/);
    expect(check({ bogus: 1 })).toThrow(/^Invalid --override tap\.bogus: step 'tap' \(present\) takes no field 'bogus'; its fields: reader, outcome, card_number, tip_amount, available_amount, method\./);
    // A rule between fields, as the service applies it: a tip goes with a card that pays.
    expect(check({ outcome: 'declined' })).toThrow(new FlowBodyError('Invalid step \'tap\': tip_amount: goes with a card that pays, and outcome declined declines it.'));
    expect(check({ outcome: 'partial' })).not.toThrow();
    expect(check({})).not.toThrow();
  });
});

describe('a run\'s events', () => {
  const sb = cliSandbox();

  it('are those about its objects, oldest first: what others did meanwhile on the same service is not its', async () => {
    const client = new Client({ baseUrl: sb.baseUrl, account: sb.account, apiKey: sb.apiKey, headerPrefix: 'pay', retries: 0 });
    // Another client's customer, made between the run's steps (a CI job sharing the sandbox).
    let foreign: string | undefined;
    const raw = client.raw.bind(client);
    client.raw = async (...args) => {
      const response = await raw(...args);
      foreign ??= (await sb.http('POST', '/v1/customers', {})).body.id;
      return response;
    };
    const flow = FlowFile.parse(JSON.parse(readFileSync(new URL('../../flows/payment_intent.succeeded.json', import.meta.url), 'utf8')));
    const outcome = await runFlow(flow, { client, warn: () => {} });
    expect(outcome.events).toEqual(['payment_intent.created', 'payment_intent.succeeded', 'charge.succeeded']);
    // The foreign customer's event was logged during the run, between the run's own.
    const log = (await sb.http('GET', '/v1/events?limit=10')).body.data.map((event: { type: string; data: { object: { id: string } } }) => `${event.type} ${event.data.object.id}`);
    expect(log).toContain(`customer.created ${foreign}`);
    await client.close();
  });
});
