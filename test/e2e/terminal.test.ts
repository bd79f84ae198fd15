import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuttingProxy } from '../support/cutting-proxy.js';
import { until } from '../support/wait.js';
import { PAY_BIN, type SandboxHandle, startSandbox } from './harness.js';
import { hasTool, Tmux } from './tmux.js';

// Spec section 4 rule 6 (the in-person flow), sections 3 and 8 rules 3–6, DESIGN section 7:
// `pay terminal simulate` as a real process, against a real sandbox.

let sb: SandboxHandle;
const running: Simulator[] = [];
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
});
afterAll(async () => {
  for (const sim of running) sim.child.kill('SIGKILL');
  await sb?.stop();
});

interface Simulator {
  child: ResultPromise;
  /** stdout lines so far. */
  lines: string[];
  /** The first line of a line that matches. */
  line(match: (line: string) => boolean, what: string): Promise<string>;
  /** The first `--json` line of this type (from `from` on). */
  json(type: string, from?: number): Promise<any>;
  exit(): Promise<{ exitCode: number | undefined; stderr: string }>;
}

function simulate(args: string[], env: Record<string, string | undefined> = {}): Simulator {
  const child = execa(process.execPath, [PAY_BIN, 'terminal', 'simulate', ...args], { env: { ...sb.env, ...env }, extendEnv: false, reject: false, buffer: { stdout: false }, stdin: 'ignore' });
  const lines: string[] = [];
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  const sim: Simulator = {
    child,
    lines,
    line: async (match, what) => (await until(() => lines.find(match), (l) => l !== undefined, `simulator line: ${what}`, 15_000))!,
    async json(type, from = 0) {
      const found = await sim.line((l) => lines.indexOf(l) >= from && l.includes(`"type":"${type}"`), type);
      return JSON.parse(found);
    },
    exit: async () => {
      const result = await child;
      return { exitCode: result.exitCode, stderr: String(result.stderr) };
    },
  };
  running.push(sim);
  return sim;
}

const readerStatus = async (id: string) => (await sb.json(['readers', 'get', id])).status as string;

/** A card_present payment method on the reader and an intent confirmed on it (set-up, through HTTP). */
async function payOn(readerId: string, amount = 1000) {
  const pm = (await sb.http('POST', '/v1/payment-methods', { type: 'card_present', terminal_reader_id: readerId })).body;
  const pi = (await sb.http('POST', '/v1/payment-intents', { amount, currency: 'usd', payment_method_types: ['card_present'], capture_method: 'automatic', confirm: true, payment_method_id: pm.id })).body;
  expect(pi.status).toBe('requires_action');
  return pi;
}

const eventTypesOf = async (paymentIntentId: string) =>
  (await sb.http('GET', '/v1/events?limit=100')).body.data.filter((e: any) => e.data.payment_intent_id === paymentIntentId).map((e: any) => e.type as string);

