import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type SandboxHandle, startSandbox } from './harness.js';

// The hosted checkout page in a real browser (Debian's chromium via playwright-core).

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

  async function session() {
    // success and cancel URLs on the sandbox itself: the browser can load them offline.
    return sb.json(['checkout', 'create', '--amount', '1099', '--currency', 'usd', '--success-url', `${sb.baseUrl}/healthz?done=1`, '--cancel-url', `${sb.baseUrl}/healthz?cancel=1`]);
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
    expect(await page.textContent('#number-error')).toContain('not a valid card number');

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
    const link = await sb.json(['payment-links', 'create', '--amount', '2500', '--currency', 'eur']);
    expect(link.url).toBe(`${sb.baseUrl}/pay/${link.id}`);
    const page = await browser.newPage();
    await page.goto(link.url);
    const first = new URL(page.url()).pathname;
    expect(first).toMatch(/^\/checkout\/cs_/);
    expect(await page.textContent('#amount')).toBe('€25.00');
    await fill(page, '4242424242424242');
    await page.locator('#result').waitFor();
    expect(await page.textContent('#result')).toBe('Payment complete');
    await page.goto(link.url);
    expect(new URL(page.url()).pathname).not.toBe(first);
    await page.close();
  });
});
