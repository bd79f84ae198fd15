import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

// The hosted checkout page in a real browser (Debian's chromium via playwright-core).
// Screenshots of each width go to test-results/checkout-page/ (git-ignored) to look at.
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/checkout-page/', import.meta.url));

const chromiumPath = inject('chromium');
if (!chromiumPath) console.warn('\n!!! SKIPPED: the hosted checkout page browser tests need /usr/bin/chromium, which is not installed.\n');

describe.skipIf(!chromiumPath)('hosted checkout page in a real browser', () => {
  let sb: SandboxHandle;
  let browser: Browser;

  beforeAll(async () => {
    sb = await startSandbox({ clock: '2030-01-15' });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: chromiumPath!,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await sb?.stop();
  });

  async function session(...extra: string[]) {
    // success and cancel URLs on the sandbox itself: the browser can load them offline.
    return sb.json(['checkout', 'create', '--amount', '1099', '--currency', 'usd', '--success-url', `${sb.baseUrl}/healthz?done=1`, '--cancel-url', `${sb.baseUrl}/healthz?cancel=1`, ...extra]);
  }

  async function fill(page: Page, number: string) {
    await page.fill('#number', number);
    await page.fill('#exp', '12 / 34');
    await page.fill('#cvc', '123');
    await page.fill('#zip', '94110');
    await page.click('#pay');
  }

  it('pays with a test card and lands on the success URL; the intent succeeded', async () => {
    const cs = await session();
    expect(cs.checkout_session_url).toBe(`${sb.baseUrl}/checkout/${cs.id}`);
    const page = await browser.newPage();
    await page.goto(cs.checkout_session_url);
    expect(await page.textContent('#amount')).toBe('$10.99');
    await fill(page, '4242 4242 4242 4242');
    await page.waitForURL(/\/healthz\?/);
    expect(new URL(page.url()).searchParams.get('session_id')).toBe(cs.id);
    expect(await sb.json(['checkout', 'get', cs.id])).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect(await sb.json(['intents', 'get', cs.payment_intent_id])).toMatchObject({ status: 'succeeded', amount_received: 1099 });
    await page.close();
  });

  it("lands on the merchant's success URL on another origin: the page's CSP lets its form's redirect go there", async () => {
    // The merchant's own site: another port is another origin than the sandbox's page.
    const visits: string[] = [];
    const merchant = createServer((request, response) => {
      visits.push(request.url!);
      response.end('Thank you');
    }).listen(0, '127.0.0.1');
    await once(merchant, 'listening');
    const origin = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    const page = await browser.newPage();
    try {
      const cs = await sb.json(['checkout', 'create', '--amount', '1099', '--currency', 'usd', '--success-url', `${origin}/thanks?order=42`, '--cancel-url', `${origin}/cart`]);
      await page.goto(cs.checkout_session_url);
      // Paid from the page that said a decline, as from the first one.
      await fill(page, '4000000000000002');
      await page.locator('#payment-error').waitFor();
      // A redirect the CSP refuses is said on the console, and the paid form stays on the screen.
      const refused = page.waitForEvent('console', (message) => message.type() === 'error' && /Content Security Policy/.test(message.text())).then((message) => message.text());
      await fill(page, '4242424242424242');
      const landed = await Promise.race([page.waitForURL(`${origin}/thanks?**`).then(() => page.url()), refused]);
      expect(landed).toBe(`${origin}/thanks?order=42&session_id=${cs.id}`);
      // The browser may ask the merchant's site for its favicon too.
      expect(visits.filter((url) => url.startsWith('/thanks'))).toEqual([`/thanks?order=42&session_id=${cs.id}`]);
      expect(await sb.json(['checkout', 'get', cs.id])).toMatchObject({ status: 'complete', payment_status: 'paid' });
    } finally {
      await page.close();
      merchant.close();
    }
  });

  it('shows a decline on the page, then takes another card', async () => {
    const cs = await session();
    const page = await browser.newPage();
    await page.goto(cs.checkout_session_url);
    await fill(page, '4000000000000002');
    const alert = page.locator('#payment-error');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Your card was declined.');
    expect(new URL(page.url()).pathname).toBe(`/checkout/${cs.id}`);
    expect(await page.inputValue('#number')).toBe('');
    expect(await sb.json(['intents', 'get', cs.payment_intent_id])).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });

    await fill(page, '4242424242424241');
    expect(await page.textContent('#number-error')).toBe('Enter a valid card number.');

    await fill(page, '5555555555554444');
    await page.waitForURL(/\/healthz\?/);
    expect((await sb.json(['intents', 'get', cs.payment_intent_id])).status).toBe('succeeded');
    await page.close();
  });

  it('the cancel link goes to cancel_url', async () => {
    const cs = await session();
    const page = await browser.newPage();
    await page.goto(cs.checkout_session_url);
    await page.click('#cancel');
    await page.waitForURL(/cancel=1/);
    expect((await sb.json(['checkout', 'get', cs.id])).status).toBe('open');
    await page.close();
  });

  it('a payment link opens a new session on each visit and shows a receipt', async () => {
    const link = await sb.json(['payment-links', 'create', '--amount', '2500', '--currency', 'eur', '--description', 'Gift card', '--merchant-name', 'Corner Roasters']);
    expect(link.url).toBe(`${sb.baseUrl}/pay/${link.id}`);
    const page = await browser.newPage();
    await page.goto(link.url);
    const first = new URL(page.url()).pathname;
    expect(first).toMatch(/^\/checkout\/cs_/);
    expect(await page.textContent('#amount')).toBe('€25.00');
    expect(await page.textContent('#merchant')).toBe('Corner Roasters');
    expect(await page.textContent('#description')).toBe('Gift card');
    await fill(page, '4242424242424242');
    await page.locator('#result').waitFor();
    expect(await page.textContent('#result')).toBe('Payment complete');
    expect(await page.textContent('#merchant')).toBe('Paid to Corner Roasters');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}1280-receipt.png`, fullPage: true });
    await page.goto(link.url);
    expect(new URL(page.url()).pathname).not.toBe(first);
    await page.close();
  });

  it('the CLI checks the page details by the same rule as the sandbox, before any request', async () => {
    const objects = async () => [(await sb.http('GET', '/v1/payment-links?limit=100')).body, (await sb.http('GET', '/v1/checkout-sessions?limit=100')).body];
    const before = await objects();
    const blank = await sb.pay(['payment-links', 'create', '--amount', '100', '--currency', 'usd', '--merchant-name', '  ']);
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain('Invalid --merchant-name: must not be empty.');
    const long = await sb.pay(['checkout', 'create', '--amount', '100', '--currency', 'usd', '--success-url', 'https://a.example', '--cancel-url', 'https://a.example', '--description', 'x'.repeat(501)]);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toContain('Invalid --description: must be at most 500 characters.');
    expect(await objects()).toEqual(before);
  });

  describe.each([
    { width: 1280, height: 800, isMobile: false },
    { width: 390, height: 844, isMobile: true },
  ])('at $width px wide', ({ width, height, isMobile }) => {
    const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}${width}-${name}.png`, fullPage: true });

    /** A page of a session that names its merchant and what is paid for; fails the test on any console error (a script the CSP blocked). */
    async function open() {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const cs = await session('--description', 'Espresso beans 250 g × 2', '--merchant-name', 'Corner Roasters');
      const page = await browser.newPage({ viewport: { width, height }, isMobile, hasTouch: isMobile });
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.goto(cs.checkout_session_url);
      return { cs, page, consoleErrors };
    }

    it('shows the merchant\'s name and what is paid for, with a margin around the card', async () => {
      const { page, consoleErrors } = await open();
      expect(await page.textContent('#merchant')).toBe('Corner Roasters');
      expect(await page.textContent('#description')).toBe('Espresso beans 250 g × 2');
      expect(await page.textContent('#amount')).toBe('$10.99');
      const card = (await page.locator('main').boundingBox())!;
      const margin = width >= 1000 ? 100 : 12;
      expect(card.x, 'left margin').toBeGreaterThanOrEqual(margin);
      expect(width - (card.x + card.width), 'right margin').toBeGreaterThanOrEqual(margin);
      expect(card.y, 'top margin').toBeGreaterThanOrEqual(12);
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      for (const id of ['#number', '#exp', '#cvc', '#zip', '#pay']) {
        const box = (await page.locator(id).boundingBox())!;
        expect(box.x + box.width, id).toBeLessThanOrEqual(card.x + card.width);
      }
      await shot(page, 'form');
      expect(consoleErrors).toEqual([]);
      await page.close();
    });

    it('an empty submit marks every field at once, in the customer\'s words', async () => {
      const { cs, page } = await open();
      await page.click('#pay');
      await page.locator('#zip-error').waitFor();
      const expected = {
        number: 'Enter a valid card number.',
        exp: 'Enter the expiry date as MM/YY.',
        cvc: 'Enter the security code (CVC) from your card.',
        zip: 'Enter your ZIP or postal code.',
      };
      for (const [field, text] of Object.entries(expected)) {
        expect(await page.textContent(`#${field}-error`), field).toBe(text);
        expect(await page.getAttribute(`#${field}`, 'aria-invalid'), field).toBe('true');
      }
      expect(await page.locator('#payment-error').count()).toBe(0);
      expect(await page.evaluate<string>('document.activeElement.id'), 'the first field to fix has the focus').toBe('number');
      await shot(page, 'empty-submit');
      expect((await sb.json(['intents', 'get', cs.payment_intent_id])).status).toBe('requires_payment_method');
      await page.close();
    });

    it('a decline is said in the customer\'s words', async () => {
      const { page } = await open();
      await page.locator('#number').pressSequentially('4000000000009995');
      await page.locator('#exp').pressSequentially('1234');
      await page.locator('#cvc').pressSequentially('123');
      await page.locator('#zip').pressSequentially('94110');
      await page.click('#pay');
      await page.locator('#payment-error').waitFor();
      expect(await page.textContent('#payment-error')).toBe('Your card has insufficient funds. Try another card.');
      expect(await page.inputValue('#exp')).toBe('12/34');
      // The card number is to be typed again: the focus is there, and it is described by the decline (a screen reader says why).
      expect(await page.evaluate<string>('document.activeElement.id'), 'the focus after a decline').toBe('number');
      expect(await page.getAttribute('#number', 'aria-describedby')).toBe('payment-error');
      await shot(page, 'decline');
      await page.close();
    });

    it('formats the expiry and card number as typed on a number pad, takes every expiry form, and pays', async () => {
      const { cs, page } = await open();
      const exp = page.locator('#exp');
      await exp.pressSequentially('12');
      expect(await exp.inputValue(), 'the slash comes by itself').toBe('12/');
      await exp.press('Backspace');
      expect(await exp.inputValue(), 'and can be deleted').toBe('12');
      for (const [typed, shown] of [['12 / 34', '12/34'], ['12-34', '12/34'], ['12/2034', '12/2034'], ['4/34', '04/34']] as const) {
        await exp.fill('');
        await exp.pressSequentially(typed);
        expect(await exp.inputValue(), typed).toBe(shown);
      }
      await exp.fill('');
      await exp.pressSequentially('1234');
      expect(await exp.inputValue()).toBe('12/34');
      await page.locator('#number').pressSequentially('4242424242424242');
      expect(await page.inputValue('#number')).toBe('4242 4242 4242 4242');
      await page.locator('#cvc').pressSequentially('123');
      await page.locator('#zip').pressSequentially('94110');
      await shot(page, 'filled');
      await page.click('#pay');
      await page.waitForURL(/\/healthz\?/);
      expect(await sb.json(['intents', 'get', cs.payment_intent_id])).toMatchObject({ status: 'succeeded', amount_received: 1099 });
      const pi = await sb.json(['intents', 'get', cs.payment_intent_id]);
      expect((await sb.json(['payment-methods', 'get', pi.payment_method_id])).card).toMatchObject({ exp_month: 12, exp_year: 2034, last4: '4242' });
      await page.close();
    });
  });
});