describe('pay terminal simulate', () => {
  it('takes an in-person payment end to end (spec section 4, rule 6); a killed reader goes offline', async () => {
    const sim = simulate(['--processor', 'A', '--model', 'a-countertop', '--method', 'insert', '--json']);
    const registered = JSON.parse(await sim.line(() => true, 'first line'));
    expect(registered).toMatchObject({ type: 'registered', processor: 'A', model: 'a-countertop', device_type: 'developer', status: 'online' });
    expect(registered.terminal_reader_id).toMatch(/^tmr_/);
    expect(registered.serial_number).toMatch(/^SIM-/);
    const readerId: string = registered.terminal_reader_id;

    // 1. List terminal readers to learn the terminal_reader_id.
    const readers = await sb.json(['readers', 'list']);
    expect(readers.data.find((r: any) => r.id === readerId)).toMatchObject({ status: 'online', serial_number: registered.serial_number });
    // 2. A card_present payment method on that reader.
    const pm = await sb.json(['payment-methods', 'create', '--type', 'card_present', '--reader', readerId]);
    // 3. An intent with card_present, automatic capture, confirm: requires_action.
    const pi = await sb.json(['intents', 'create', '--amount', '2500', '--currency', 'usd', '--payment-method-types', 'card_present', '--capture-method', 'automatic', '--confirm', '--payment-method', pm.id]);
    expect(pi).toMatchObject({ status: 'requires_action', next_action: { type: 'terminal_reader', terminal_reader_id: readerId } });
    // 4. The customer inserts the card on the reader.
    expect(await sim.json('action')).toEqual({ type: 'action', action: 'process_payment_intent', payment_intent_id: pi.id, amount: 2500, currency: 'usd' });
    expect(await sim.json('result')).toMatchObject({ payment_intent_id: pi.id, status: 'succeeded' });
    // 5. Success, observed through events.
    const paid = await sb.json(['intents', 'get', pi.id]);
    expect(paid).toMatchObject({ status: 'succeeded', amount_received: 2500 });
    const charge = await sb.json(['charges', 'get', paid.latest_charge_id]);
    expect(charge).toMatchObject({ status: 'succeeded', amount_captured: 2500, payment_method_details: { type: 'card_present', terminal_reader_id: readerId, processor: 'A', card_present: { brand: 'visa', last4: '4242', read_method: 'insert' } } });
    expect(await eventTypesOf(pi.id)).toEqual(expect.arrayContaining(['payment_intent.requires_action', 'payment_intent.succeeded', 'charge.succeeded']));

    sim.child.kill('SIGKILL');
    await sim.exit();
    await until(() => readerStatus(readerId), (s) => s === 'offline', 'the killed reader to be offline');
  });

  it('follows --outcome, --tip-amount and --available-amount: a decline, a tip, a partial authorization', async () => {
    const serial = 'SN-E2E-OUTCOMES';
    const cases: Array<{ flags: string[]; expect: (pi: any, charge: any) => void }> = [
      {
        flags: ['--outcome', 'insufficient_funds'],
        expect: (pi, charge) => {
          expect(pi).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'insufficient_funds' } });
          expect(charge.status).toBe('failed');
        },
      },
      // --card-number: --card by the field's name (card_number); jcb is taken on processor B.
      { flags: ['--card-number', '3566002020360505'], expect: (pi, charge) => expect([pi.status, charge.payment_method_details.card_present.brand]).toEqual(['succeeded', 'jcb']) },
      { flags: ['--tip-amount', '150'], expect: (pi, charge) => expect([pi.status, pi.amount_received, pi.tip_amount, charge.amount_captured]).toEqual(['succeeded', 1150, 150, 1150]) },
      {
        flags: ['--available-amount', '600', '--method', 'wallet'],
        expect: (pi, charge) => {
          expect([pi.status, pi.amount_received, charge.status, charge.amount_captured]).toEqual(['succeeded', 600, 'succeeded', 600]);
          expect(charge.amount_captured).toBeLessThan(pi.amount);
        },
      },
    ];
    for (const c of cases) {
      const sim = simulate(['--processor', 'B', '--model', 'b-handheld', '--serial', serial, '--once', '--json', ...c.flags]);
      const { terminal_reader_id: readerId } = await sim.json('registered');
      const pi = await payOn(readerId);
      expect((await sim.exit()).exitCode).toBe(0);
      const after = (await sb.http('GET', `/v1/payment-intents/${pi.id}`)).body;
      c.expect(after, (await sb.http('GET', `/v1/charges/${after.latest_charge_id}`)).body);
    }
    // The same --serial is the same reader each time.
    const readers = (await sb.http('GET', '/v1/terminal-readers?limit=100')).body.data.filter((r: any) => r.serial_number === serial);
    expect(readers).toHaveLength(1);
  });

  it('reports the payment succeeded when the connection drops after the service applied the card but before its ack arrived (not canceled)', async () => {
    // The service applied the card and sent its ack; the network fails before the reader gets it.
    const proxy = await cuttingProxy(sb.baseUrl, (chunk) => chunk.includes('"type":"ack"'));
    try {
      const sim = simulate(['--processor', 'A', '--model', 'a-countertop', '--once', '--json'], { PAY_BASE_URL: proxy.baseUrl, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey });
      const { terminal_reader_id: readerId } = await sim.json('registered');
      const pi = await payOn(readerId);
      expect((await sim.exit()).exitCode).toBe(0);
      expect(proxy.cuts()).toBe(1);
      expect((await sb.http('GET', `/v1/payment-intents/${pi.id}`)).body.status).toBe('succeeded');
      const types = sim.lines.map((l) => JSON.parse(l).type);
      expect(types).toEqual(['registered', 'action', 'reconnecting', 'registered', 'result']);
      expect(JSON.parse(sim.lines.at(-1)!)).toMatchObject({ type: 'result', payment_intent_id: pi.id, status: 'succeeded' });
    } finally {
      await proxy.close();
    }
  });

  it('accepts a jcb card in person on processor B and declines it on processor A', async () => {
    const jcb = '3566002020360505';
    const onB = simulate(['--processor', 'B', '--model', 'b-countertop', '--card', jcb, '--once', '--json']);
    const piB = await payOn((await onB.json('registered')).terminal_reader_id);
    expect(await onB.json('result')).toMatchObject({ status: 'succeeded' });
    expect((await onB.exit()).exitCode).toBe(0);
    const chargeB = (await sb.http('GET', `/v1/charges?payment_intent_id=${piB.id}`)).body.data[0];
    expect(chargeB.payment_method_details.card_present).toMatchObject({ brand: 'jcb', last4: '0505' });

    // Human output: one line per registration, action and result, the card never echoed whole.
    const onA = simulate(['--processor', 'A', '--model', 'a-handheld', '--card', jcb, '--once']);
    const first = await onA.line(() => true, 'first line');
    expect(first).toMatch(/^Reader tmr_\w+ online · serial SIM-\w+ · processor A · model a-handheld · developer$/);
    const piA = await payOn(first.split(' ')[1]!);
    const { exitCode } = await onA.exit();
    expect(exitCode).toBe(0);
    expect(onA.lines.join('\n')).toMatch(new RegExp(`✗ payment ${piA.id} declined \\(tap, jcb •••• 0505\\): card_not_supported`));
    expect(onA.lines.join('\n')).not.toContain(jcb);
    expect((await sb.http('GET', `/v1/payment-intents/${piA.id}`)).body).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_not_supported' } });
  });

  it('routes a same-day processor B refund through the reader (pending, then refunded); offline, the refund fails clearly', async () => {
    const sim = simulate(['--processor', 'B', '--model', 'b-mobile', '--json']);
    const readerId = (await sim.json('registered')).terminal_reader_id;
    const pi = await payOn(readerId);
    await sim.json('result');
    const refund = await sb.json(['refunds', 'create', '--payment-intent', pi.id, '--amount', '400']);
    expect(refund).toMatchObject({ status: 'pending', terminal_reader_id: readerId });
    expect(await sim.json('action', 3)).toMatchObject({ action: 'refund_payment', refund_id: refund.id, amount: 400 });
    expect(await sim.json('result', 3)).toMatchObject({ action: 'refund_payment', refund_id: refund.id, status: 'succeeded' });
    expect((await sb.json(['refunds', 'get', refund.id])).status).toBe('succeeded');
    expect(await eventTypesOf(pi.id)).toEqual(expect.arrayContaining(['charge.refund.pending', 'charge.refunded']));

    // Ctrl-C (SIGINT) stops it as an interruption: exit 130 (DESIGN section 8), and the reader is offline.
    sim.child.kill('SIGINT');
    expect((await sim.exit()).exitCode).toBe(130);
    expect(await readerStatus(readerId)).toBe('offline');
    const offline = await sb.pay(['refunds', 'create', '--payment-intent', pi.id, '--amount', '100']);
    expect(offline.exitCode).toBe(5);
    expect(offline.stderr).toContain(`reader ${readerId} is offline`);
    expect(offline.stderr).toContain('terminal_reader_offline');
    expect((await sb.http('GET', `/v1/refunds?payment_intent_id=${pi.id}`)).body.data).toHaveLength(1);
  });

  it('with --tip-amount, tips payments and still confirms a same-day refund (a refund takes no tip)', async () => {
    const sim = simulate(['--processor', 'B', '--model', 'b-countertop', '--tip-amount', '150', '--available-amount', '5000', '--json']);
    const readerId = (await sim.json('registered')).terminal_reader_id;
    const pi = await payOn(readerId);
    expect(await sim.json('result')).toMatchObject({ status: 'succeeded', object: { amount_received: 1150, tip_amount: 150 } });
    const refund = await sb.json(['refunds', 'create', '--payment-intent', pi.id, '--amount', '300']);
    expect(await sim.json('result', 3)).toMatchObject({ action: 'refund_payment', refund_id: refund.id, status: 'succeeded' });
    sim.child.kill('SIGTERM');
    expect((await sim.exit()).exitCode).toBe(0);
  });

  it('activates a self-owned processor A reader with a code; processor B or a foreign model is a usage error naming the flag', async () => {
    const { code } = await sb.json(['readers', 'activation-code']);
    const sim = simulate(['--processor', 'A', '--model', 'a-handheld', '--serial', 'SN-E2E-OWNED', '--activation-code', code, '--label', 'Back office', '--json']);
    const registered = await sim.json('registered');
    expect(registered).toMatchObject({ serial_number: 'SN-E2E-OWNED', processor: 'A', model: 'a-handheld', label: 'Back office', device_type: 'self_owned', status: 'online' });
    // Asked to end (SIGTERM), it stops cleanly: exit 0.
    sim.child.kill('SIGTERM');
    expect((await sim.exit()).exitCode).toBe(0);

    for (const [args, flag] of [
      [['--processor', 'B', '--model', 'b-mobile', '--activation-code', code], '--processor'],
      [['--processor', 'A', '--model', 'b-mobile'], '--model'],
      [['--processor', 'A', '--model', 'a-handheld', '--outcome', 'maybe'], '--outcome'],
      [['--processor', 'A', '--model', 'a-handheld', '--method', 'telepathy'], '--method'],
      [['--processor', 'A', '--model', 'a-handheld', '--card', '4242424242424241'], '--card'],
      // A tip or an available amount goes with a card that pays, not with a decline.
      [['--processor', 'A', '--model', 'a-handheld', '--outcome', 'declined', '--tip-amount', '200'], '--tip-amount'],
      [['--processor', 'A', '--model', 'a-handheld', '--outcome', 'insufficient_funds', '--available-amount', '500'], '--available-amount'],
    ] as const) {
      const result = await sb.pay(['terminal', 'simulate', ...args]);
      expect({ exit: result.exitCode, flagNamed: result.stderr.includes(flag) }, result.stderr).toEqual({ exit: 2, flagNamed: true });
    }
    const rest = await sb.http('POST', '/v1/terminal-readers/activate', { activation_code: code, serial_number: 'SN-E2E-B', processor: 'B', model: 'b-mobile' });
    expect({ status: rest.status, param: rest.body.error.param }).toEqual({ status: 400, param: 'processor' });
    const present = await sb.http('POST', '/v1/test-helpers/terminal-readers/tmr_any/present', { outcome: 'declined', tip_amount: 200 });
    expect({ status: present.status, param: present.body.error.param }).toEqual({ status: 400, param: 'tip_amount' });
  });
});

