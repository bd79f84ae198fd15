import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';
import { openWebSocket } from '../../../../test/support/ws.js';

// Spec section 3's payment intent table through the CLI (in-process): every state a card or
// card_present intent reaches, and the transitions between them (DESIGN section 5).

const dbDir = mkdtempSync(join(tmpdir(), 'pay-cli-db-'));
const dbFile = join(dbDir, 'sandbox.db');
const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z', db: dbFile });
afterAll(() => rmSync(dbDir, { recursive: true, force: true }));

/** A card payment method, made over HTTP: set-up, not what these tests are about. */
async function pm(number = '4242424242424242'): Promise<string> {
  const res = await sb.http('POST', '/v1/payment-methods', { type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: number.startsWith('37') ? '1234' : '123' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

const createIntent = (...extra: string[]) => sb.json(['intents', 'create', '--amount', '1000', '--currency', 'usd', ...extra]);

describe('card payment intents', () => {
  it('requires_payment_method → requires_confirmation → succeeded, with one charge', async () => {
    const open = await createIntent();
    expect(open).toMatchObject({ object: 'payment_intent', status: 'requires_payment_method', amount: 1000, amount_received: 0, payment_method_types: ['card'], capture_method: 'automatic', subscription_id: null });
    const id = await pm();
    const paid = await sb.json(['intents', 'confirm', open.id, '--payment-method', id]);
    expect(paid).toMatchObject({ id: open.id, status: 'succeeded', amount_received: 1000, payment_method_id: id });

    const waiting = await createIntent('--payment-method', await pm('5555555555554444'));
    expect(waiting.status).toBe('requires_confirmation');
    expect((await sb.json(['intents', 'confirm', waiting.id])).status).toBe('succeeded');

    const charges = await sb.json(['charges', 'list', '--payment-intent', open.id]);
    expect(charges.data).toHaveLength(1);
    expect(await sb.json(['charges', 'get', charges.data[0].id])).toMatchObject({ status: 'succeeded', amount: 1000, amount_captured: 1000, payment_intent_id: open.id });

    const again = await sb.pay(['intents', 'confirm', open.id, '--payment-method', id]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('succeeded');
  });

  it('confirm=true at creation pays at once; a decline exits 6 with the code and the intent, which can be retried', async () => {
    expect((await createIntent('--confirm', '--payment-method', await pm())).status).toBe('succeeded');

    const declined = await sb.pay(['intents', 'create', '--amount', '1000', '--currency', 'usd', '--confirm', '--payment-method', await pm('4000000000000002')]);
    expect(declined.code).toBe(6);
    expect(declined.stderr).toContain('card_declined');
    const intentId = /pi_[A-Za-z0-9]+/.exec(declined.stderr)?.[0];
    expect(intentId).toBeDefined();
    const kept = await sb.json(['intents', 'get', intentId!]);
    expect(kept).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });
    const retried = await sb.json(['intents', 'confirm', intentId!, '--payment-method', await pm()]);
    expect(retried).toMatchObject({ status: 'succeeded', last_payment_error: null });
    const attempts = await sb.json(['charges', 'list', '--payment-intent', intentId!]);
    expect(attempts.data.map((c: { status: string }) => c.status)).toEqual(['succeeded', 'failed']);
  });

  it('each decline test card exits 6 with its code', async () => {
    for (const [number, code] of [['4000000000009995', 'insufficient_funds'], ['4000000000000069', 'expired_card'], ['4000000000000127', 'incorrect_cvc']] as const) {
      const open = await sb.http('POST', '/v1/payment-intents', { amount: 500, currency: 'usd', payment_method_types: ['card'] });
      const res = await sb.pay(['intents', 'confirm', open.body.id, '--payment-method', await pm(number)]);
      expect(res.code, number).toBe(6);
      expect(res.stderr, number).toContain(code);
      expect(res.stderr).toContain(open.body.id);
    }
  });

  it('partial authorization: the charge succeeds with amount_captured below the amount', async () => {
    const paid = await sb.json(['intents', 'create', '--amount', '1001', '--currency', 'usd', '--confirm', '--payment-method', await pm('4000000000005555')]);
    expect(paid).toMatchObject({ status: 'succeeded', amount: 1001, amount_received: 500 });
    expect(await sb.json(['charges', 'get', paid.latest_charge_id])).toMatchObject({ status: 'succeeded', amount_captured: 500 });
  });

  it('manual capture: requires_capture, captured once, at most the authorized amount', async () => {
    const held = await createIntent('--capture-method', 'manual', '--confirm', '--payment-method', await pm());
    expect(held).toMatchObject({ status: 'requires_capture', amount_capturable: 1000, amount_received: 0 });
    const tooMuch = await sb.pay(['intents', 'capture', held.id, '--amount-to-capture', '1001']);
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toContain('param: amount_to_capture');
    expect(await sb.json(['intents', 'capture', held.id, '--amount-to-capture', '600'])).toMatchObject({ status: 'succeeded', amount_received: 600 });
    expect(await sb.json(['charges', 'get', held.latest_charge_id])).toMatchObject({ captured: true, amount_captured: 600 });
    const twice = await sb.pay(['intents', 'capture', held.id]);
    expect(twice.code).toBe(5);
    expect(twice.stderr).toContain('only once');
    // The rule in words: users have no spec to look up.
    expect(twice.stderr).not.toMatch(/spec|section/i);
  });

  it('cancel before processing or succeeded, never after', async () => {
    const fromRequiresPaymentMethod = await createIntent();
    // Destructive: a script must say --yes, and is told so before anything changes.
    const unconfirmed = await sb.pay(['intents', 'cancel', fromRequiresPaymentMethod.id]);
    expect({ code: unconfirmed.code, stderr: unconfirmed.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/^✗ Missing --yes: canceling a payment intent is irreversible/) });
    expect((await sb.json(['intents', 'get', fromRequiresPaymentMethod.id])).status).toBe('requires_payment_method');
    const fromRequiresConfirmation = await createIntent('--payment-method', await pm());
    const fromRequiresCapture = await createIntent('--capture-method', 'manual', '--confirm', '--payment-method', await pm());
    for (const intent of [fromRequiresPaymentMethod, fromRequiresConfirmation, fromRequiresCapture]) {
      const canceled = await sb.json(['intents', 'cancel', intent.id, '--cancellation-reason', 'requested_by_customer', '--yes']);
      expect(canceled, intent.status).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_customer' });
    }
    expect((await sb.json(['charges', 'get', fromRequiresCapture.latest_charge_id])).status).toBe('canceled');
    const retry = await sb.pay(['intents', 'confirm', fromRequiresPaymentMethod.id, '--payment-method', await pm()]);
    expect(retry.code).toBe(5);
    const paid = await createIntent('--confirm', '--payment-method', await pm());
    const late = await sb.pay(['intents', 'cancel', paid.id, '--yes']);
    expect(late.code).toBe(5);
    expect(late.stderr).toContain('succeeded');
  });

  it('updates the amount before confirmation only', async () => {
    const open = await createIntent();
    expect(await sb.json(['intents', 'update', open.id, '--amount', '2500'])).toMatchObject({ amount: 2500, status: 'requires_payment_method' });
    expect((await sb.json(['intents', 'confirm', open.id, '--payment-method', await pm()])).amount_received).toBe(2500);
    expect((await sb.pay(['intents', 'update', open.id, '--amount', '10'])).code).toBe(5);
    // Nothing to update: the rule says what may be given, not that --amount alone is required.
    const nothing = await sb.pay(['intents', 'update', open.id]);
    expect([nothing.code, nothing.stderr]).toEqual([2, '✗ Missing --amount: give the new amount (or description, metadata) to update.']);
  });

  it('lists by status and customer', async () => {
    const customer = (await sb.http('POST', '/v1/customers', { email: 'list@example.com' })).body;
    const attached = await sb.json(['payment-methods', 'create', '--card', '4242424242424242', '--exp', '12/34', '--cvc', '123', '--customer', customer.id]);
    expect(attached.customer_id).toBe(customer.id);
    const mine = await createIntent('--customer', customer.id, '--confirm', '--payment-method', attached.id);
    expect((await sb.json(['intents', 'list', '--customer', customer.id])).data.map((p: { id: string }) => p.id)).toEqual([mine.id]);
    const canceled = await sb.json(['intents', 'list', '--status', 'canceled', '--limit', '100']);
    expect(canceled.data.length).toBeGreaterThan(0);
    expect(canceled.data.every((p: { status: string }) => p.status === 'canceled')).toBe(true);
    expect((await sb.json(['payment-methods', 'list', '--customer', customer.id])).data.map((p: { id: string }) => p.id)).toEqual([attached.id]);
  });

  it('idempotent replay of a confirm returns the same intent and creates no second charge', async () => {
    const open = await createIntent('--payment-method', await pm());
    const args = ['api', 'POST', `/v1/payment-intents/${open.id}/confirm`, '--idempotency-key', `confirm-${open.id}`, '--verbose'];
    const first = await sb.pay(args);
    const replay = await sb.pay(args);
    expect(first.code).toBe(0);
    expect(replay.code).toBe(0);
    expect(replay.stderr).toContain('[replayed]');
    expect(JSON.parse(replay.stdout)).toEqual(JSON.parse(first.stdout));
    expect(JSON.parse(first.stdout).status).toBe('succeeded');
    expect((await sb.json(['charges', 'list', '--payment-intent', open.id])).data).toHaveLength(1);
  });

  it('without a TTY or with --no-input, missing values are usage errors naming the flag', async () => {
    const noAmount = await sb.pay(['intents', 'create', '--currency', 'usd', '--no-input']);
    expect(noAmount.code).toBe(2);
    expect(noAmount.stderr).toContain('--amount');
    const noMethod = await sb.pay(['intents', 'create', '--amount', '100', '--currency', 'usd', '--confirm']);
    expect(noMethod.code).toBe(2);
    expect(noMethod.stderr).toContain('--payment-method');
    const badCard = await sb.pay(['payment-methods', 'create', '--card', '4242424242424241', '--exp', '12/34', '--cvc', '123']);
    expect(badCard.code).toBe(2);
    expect(badCard.stderr).toContain('--card');
    expect(badCard.stderr).not.toContain('4242424242424241');
    const badCvc = await sb.pay(['payment-methods', 'create', '--card', '378282246310005', '--exp', '12/34', '--cvc', '12']);
    expect(badCvc.code).toBe(2);
    expect(badCvc.stderr).toContain('--cvc');
    // Two ways of giving one value, given both: refused, not one silently dropped.
    const before = (await sb.json(['payment-methods', 'list', '--limit', '100'])).data.length;
    for (const [args, both] of [[['--card', '4242424242424242', '--card-number', '5555555555554444', '--exp', '12/34'], /--card .* cannot be used with option '--card-number/], [['--card', '4242424242424242', '--exp', '12/34', '--exp-month', '5'], /--exp .* cannot be used with option '--exp-month/]] as const) {
      const refused = await sb.pay(['payment-methods', 'create', ...args, '--cvc', '123']);
      expect([refused.code, refused.stderr], args.join(' ')).toEqual([2, expect.stringMatching(both)]);
    }
    expect((await sb.json(['payment-methods', 'list', '--limit', '100'])).data.length).toBe(before);
  });

  it('refuses cards that can never be paid online, and expired ones by the test clock', async () => {
    const hsa = await sb.pay(['payment-methods', 'create', '--card', '4000000000001117', '--exp', '12/34', '--cvc', '123']);
    expect(hsa.code).toBe(6);
    expect(hsa.stderr).toContain('card_not_supported');
    expect(hsa.stderr).toContain('param: card.number');
    const jcb = await sb.pay(['payment-methods', 'create', '--card', '3566002020360505', '--exp', '12/34', '--cvc', '123']);
    expect(jcb.stderr).toContain('card_not_supported');
    const expired = await sb.pay(['payment-methods', 'create', '--card', '4242424242424242', '--exp', '12/29', '--cvc', '123']);
    expect(expired.code).toBe(6);
    expect(expired.stderr).toContain('expired_card');
    expect(expired.stderr).toContain('param: card.exp_year');
  });
});

describe('in-person payments on a terminal reader', () => {
  let reader: { id: string };
  let presentPm: string;

  beforeAll(async () => {
    const code = await sb.json(['readers', 'activation-code']);
    reader = await sb.json(['readers', 'activate', '--activation-code', code.code, '--serial', 'SN-E2E-0001', '--processor', 'A', '--model', 'a-countertop']);
    presentPm = (await sb.json(['payment-methods', 'create', '--type', 'card_present', '--reader', reader.id])).id;
  });

  const inPerson = (...extra: string[]) =>
    sb.json(['intents', 'create', '--amount', '1000', '--currency', 'usd', '--payment-method-types', 'card_present', '--capture-method', 'automatic', '--confirm', '--payment-method', presentPm, ...extra]);

  it('activates a self-owned processor A reader only', async () => {
    expect(reader).toMatchObject({ object: 'terminal_reader', processor: 'A', model: 'a-countertop', device_type: 'self_owned', status: 'offline', serial_number: 'SN-E2E-0001' });
    expect((await sb.json(['readers', 'list'])).data.map((r: { id: string }) => r.id)).toContain(reader.id);
    expect(await sb.json(['readers', 'get', reader.id])).toMatchObject({ id: reader.id });
    const code = await sb.json(['readers', 'activation-code']);
    const b = await sb.pay(['readers', 'activate', '--activation-code', code.code, '--serial', 'SN-E2E-0002', '--processor', 'B', '--model', 'b-mobile']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--processor');
  });

  it('requires_action → succeeded with a tip: amount_received = amount + tip', async () => {
    const intent = await inPerson();
    expect(intent).toMatchObject({ status: 'requires_action', next_action: { type: 'terminal_reader', terminal_reader_id: reader.id } });
    const paid = await sb.json(['readers', 'present', reader.id, '--tip-amount', '150']);
    expect(paid).toMatchObject({ id: intent.id, status: 'succeeded', amount: 1000, amount_received: 1150, tip_amount: 150 });
    expect(await sb.json(['charges', 'get', paid.latest_charge_id])).toMatchObject({ status: 'succeeded', amount_captured: 1150 });
  });

  it('partial authorization on the reader', async () => {
    await inPerson();
    const paid = await sb.json(['readers', 'present', reader.id, '--available-amount', '600']);
    expect(paid).toMatchObject({ status: 'succeeded', amount_received: 600 });
    expect(await sb.json(['charges', 'get', paid.latest_charge_id])).toMatchObject({ status: 'succeeded', amount_captured: 600 });
  });

  it('a declined card exits 6 and returns the intent to requires_payment_method; it is retried on the reader', async () => {
    const intent = await inPerson();
    const declined = await sb.pay(['readers', 'present', reader.id, '--outcome', 'declined', '--json']);
    expect(declined.code, declined.stderr).toBe(6);
    expect(JSON.parse(declined.stdout)).toMatchObject({ id: intent.id, status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });
    expect(JSON.parse(declined.stderr).error).toMatchObject({ code: 'card_declined', exit_code: 6 });
    expect((await sb.json(['intents', 'confirm', intent.id, '--payment-method', presentPm])).status).toBe('requires_action');
    const jcb = await sb.pay(['readers', 'present', reader.id, '--card', '3566002020360505']);
    expect(jcb.code).toBe(6);
    expect(jcb.stderr).toContain('card_not_supported');
    expect(jcb.stdout).toMatch(/^last_payment_error\t.*card_not_supported/m);
    await sb.json(['intents', 'confirm', intent.id, '--payment-method', presentPm]);
    // With --json, the error object carries the decline's own code, as a 402's would; --card-number is --card by the field's name.
    expect((await sb.pay(['readers', 'present', reader.id, '--card', '4242424242424242', '--card-number', '3566002020360505'])).code).toBe(2);
    const jcbJson = await sb.pay(['readers', 'present', reader.id, '--card-number', '3566002020360505', '--json']);
    expect(JSON.parse(jcbJson.stderr).error).toMatchObject({ type: 'card_error', code: 'card_not_supported', payment_intent_id: intent.id, exit_code: 6 });
    await sb.json(['intents', 'confirm', intent.id, '--payment-method', presentPm]);
    expect((await sb.json(['readers', 'present', reader.id])).status).toBe('succeeded');
  });

  it('payment-methods create checks --customer before any request: an id of another kind, or a card_present method (never attached)', async () => {
    const customer = await sb.json(['customers', 'create']);
    const before = (await sb.json(['payment-methods', 'list', '--limit', '100'])).data.length;
    const otherKind = await sb.pay(['payment-methods', 'create', '--card', '4242424242424242', '--exp', '12/34', '--cvc', '123', '--customer', 'pi_123', '--verbose']);
    expect([otherKind.code, otherKind.stderr]).toEqual([2, expect.stringContaining('Invalid --customer: must be an id starting with cus_.')]);
    expect(otherKind.stderr).not.toMatch(/^> /m);
    const present = await sb.pay(['payment-methods', 'create', '--type', 'card_present', '--reader', reader.id, '--customer', customer.id]);
    expect([present.code, present.stderr]).toEqual([2, expect.stringContaining('--customer is for type card')]);
    expect((await sb.json(['payment-methods', 'list', '--limit', '100'])).data.length).toBe(before);
  });

  it('cancel while the reader waits frees it', async () => {
    const intent = await inPerson();
    expect((await sb.json(['intents', 'cancel', intent.id, '--yes'])).status).toBe('canceled');
    expect((await sb.json(['readers', 'get', reader.id])).action).toBeNull();
    expect((await sb.pay(['readers', 'present', reader.id])).code).toBe(5);
  });
});

describe('refunds', () => {
  it('refunds in part, then the rest, never beyond what was captured', async () => {
    const paid = await createIntent('--confirm', '--payment-method', await pm());
    const part = await sb.json(['refunds', 'create', '--payment-intent', paid.id, '--amount', '300', '--reason', 'requested_by_customer']);
    expect(part).toMatchObject({ object: 'refund', status: 'succeeded', amount: 300, payment_intent_id: paid.id });
    const over = await sb.pay(['refunds', 'create', '--payment-intent', paid.id, '--amount', '701']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('param: amount');
    const rest = await sb.json(['refunds', 'create', '--payment-intent', paid.id]);
    expect(rest.amount).toBe(700);
    expect((await sb.pay(['refunds', 'create', '--payment-intent', paid.id])).code).toBe(5);
    expect(await sb.json(['charges', 'get', paid.latest_charge_id])).toMatchObject({ amount_refunded: 1000, refunded: true });
    expect((await sb.json(['refunds', 'list', '--payment-intent', paid.id])).data.map((r: { amount: number }) => r.amount)).toEqual([700, 300]);
    expect(await sb.json(['refunds', 'get', part.id])).toEqual(part);
  });

  it('a partial authorization refunds at most what was captured', async () => {
    const paid = await createIntent('--confirm', '--payment-method', await pm('4000000000005555'));
    expect((await sb.pay(['refunds', 'create', '--payment-intent', paid.id, '--amount', '501'])).code).toBe(1);
    expect((await sb.json(['refunds', 'create', '--payment-intent', paid.id])).amount).toBe(500);
  });

  it('at a terminal, says the amount refunded in the currency\'s format', async () => {
    const paid = await createIntent('--confirm', '--payment-method', await pm());
    const refund = await sb.pay(['refunds', 'create', '--payment-intent', paid.id, '--amount', '300'], { terminal: true });
    expect(refund.stderr).toMatch(/^✓ Refunded \$3\.00 \(re_\w+\)$/m);
  });
});

describe('partial authorization at a terminal', () => {
  it('is said only when the card authorized less, not for a capture of less', async () => {
    // Captured for less than was authorized, by choice: no partial authorization.
    const held = await createIntent('--capture-method', 'manual', '--confirm', '--payment-method', await pm());
    const captured = await sb.pay(['intents', 'capture', held.id, '--amount-to-capture', '400'], { terminal: true });
    expect([captured.code, captured.stderr]).toEqual([0, `✓ Captured payment intent ${held.id}: succeeded`]);
    // The card authorized half: said when it is known, at confirmation.
    const partial = await createIntent('--capture-method', 'manual');
    const confirmed = await sb.pay(['intents', 'confirm', partial.id, '--payment-method', await pm('4000000000005555')], { terminal: true });
    expect(confirmed.stderr).toContain('Partial authorization: $5.00 of $10.00 authorized.');
    const automatic = await createIntent();
    const received = await sb.pay(['intents', 'confirm', automatic.id, '--payment-method', await pm('4000000000005555')], { terminal: true });
    expect(received.stderr).toContain('Partial authorization: $5.00 of $10.00 received.');
  });
});

describe('same-day refunds on a processor B reader', () => {
  /** A processor B developer reader, online while its connection is open (it answers pings). */
  async function onlineReaderB(): Promise<{ id: string; close: () => void }> {
    const { ws, opened } = openWebSocket(`${sb.baseUrl.replace('http', 'ws')}/v1/terminal-readers/connect`, sb.sandbox.headers);
    const registered = new Promise<{ id: string }>((resolve) =>
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data));
        if (frame.type === 'registered') resolve(frame.reader);
        if (frame.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      }),
    );
    await opened;
    ws.send(JSON.stringify({ type: 'hello', serial_number: `SN-B-${Math.random().toString(36).slice(2, 8)}`, processor: 'B', model: 'b-mobile' }));
    return { id: (await registered).id, close: () => ws.terminate() };
  }

  it('a refund the card declines on the reader exits 6, as a declined payment does; one it accepts exits 0', async () => {
    const reader = await onlineReaderB();
    try {
      const cardPresent = (await sb.json(['payment-methods', 'create', '--type', 'card_present', '--reader', reader.id])).id;
      const paid = await createIntent('--payment-method-types', 'card_present', '--confirm', '--payment-method', cardPresent);
      expect((await sb.json(['readers', 'present', reader.id])).status).toBe('succeeded');

      const refund = await sb.json(['refunds', 'create', '--payment-intent', paid.id, '--amount', '400']);
      expect(refund.status).toBe('pending');
      const declined = await sb.pay(['readers', 'present', reader.id, '--outcome', 'declined', '--json']);
      expect(declined.code, declined.stderr).toBe(6);
      expect(JSON.parse(declined.stdout)).toMatchObject({ id: refund.id, object: 'refund', status: 'failed' });
      expect(JSON.parse(declined.stderr).error).toMatchObject({ type: 'card_error', code: 'card_declined', payment_intent_id: paid.id, refund_id: refund.id, exit_code: 6 });
      await sb.json(['refunds', 'create', '--payment-intent', paid.id, '--amount', '400']);
      const human = await sb.pay(['readers', 'present', reader.id, '--card-number', '4000000000001117']); // HSA/FSA: never accepted
      expect(human.code).toBe(6);
      expect(human.stderr).toContain('Refund re_');
      expect(human.stderr).toContain('failed');
      expect(human.stdout).toMatch(/^status\tfailed$/m);

      await sb.json(['refunds', 'create', '--payment-intent', paid.id, '--amount', '400']);
      expect(await sb.json(['readers', 'present', reader.id])).toMatchObject({ object: 'refund', status: 'succeeded', amount: 400 });
    } finally {
      reader.close();
    }
  });
});