// The CLI's verbs on checkout sessions and payment links: no browser needed.
describe('pay checkout list, pay payment-links get and list', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb?.stop();
  });

  const session = () => sb.json(['checkout', 'create', '--amount', '1099', '--currency', 'usd', '--success-url', 'https://shop.example/done', '--cancel-url', 'https://shop.example/cart']);

  it('lists checkout sessions newest first, by status and by payment intent', async () => {
    const first = await session();
    const second = await session();
    const ids = async (...flags: string[]) => (await sb.json(['checkout', 'list', ...flags])).data.map((s: { id: string }) => s.id);
    expect(await ids()).toEqual([second.id, first.id]);
    expect(await ids('--limit', '1')).toEqual([second.id]);
    expect(await ids('--status', 'open')).toEqual([second.id, first.id]);
    expect(await ids('--status', 'complete')).toEqual([]);
    expect(await ids('--payment-intent', first.payment_intent_id)).toEqual([first.id]);
    const bad = await sb.pay(['checkout', 'list', '--status', 'paid']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--status');
  });

  it('gets a payment link by id and lists them newest first; an unknown id exits 4', async () => {
    const first = await sb.json(['payment-links', 'create', '--amount', '2500', '--currency', 'eur', '--description', 'Gift card']);
    const second = await sb.json(['payment-links', 'create', '--amount', '500', '--currency', 'usd']);
    expect(await sb.json(['payment-links', 'get', first.id])).toEqual(first);
    expect((await sb.json(['payment-links', 'list'])).data).toEqual([second, first]);
    expect((await sb.json(['payment-links', 'list', '--limit', '1'])).data).toEqual([second]);
    const human = await sb.pay(['payment-links', 'list']);
    expect(human.exitCode).toBe(0);
    expect(human.stdout.split('\n')[0]).toContain(second.id);
    const unknown = await sb.pay(['payment-links', 'get', 'plink_unknown0000000000000000']);
    expect(unknown.exitCode).toBe(4);
    const otherKind = await sb.pay(['payment-links', 'get', first.id.replace('plink_', 'cs_')]);
    expect(otherKind.exitCode).toBe(2);
  });
});