describe('activating a self-owned reader at a terminal', () => {
  // Spec section 1, item 6: a self-owned reader is a processor A model; a prompt offers only what can be chosen.
  it('pay readers activate and pay terminal simulate --activation-code ask for a processor A model only, and no processor', async () => {
    const activate = await sb.atTTY(['readers', 'activate', '--activation-code', 'NOPE-0000', '--serial', 'SN-E2E-TTY-1'], [['Model', '\r']]);
    expect(activate.unanswered).toEqual([]);
    expect(activate.screen).toContain('a-handheld');
    expect(activate.screen).not.toContain('b-countertop');
    // The code is unknown: the service says so, which shows the answer was sent.
    expect([activate.exitCode, activate.screen]).toEqual([1, expect.stringContaining('Invalid activation_code')]);

    const simulate = await sb.atTTY(['terminal', 'simulate', '--activation-code', 'NOPE-0000', '--serial', 'SN-E2E-TTY-2'], [['Reader model', '\r']]);
    expect(simulate.unanswered).toEqual([]);
    expect(simulate.screen).not.toContain('Processor of the reader');
    expect(simulate.screen).not.toContain('b-countertop');
    expect([simulate.exitCode, simulate.screen]).toEqual([1, expect.stringContaining('Invalid activation_code')]);
  });
});

