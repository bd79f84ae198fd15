import { isDeepStrictEqual } from 'node:util';
import type WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { endpoints, type EndpointName, fillPath, isWrite } from '../../src/domain/endpoints.js';
import { openWebSocket } from '../support/ws.js';
import { until } from '../support/wait.js';
import { Api, collectionOf, type Auth, collect, headersOf, SandboxProcess } from './support.js';

// Isolation on every endpoint of the route table: account X's key cannot read, list,
// change, retry, present on, or receive events of account Y's objects, over HTTP, the
// listen WebSocket and the reader WebSocket; and no wrong key tells whether an id
// exists (the same status and body, but for the id itself, for an existing id and a
// made-up one). Y's state is the same after as before.

const sandbox = new SandboxProcess({ clock: '2030-01-15' });
const api = new Api(() => sandbox.baseUrl);
let X: Auth;
let Y: Auth;
/** Y's object of each collection (the path segment after /v1/). */
const theirs = new Map<string, string>();
/** X's own objects, for bodies naming them (X's card confirming Y's intent). */
const mine: Record<string, string> = {};
let attempts = 0;

async function ok(auth: Auth, name: EndpointName, body?: unknown, id?: string) {
  const { method, path } = endpoints[name];
  const res = await api.call(auth, method, fillPath(path, id === undefined ? {} : { id }), body);
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An account's objects of every kind, a reader holding an action, events. */
async function populate(auth: Auth, serial: string): Promise<Record<string, string>> {
  const customer = await ok(auth, 'customers.create', { email: 'owner@example.com' });
  const pm = await ok(auth, 'payment_methods.create', { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } });
  await ok(auth, 'payment_methods.attach', { customer_id: customer.id }, pm.id);
  const paid = await ok(auth, 'payment_intents.create', { amount: 2000, currency: 'usd', payment_method_types: ['card'], confirm: true, payment_method_id: pm.id });
  const open = await ok(auth, 'payment_intents.create', { amount: 2000, currency: 'usd', payment_method_types: ['card'], capture_method: 'manual' });
  const refund = await ok(auth, 'refunds.create', { payment_intent_id: paid.id, amount: 100 });
  const sub = await ok(auth, 'subscriptions.create', { customer_id: customer.id, payment_method_id: pm.id, price: 1000, billing_cycle_anchor: '2030-01-15', interval_unit: 'month', interval_count: 1 });
  const session = await ok(auth, 'checkout_sessions.create', { amount: 1000, currency: 'usd', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' });
  const link = await ok(auth, 'payment_links.create', { amount: 1000, currency: 'usd' });
  const hook = await ok(auth, 'webhook_endpoints.create', { url: 'http://127.0.0.1:9/hook', enabled_events: ['customer.created'] });
  const code = await ok(auth, 'terminal_readers.activation_code', {});
  const reader = await ok(auth, 'terminal_readers.activate', { activation_code: code.code, serial_number: serial, processor: 'A', model: 'a-countertop' });
  const present = await ok(auth, 'payment_methods.create', { type: 'card_present', terminal_reader_id: reader.id });
  // The reader holds an action: a card presented on it would pay this intent.
  await ok(auth, 'payment_intents.create', { amount: 700, currency: 'usd', payment_method_types: ['card_present'], confirm: true, payment_method_id: present.id });
  const event = (await ok(auth, 'events.list')).data[0];
  return {
    customers: customer.id, 'payment-methods': pm.id, 'payment-intents': open.id, charges: paid.latest_charge_id, refunds: refund.id,
    subscriptions: sub.id, 'checkout-sessions': session.id, 'payment-links': link.id, 'webhook-endpoints': hook.id,
    'terminal-readers': reader.id, events: event.id, paid: paid.id,
  };
}

beforeAll(async () => {
  await sandbox.start();
  X = sandbox.auth;
  const created = await ok(X, 'test_helpers.accounts_create', {});
  Y = { account: created.id, apiKey: created.api_key };
  for (const [collection, id] of Object.entries(await populate(Y, 'SN-ISOLATION-Y'))) theirs.set(collection, id);
  Object.assign(mine, await populate(X, 'SN-ISOLATION-X'));
}, 60_000);
afterAll(() => sandbox.stop());

/** A made-up id shaped like `id`: same prefix and length. */
const madeUp = (id: string) => `${id.slice(0, id.indexOf('_') + 1)}${'Z'.repeat(id.length - id.indexOf('_') - 1)}`;
/** An answer with the id it names taken out: what it tells about the id beyond the id. */
const shape = (answer: { status: number; body: unknown }, id: string) => ({ status: answer.status, body: JSON.stringify(answer.body).replaceAll(id, '<id>') });

/** A body X could send for the operation on an object of its own, naming X's own objects. */
function bodyFor(name: EndpointName): unknown {
  const bodies: Partial<Record<EndpointName, unknown>> = {
    'payment_methods.attach': { customer_id: mine.customers },
    'payment_intents.update': { amount: 999 },
    'payment_intents.confirm': { payment_method_id: mine['payment-methods'] },
    'payment_intents.capture': {},
    'payment_intents.cancel': {},
    'subscriptions.update': { metadata: { taken: 'yes' } },
    'test_helpers.reader_present': { outcome: 'approved' },
    'events.resend': {},
  };
  return bodies[name] ?? (endpoints[name].method === 'POST' || endpoints[name].method === 'PUT' ? {} : undefined);
}

async function attempt(auth: Auth | Record<string, string>, method: string, path: string, body?: unknown) {
  attempts++;
  const headers = 'account' in auth ? headersOf(auth as Auth) : (auth as Record<string, string>);
  return api.call(undefined, method, path, body, { headers, key: isWrite(method) ? `iso-${attempts}` : undefined });
}

it('keeps each account\'s objects, lists and events from every other key, over HTTP, listen and the reader socket', async () => {
  const started = Date.now();
  const before = await collect(api, Y);
  const leaks: string[] = [];
  const wrongKeys = {
    'an unknown key': { 'pay-account': Y.account, 'pay-api-key': 'sk_test_not_a_key_of_anyone_0123456789' },
    'X\'s key for Y\'s account': { 'pay-account': Y.account, 'pay-api-key': X.apiKey },
    'no key': { 'pay-account': Y.account },
  };

  for (const [name, { method, path }] of Object.entries(endpoints) as Array<[EndpointName, (typeof endpoints)[EndpointName]]>) {
    const id = theirs.get(collectionOf(path));
    if (path.includes('{id}')) {
      if (id === undefined) {
        leaks.push(`${name}: no object of Y to try it on (add its collection to populate())`);
        continue;
      }
      const real = fillPath(path, { id });
      const fake = fillPath(path, { id: madeUp(id) });
      // X's own key: Y's object is as absent as a made-up one.
      const answer = await attempt(X, method, real, bodyFor(name));
      const absent = await attempt(X, method, fake, bodyFor(name));
      if (answer.status !== 404 && answer.status !== 403) leaks.push(`${name}: X's key on Y's ${id} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      if (!isDeepStrictEqual(shape(answer, id), shape(absent, madeUp(id)))) leaks.push(`${name}: X's key tells Y's ${id} from a made-up id: ${answer.status} vs ${absent.status}`);
      // A wrong key, for Y's own account: refused the same whether the id exists or not.
      for (const [which, headers] of Object.entries(wrongKeys)) {
        const a = await attempt(headers, method, real, bodyFor(name));
        const b = await attempt(headers, method, fake, bodyFor(name));
        if (a.status !== 401 && a.status !== 403) leaks.push(`${name} with ${which}: answered ${a.status}`);
        if (!isDeepStrictEqual(shape(a, id), shape(b, madeUp(id)))) leaks.push(`${name} with ${which}: tells an existing id from a made-up one (${a.status} vs ${b.status})`);
      }
    } else if (method === 'GET' && name.endsWith('.list')) {
      // X's lists hold none of Y's objects; Y's ids as filters or cursors find nothing.
      const listed = await api.all<{ id: string }>(X, path);
      attempts++;
      for (const object of listed) if ([...theirs.values()].includes(object.id)) leaks.push(`${name}: X's list holds Y's ${object.id}`);
      for (const [filter, collection] of [['customer_id', 'customers'], ['subscription_id', 'subscriptions'], ['payment_intent_id', 'paid'], ['starting_after', collectionOf(path)]] as const) {
        const foreign = theirs.get(collection);
        if (foreign === undefined) continue;
        const res = await attempt(X, 'GET', `${path}?${filter}=${foreign}`);
        const made = await attempt(X, 'GET', `${path}?${filter}=${madeUp(foreign)}`);
        if (res.status === 200 && res.body.data.length > 0) leaks.push(`${name}?${filter}=${foreign} shows X ${res.body.data.length} objects`);
        if (!isDeepStrictEqual(shape(res, foreign), shape(made, madeUp(foreign)))) leaks.push(`${name}?${filter}: tells Y's ${foreign} from a made-up id (${res.status} vs ${made.status})`);
      }
    }
  }

  // Creates naming Y's objects are refused as if they did not exist.
  const crossing: Array<[EndpointName, Record<string, unknown>, string]> = [
    ['payment_intents.create', { amount: 100, currency: 'usd', payment_method_types: ['card'], confirm: true, payment_method_id: theirs.get('payment-methods') }, 'payment_method_id'],
    ['payment_intents.create', { amount: 100, currency: 'usd', payment_method_types: ['card'], customer_id: theirs.get('customers') }, 'customer_id'],
    ['subscriptions.create', { customer_id: theirs.get('customers'), payment_method_id: theirs.get('payment-methods'), price: 100, billing_cycle_anchor: '2030-02-01', interval_unit: 'month', interval_count: 1 }, 'customer_id'],
    ['refunds.create', { payment_intent_id: theirs.get('paid') }, 'payment_intent_id'],
    ['checkout_sessions.create', { amount: 100, currency: 'usd', success_url: 'https://a.example/ok', cancel_url: 'https://a.example/no', customer_id: theirs.get('customers') }, 'customer_id'],
    ['payment_methods.create', { type: 'card_present', terminal_reader_id: theirs.get('terminal-readers') }, 'terminal_reader_id'],
  ];
  for (const [name, body, param] of crossing) {
    const res = await attempt(X, endpoints[name].method, endpoints[name].path, body);
    if (res.status !== 404 || res.body?.error?.param !== param) leaks.push(`${name} naming Y's ${String(body[param])}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  const attach = await attempt(X, 'PUT', fillPath(endpoints['payment_methods.attach'].path, { id: mine['payment-methods']! }), { customer_id: theirs.get('customers') });
  if (attach.status !== 404) leaks.push(`attaching X's card to Y's customer: ${attach.status}`);

  // The listen tunnel: X's carries X's events only; Y's cursors are unknown to it; a wrong key is refused.
  const listenUrl = (query: string) => `${sandbox.baseUrl.replace('http', 'ws')}${endpoints.listen.path}${query}`;
  const frames = (ws: WebSocket) => {
    const got: any[] = [];
    ws.on('message', (data) => got.push(JSON.parse(String(data))));
    return got;
  };
  // The events a tunnel received, however they were framed.
  const eventsIn = (got: any[]) => got.flatMap((f) => (f.type === 'events' ? f.events : f.type === 'event' ? [f.event] : []));
  const xTunnel = openWebSocket(listenUrl(''), headersOf(X));
  const yTunnel = openWebSocket(listenUrl(''), headersOf(Y));
  const xFrames = frames(xTunnel.ws);
  const yFrames = frames(yTunnel.ws);
  await Promise.all([xTunnel.opened, yTunnel.opened]);
  const yEvent = await ok(Y, 'customers.create', {});
  await until(() => eventsIn(yFrames).some((e) => e.data.object.id === yEvent.id), Boolean, 'Y\'s tunnel to get Y\'s event');
  const xEvent = await ok(X, 'customers.create', {});
  await until(() => eventsIn(xFrames).some((e) => e.data.object.id === xEvent.id), Boolean, 'X\'s tunnel to get X\'s event');
  attempts += 2;
  for (const event of eventsIn(xFrames)) if (event.data.object.id === yEvent.id) leaks.push(`X's listen tunnel got Y's event ${event.id}`);
  xTunnel.ws.close();
  yTunnel.ws.close();
  for (const [query, what] of [[`?from=${theirs.get('events')}`, 'from'], [`?after=${theirs.get('events')}`, 'after']] as const) {
    const tried = openWebSocket(listenUrl(query), headersOf(X));
    const made = openWebSocket(listenUrl(`?${what}=${madeUp(theirs.get('events')!)}`), headersOf(X));
    const [a, b] = await Promise.all([answerOf(tried), answerOf(made)]);
    attempts += 2;
    if (!isDeepStrictEqual(a.replaceAll(theirs.get('events')!, '<id>'), b.replaceAll(madeUp(theirs.get('events')!), '<id>'))) leaks.push(`listen ?${what}= tells Y's event from a made-up one: ${a} vs ${b}`);
    if (a.includes('"type":"event"')) leaks.push(`listen ?${what}=Y's event streamed events to X: ${a}`);
  }
  for (const [which, headers] of Object.entries(wrongKeys)) {
    const refused = openWebSocket(listenUrl(''), headers);
    attempts++;
    const answer = await answerOf(refused);
    if (!/^HTTP 40[13]/.test(answer)) leaks.push(`listen with ${which}: ${answer}`);
  }

  // The reader socket: X cannot connect as Y's reader (by id), nor get Y's reader's action.
  const reader = openWebSocket(`${sandbox.baseUrl.replace('http', 'ws')}${endpoints['terminal_readers.connect'].path}`, headersOf(X));
  const readerFrames = frames(reader.ws);
  await reader.opened;
  reader.ws.send(JSON.stringify({ type: 'hello', serial_number: 'SN-ISOLATION-Y', processor: 'A', model: 'a-countertop', terminal_reader_id: theirs.get('terminal-readers') }));
  attempts++;
  await until(() => readerFrames.length, (n) => n > 0, 'the answer to the hello');
  if (readerFrames[0].type !== 'error' || readerFrames[0].status !== 404) leaks.push(`X's hello as Y's reader: ${JSON.stringify(readerFrames[0])}`);
  reader.ws.close();
  for (const [which, headers] of Object.entries(wrongKeys)) {
    const refused = openWebSocket(`${sandbox.baseUrl.replace('http', 'ws')}${endpoints['terminal_readers.connect'].path}`, headers);
    attempts++;
    const answer = await answerOf(refused);
    if (!/^HTTP 40[13]/.test(answer)) leaks.push(`reader socket with ${which}: ${answer}`);
  }

  // Y's objects and events are as they were, but for the customer Y made itself.
  const after = await collect(api, Y);
  after.objects.customer = after.objects.customer.filter((c) => c.id !== yEvent.id);
  after.events = after.events.filter((e) => e.data.object.id !== yEvent.id);
  expect(after).toEqual(before);
  console.log(`reliability isolation: ${attempts} cross-account and wrong-key attempts on ${Object.keys(endpoints).length} endpoints (HTTP, listen, reader socket), ${leaks.length} leaks, ${((Date.now() - started) / 1000).toFixed(1)}s`);
  expect(leaks).toEqual([]);
}, 120_000);

/** How a WebSocket upgrade was answered: its refusal, or the frames of its first moment. */
async function answerOf(socket: { ws: WebSocket; opened: Promise<void> }): Promise<string> {
  const got: string[] = [];
  socket.ws.on('message', (data) => got.push(String(data)));
  try {
    await socket.opened;
  } catch (error) {
    const refusal = error as { status: number; body: unknown };
    return `HTTP ${refusal.status} ${JSON.stringify(refusal.body)}`;
  }
  await until(() => got.length, (n) => n > 0, 'the ready frame');
  socket.ws.close();
  return got.map((frame) => frame.replace(/"backlog":\d+/, '"backlog":n')).join('\n');
}