describe('test cards and help', () => {
  it('pay sandbox cards lists every test card with its outcome', async () => {
    const cards = (await sb.json(['sandbox', 'cards'])).data;
    expect(cards).toHaveLength(13);
    expect(cards).toContainEqual(expect.objectContaining({ number: '4242424242424242', brand: 'visa', outcome: 'success' }));
    expect(cards).toContainEqual(expect.objectContaining({ number: '4000000000005555', outcome: 'partial' }));
    const table = await sb.pay(['sandbox', 'cards']);
    expect(table.stdout).toMatch(/^4000000000001117\tvisa\tHSA\/FSA/m);
  });

  it('documents the reader outcomes a test can present', async () => {
    const help = await sb.pay(['readers', 'present', '--help']);
    for (const word of ['approved', 'declined', 'insufficient_funds', 'hsa_fsa', '--tip-amount', '--available-amount', '--card']) expect(help.stdout).toContain(word);
  });
});

describe('card data', () => {
  it('the card number and cvc appear nowhere: database file, responses, events, output, traces', async () => {
    const number = '4000056655665556';
    const created = await sb.pay(['payment-methods', 'create', '--card', number, '--exp', '11/33', '--cvc', '987', '--zip', '94110', '--verbose', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const pmId = JSON.parse(created.stdout).id;
    expect(JSON.parse(created.stdout).card).toEqual({ brand: 'visa', last4: '5556', exp_month: 11, exp_year: 2033, fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const paid = await sb.pay(['intents', 'create', '--amount', '100', '--currency', 'usd', '--confirm', '--payment-method', pmId, '--verbose']);
    const raw = await sb.pay(['api', 'POST', '/v1/payment-methods', '--data-json', JSON.stringify({ type: 'card', card: { number, exp_month: 11, exp_year: 2033, cvc: '987' } }), '--verbose']);
    expect(raw.stderr).toContain('"number":"…5556"');
    for (const output of [created, paid, raw]) {
      expect(output.stdout + output.stderr).not.toContain(number);
      expect(output.stdout + output.stderr).not.toContain('"cvc":"987"');
    }
    const events = await sb.http('GET', '/v1/events?limit=100');
    const fetched = [await sb.http('GET', `/v1/payment-methods/${pmId}`), await sb.http('GET', '/v1/payment-methods?limit=100'), events];
    for (const res of fetched) {
      expect(JSON.stringify(res.body)).not.toContain(number);
      expect(JSON.stringify(res.body)).not.toMatch(/"cvc"/);
    }
    for (const file of [dbFile, `${dbFile}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file).toString('latin1');
      expect(bytes.includes(number), file).toBe(false);
      expect(bytes.includes('"cvc"'), file).toBe(false);
    }
  });
});