describe('the in-person flow at a terminal', () => {
  // DESIGN section 8: a missing required value is asked for at a TTY. Spec section 4 rule 6: the reader is learnt from the list of readers.
  it('pay payment-methods create --type card_present without --reader picks the reader from the account\'s readers', async () => {
    const { code } = await sb.json(['readers', 'activation-code']);
    const reader = await sb.json(['readers', 'activate', '--activation-code', code, '--serial', 'SN-E2E-PICK', '--model', 'a-handheld', '--label', 'Pick me']);
    const picked = await sb.atTTY(['payment-methods', 'create', '--type', 'card_present'], [['Terminal reader', '\r']]);
    expect(picked.unanswered, picked.screen).toEqual([]);
    expect(picked.exitCode, picked.screen).toBe(0);
    // Newest first: the reader just activated is the first choice, shown with what tells readers apart.
    expect(picked.screen).toMatch(new RegExp(`${reader.id} +offline +A a-handheld +Pick me`));
    const pm = (await sb.http('GET', '/v1/payment-methods?limit=1')).body.data[0];
    expect(pm).toMatchObject({ type: 'card_present', terminal_reader_id: reader.id });

    // Without a TTY, it is an error naming the flag and what it takes.
    const script = await sb.pay(['payment-methods', 'create', '--type', 'card_present']);
    expect([script.exitCode, script.stderr]).toEqual([2, expect.stringMatching(/^✗ Missing --reader: the terminal reader that takes the card \(tmr_…, see pay readers list\) is required \(/)]);
  });

  it('pay intents create --payment-method-types card_present --confirm offers only card_present payment methods to pick', async () => {
    const { code } = await sb.json(['readers', 'activation-code']);
    const reader = await sb.json(['readers', 'activate', '--activation-code', code, '--serial', 'SN-E2E-PICK-PM', '--model', 'a-countertop']);
    const present = await sb.json(['payment-methods', 'create', '--type', 'card_present', '--reader', reader.id]);
    // Newest first: a card, which such an intent refuses, would be the first choice.
    await sb.json(['payment-methods', 'create', '--card', '4242424242424242', '--exp', '12/34', '--cvc', '123']);
    const picked = await sb.atTTY(['intents', 'create', '--amount', '500', '--currency', 'usd', '--payment-method-types', 'card_present', '--confirm'], [['Payment method', '\r']]);
    expect(picked.unanswered, picked.screen).toEqual([]);
    expect(picked.screen).not.toContain('visa •••• 4242');
    expect(picked.exitCode, picked.screen).toBe(0);
    const intent = (await sb.http('GET', '/v1/payment-intents?limit=1')).body.data[0];
    expect(intent).toMatchObject({ status: 'requires_action', payment_method_id: present.id, next_action: { terminal_reader_id: reader.id } });
  });
});

describe.skipIf(!hasTool('tmux'))('pay terminal simulate at a real terminal (tmux)', () => {
  const atTerminal = () =>
    Tmux.start(`'${process.execPath}' '${PAY_BIN}' terminal simulate --processor A --model a-countertop`, { PATH: process.env.PATH, HOME: sb.configDir, PAY_CONFIG_DIR: sb.configDir, NO_COLOR: '1' });

  it('Ctrl-C while it waits exits 130 (interrupted), and the reader goes offline', async () => {
    const tmux = atTerminal();
    try {
      const screen = await tmux.waitFor(/Waiting for payments/);
      const readerId = /Reader (tmr_\w+) online/.exec(screen)![1]!;
      tmux.send('C-c');
      expect(await tmux.exitCode(), tmux.screen()).toBe(130);
      await until(() => readerStatus(readerId), (s) => s === 'offline', 'the interrupted reader to be offline');
    } finally {
      tmux.kill();
    }
  });

  it('a customer who adds a tip, then declines, declines the payment (the tip goes with a card that pays)', async () => {
    const tmux = atTerminal();
    try {
      const screen = await tmux.waitFor(/Waiting for payments/);
      const pi = await payOn(/Reader (tmr_\w+) online/.exec(screen)![1]!);
      const choose = async (choice: string, downs: number) => {
        for (let i = 0; i < downs; i++) tmux.send('Down');
        await tmux.waitFor(new RegExp(`❯ ${choice}`));
        tmux.send('Enter');
      };
      await tmux.waitFor(/how does the customer pay\?[\s\S]*Insert \(chip\)/);
      await choose('Add a tip', 4);
      await tmux.waitFor(/Tip, in minor units/);
      // Checked as it is typed with the service's rule: a tip the service would refuse is never sent.
      tmux.type('100000000');
      tmux.send('Enter');
      await tmux.waitFor(/Must be at most 99999999/);
      for (let i = 0; i < 9; i++) tmux.send('BSpace');
      tmux.type('200');
      tmux.send('Enter');
      await tmux.waitFor(/\(tip \$2\.00\): how does the customer pay\?/);
      await choose('Decline', 7);
      await tmux.waitFor(/Why is it declined\?/);
      await choose('Card declined', 0);
      await tmux.waitFor(new RegExp(`payment ${pi.id} (declined|refused)`));
      expect(tmux.screen()).toContain(`✗ payment ${pi.id} declined (tap): card_declined`);
      expect((await sb.http('GET', `/v1/payment-intents/${pi.id}`)).body).toMatchObject({ status: 'requires_payment_method', tip_amount: 0, last_payment_error: { code: 'card_declined' } });
    } finally {
      tmux.kill();
    }
  });

  // As pay payment-methods create asks for one: a card number typed at a prompt is masked, never left on the screen.
  it('a test card number typed for the customer is masked, and the card is charged', async () => {
    const tmux = atTerminal();
    try {
      const screen = await tmux.waitFor(/Waiting for payments/);
      const pi = await payOn(/Reader (tmr_\w+) online/.exec(screen)![1]!);
      await tmux.waitFor(/how does the customer pay\?[\s\S]*Insert \(chip\)/);
      for (let i = 0; i < 6; i++) tmux.send('Down');
      await tmux.waitFor(/❯ Use another test card number/);
      tmux.send('Enter');
      await tmux.waitFor(/Card number/);
      const number = '5555555555554444';
      tmux.type(number);
      await tmux.waitFor(/Card number.*\*{16}/);
      tmux.send('Enter');
      await tmux.waitFor(/\(card •••• 4444\): how does the customer pay\?/);
      tmux.send('Enter');
      await tmux.waitFor(new RegExp(`payment ${pi.id} succeeded`));
      expect(tmux.screen()).toContain(`✓ payment ${pi.id} succeeded (tap, mastercard •••• 4444)`);
      expect(tmux.screen()).not.toContain(number);
    } finally {
      tmux.kill();
    }
  });

  it('Ctrl-C at the customer\'s prompt exits 130 too, the choices wiped from the screen', async () => {
    const tmux = atTerminal();
    try {
      const screen = await tmux.waitFor(/Waiting for payments/);
      const pi = await payOn(/Reader (tmr_\w+) online/.exec(screen)![1]!);
      await tmux.waitFor(/how does the customer pay\?[\s\S]*Insert \(chip\)/);
      tmux.send('C-c');
      expect(await tmux.exitCode()).toBe(130);
      expect(tmux.screen()).not.toContain('Insert (chip)');
      expect((await sb.http('GET', `/v1/payment-intents/${pi.id}`)).body.status).not.toBe('succeeded');
    } finally {
      tmux.kill();
    }
  });
});
