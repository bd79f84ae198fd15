import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dueDates } from '../../src/domain/schedule.js';
import { PAY_BIN, type SandboxHandle, startSandbox } from './harness.js';
import { subscriptionHelpers } from '../support/subscriptions.js';
import { hasTool, Tmux } from './tmux.js';

// The subscription commands at a real terminal (pseudo-TTY): pickers, the schedule
// preview and confirmations. The rest of the subscription tests run in-process.


let sb: SandboxHandle;
beforeAll(async () => {
  sb = await startSandbox({ clock: '2030-01-15' });
});
afterAll(async () => sb?.stop());

const { ok, customerWithCard, today, create } = subscriptionHelpers({ http: (...a) => sb.http(...a), json: (a) => sb.json(a) });

const get = (id: string) => sb.json(['subscriptions', 'get', id]);

describe('pay subscriptions at a TTY', () => {
  it('picks the customer and its card from lists, shows the first five due dates, and confirms', async () => {
    const { customer, pm } = await customerWithCard();
    const anchor = addDays(await today(), 3);
    const { exitCode, screen, unanswered } = await sb.atTTY(['subscriptions', 'create', '--price', '1200'], [
      ['Customer', '\r'],
      ['Payment method', '\r'],
      ['Date of the first payment', `${anchor}\r`],
      ['Interval unit', '\x1b[B\r'],
      ['Number of months', '\r'],
      ['Create this subscription?', 'y\r'],
    ]);
    expect(unanswered).toEqual([]);
    expect(exitCode, screen).toBe(0);
    expect(screen).toContain(customer);
    expect(screen).toContain('visa •••• 4242');
    for (const date of dueDates(anchor, 'month', 1, 5)) expect(screen).toContain(date);
    const [sub] = (await ok('GET', `/v1/subscriptions?customer_id=${customer}`)).data;
    expect(sub).toMatchObject({ payment_method_id: pm, price: 1200, billing_cycle_anchor: anchor, interval_unit: 'month', interval_count: 1, status: 'pending' });
  });

  it('creates nothing when the confirmation is declined (exit 130), and --yes skips it', async () => {
    const { customer, pm } = await customerWithCard();
    const anchor = addDays(await today(), 3);
    const flags = ['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '700', '--billing-cycle-anchor', anchor, '--interval-unit', 'week', '--interval-count', '2'];
    const declined = await sb.atTTY(flags, [['Create this subscription?', 'n\r']]);
    expect(declined.exitCode, declined.screen).toBe(130);
    expect((await ok('GET', `/v1/subscriptions?customer_id=${customer}`)).data).toEqual([]);
    const confirmed = await sb.atTTY([...flags, '--yes'], []);
    expect(confirmed.exitCode, confirmed.screen).toBe(0);
    expect(confirmed.screen).not.toContain('Create this subscription?');
    expect((await ok('GET', `/v1/subscriptions?customer_id=${customer}`)).data).toHaveLength(1);
  });

  it('cancel asks first at a TTY', async () => {
    const sub = await create(3);
    const kept = await sb.atTTY(['subscriptions', 'cancel', sub.id], [[`Cancel subscription ${sub.id} permanently?`, 'n\r']]);
    expect(kept.exitCode, kept.screen).toBe(130);
    expect((await get(sub.id)).status).toBe('pending');
    const canceled = await sb.atTTY(['subscriptions', 'cancel', sub.id], [[`Cancel subscription ${sub.id} permanently?`, 'y\r']]);
    expect(canceled.exitCode, canceled.screen).toBe(0);
    expect((await get(sub.id)).status).toBe('canceled');
  });

  it('schedule says why no date is left: paused until resumed, or an active one whose cancel_at comes first', async () => {
    const { customer, pm } = await customerWithCard();
    // An anchor of today pays at create, so no clock moves (the tmux tests count on its date).
    const anchor = await today();
    // A single payment (spec section 4 rule 5): once made, the subscription is active and cancels the next day.
    const single = await sb.json(['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '900', '--billing-cycle-anchor', anchor, '--interval-unit', 'week', '--interval-count', '1', '--cancel-at', addDays(anchor, 1)]);
    const paused = await create(0);
    await sb.json(['subscriptions', 'pause', paused.id]);

    const cut = await sb.atTTY(['subscriptions', 'schedule', single.id], []);
    expect(cut.exitCode, cut.screen).toBe(0);
    expect(cut.screen).toContain(`${single.id} is active and cancels on ${addDays(anchor, 1)}: no payment is due before then.`);
    expect(cut.screen).not.toContain('retried');
    const held = await sb.atTTY(['subscriptions', 'schedule', paused.id], []);
    expect(held.screen).toContain(`${paused.id} is paused: no payment is attempted until it is resumed.`);
  });
});

/** `pay <args>` at a real terminal (tmux) against the sandbox. */
const atTerminal = (args: string[]) =>
  Tmux.start([process.execPath, PAY_BIN, ...args].map((a) => `'${a}'`).join(' '), { PATH: process.env.PATH, HOME: sb.configDir, PAY_CONFIG_DIR: sb.configDir, NO_COLOR: '1' });

describe.skipIf(!hasTool('tmux'))('pay subscriptions create at a real terminal (tmux)', () => {
  it('checks each answer as it is given, by the service\'s rules (the sandbox clock\'s today, dates up to 2100), and asks again', async () => {
    const { customer, pm } = await customerWithCard();
    const tmux = atTerminal(['subscriptions', 'create', '--customer', customer, '--payment-method', pm, '--price', '1500']);
    try {
      await tmux.waitFor(/Date of the first payment/);
      tmux.type('2030-01-14');
      tmux.send('Enter');
      await tmux.waitFor(/Must be today \(2030-01-15\) or later\./);
      tmux.send('C-u');
      tmux.type('9999-12-31');
      tmux.send('Enter');
      await tmux.waitFor(/Must be a date from 1970-01-01 to 2100-12-31\./);
      tmux.send('C-u');
      tmux.type('2030-01-31');
      tmux.send('Enter');
      await tmux.waitFor(/Interval unit/);
      tmux.send('Down');
      tmux.send('Enter');
      await tmux.waitFor(/Number of months/);
      tmux.send('Enter');
      // The preview's amount is money, in the one style of human output.
      await tmux.waitFor(/\$15\.00 every month from 2030-01-31\. First due dates:[\s\S]*Create this subscription\?/);
      tmux.type('y');
      tmux.send('Enter');
      expect(await tmux.exitCode(), tmux.screen()).toBe(0);
    } finally {
      tmux.kill();
    }
    const [sub] = (await ok('GET', `/v1/subscriptions?customer_id=${customer}`)).data;
    expect(sub).toMatchObject({ billing_cycle_anchor: '2030-01-31', interval_unit: 'month', price: 1500 });
  });

  it('Ctrl-C at a picker exits 130 and wipes the list from the screen', async () => {
    const { customer } = await customerWithCard();
    const tmux = atTerminal(['subscriptions', 'create']);
    try {
      await tmux.waitFor(new RegExp(customer));
      tmux.send('C-c');
      expect(await tmux.exitCode()).toBe(130);
      const screen = tmux.screen();
      expect(screen).not.toContain(customer);
      expect(screen).not.toMatch(/❯/);
    } finally {
      tmux.kill();
    }
    expect((await ok('GET', `/v1/subscriptions?customer_id=${customer}`)).data).toEqual([]);
  });
});
