import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessSandbox } from '../../../test/support/in-process.js';

let s: Awaited<ReturnType<typeof inProcessSandbox>>;
beforeAll(async () => {
  s = await inProcessSandbox();
});
afterAll(async () => s.close());

async function session(extra: Record<string, unknown> = {}) {
  const res = await s.call('POST', '/v1/checkout-sessions', { amount: 1099, currency: 'usd', success_url: 'https://shop.example/done', cancel_url: 'https://shop.example/cart', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const page = (path: string) => s.app.inject({ method: 'GET', url: path });
const submit = (id: string, form: Record<string, string>) =>
  s.app.inject({ method: 'POST', url: `/checkout/${id}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });

describe('checkout sessions', () => {
  it('creates a session with an intent and an absolute URL to the hosted page', async () => {
    const cs = await session();
    expect(cs).toMatchObject({ object: 'checkout_session', status: 'open', payment_status: 'unpaid', amount: 1099, currency: 'usd', expires_at: '2030-01-16T00:00:00Z' });
    expect(cs.checkout_session_url).toBe(`http://localhost:80/checkout/${cs.id}`);
    const pi = (await s.call('GET', `/v1/payment-intents/${cs.payment_intent_id}`)).body;
    expect(pi).toMatchObject({ status: 'requires_payment_method', amount: 1099, payment_method_types: ['card'] });
    const res = await page(`/checkout/${cs.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('$10.99');
    expect(res.body).toContain('<form method="post"');
  });

  it('refuses a success_url or cancel_url with a user or password in it: it would be shown in lists and followed by the browser', async () => {
    const before = (await s.call('GET', '/v1/checkout-sessions?limit=100')).body.data.length;
    for (const field of ['success_url', 'cancel_url']) {
      const res = await s.call('POST', '/v1/checkout-sessions', { amount: 1099, currency: 'usd', success_url: 'https://shop.example/done', cancel_url: 'https://shop.example/cart', [field]: 'https://shop:s3cret@shop.example/x' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: field, message: `Invalid ${field}: must be an http(s) URL without a user or password in it, e.g. https://example.com/done` });
      expect(JSON.stringify(res.body)).not.toContain('s3cret');
    }
    expect((await s.call('GET', '/v1/checkout-sessions?limit=100')).body.data).toHaveLength(before);
  });

  it('pays with a test card and redirects to success_url with the session id', async () => {
    const cs = await session();
    const res = await submit(cs.id, { number: '4242 4242 4242 4242', exp: '12 / 34', cvc: '123', zip: '94110' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`https://shop.example/done?session_id=${cs.id}`);
    expect((await s.call('GET', `/v1/checkout-sessions/${cs.id}`)).body).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect((await s.call('GET', `/v1/payment-intents/${cs.payment_intent_id}`)).body.status).toBe('succeeded');
    expect((await submit(cs.id, { number: '4242424242424242', exp: '12/34', cvc: '123', zip: '94110' })).statusCode).toBe(303);
    expect((await s.call('GET', `/v1/charges?payment_intent_id=${cs.payment_intent_id}`)).body.data).toHaveLength(1);
  });

  it('shows a decline inline in the customer\'s words, keeps the attempt, and lets the customer retry', async () => {
    const cs = await session();
    const declined = await submit(cs.id, { number: '4000000000000002', exp: '12/34', cvc: '123', zip: '94110' });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect(declined.body).not.toContain('4000000000000002');
    expect((await s.call('GET', `/v1/payment-intents/${cs.payment_intent_id}`)).body).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });
    const badNumber = await submit(cs.id, { number: '4242424242424241', exp: '12/34', cvc: '123', zip: '94110' });
    expect(badNumber.statusCode).toBe(400);
    expect(badNumber.body).toMatch(/id="number"[^>]*aria-invalid="true"/);
    expect(badNumber.body).toContain('Enter a valid card number.');
    const badExp = await submit(cs.id, { number: '4242424242424242', exp: 'soon', cvc: '123', zip: '94110' });
    expect(badExp.body).toContain('Enter the expiry date as MM/YY.');
    const unsupported = await submit(cs.id, { number: '4000000000001117', exp: '12/34', cvc: '123', zip: '94110' });
    expect(unsupported.body).toContain('This card is not accepted here.');
    expect(unsupported.body).not.toContain('HSA');
    expect((await submit(cs.id, { number: '4242424242424242', exp: '12/34', cvc: '123', zip: '94110' })).statusCode).toBe(303);
  });

  it('marks every field to fix at once; an empty form changes nothing', async () => {
    const cs = await session();
    const before = s.counts();
    const empty = await submit(cs.id, {});
    expect(empty.statusCode).toBe(400);
    for (const name of ['number', 'exp', 'cvc', 'zip']) expect(empty.body, name).toMatch(new RegExp(`id="${name}"[^>]*aria-invalid="true"`));
    expect(empty.body).toContain('Enter a valid card number.');
    expect(empty.body).toContain('Enter the expiry date as MM/YY.');
    expect(empty.body).toContain('Enter the security code (CVC) from your card.');
    expect(empty.body).toContain('Enter your ZIP or postal code.');
    expect(s.counts()).toEqual(before);
    const twoWrong = await submit(cs.id, { number: '4242 4242 4242 4242', exp: '13/34', cvc: '12', zip: '94110' });
    expect(twoWrong.body).toMatch(/id="exp"[^>]*aria-invalid="true"/);
    expect(twoWrong.body).toMatch(/id="cvc"[^>]*aria-invalid="true"/);
    expect(twoWrong.body).not.toMatch(/id="(number|zip)"[^>]*aria-invalid/);
    expect(twoWrong.body).toContain('value="13/34"');
  });

  it('leaves an open session\'s intent to its page: the API may not change its amount, confirm or cancel it', async () => {
    const cs = await session({ amount: 500 });
    const pm = (await s.call('POST', '/v1/payment-methods', { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } })).body;
    for (const [path, body] of [
      [`/v1/payment-intents/${cs.payment_intent_id}`, { amount: 9999 }],
      [`/v1/payment-intents/${cs.payment_intent_id}/confirm`, { payment_method_id: pm.id }],
      [`/v1/payment-intents/${cs.payment_intent_id}/cancel`, {}],
    ] as const) {
      const res = await s.call('POST', path, body);
      expect(res.status, path).toBe(409);
      expect(res.body.error, path).toMatchObject({ type: 'state_error', code: 'invalid_state' });
      expect(res.body.error.message, path).toContain(cs.id);
      // DESIGN: a 409's message names the current status (the intent's, not the session's).
      expect(res.body.error.message, path).toContain('its status is requires_payment_method');
    }
    expect((await s.call('GET', `/v1/payment-intents/${cs.payment_intent_id}`)).body).toMatchObject({ status: 'requires_payment_method', amount: 500 });
    // The page shows what it charges.
    expect((await page(`/checkout/${cs.id}`)).body).toContain('Pay $5.00');
    expect((await submit(cs.id, { number: '4242424242424242', exp: '12/34', cvc: '123', zip: '94110' })).statusCode).toBe(303);
    expect((await s.call('GET', `/v1/charges?payment_intent_id=${cs.payment_intent_id}`)).body.data[0]).toMatchObject({ amount: 500, amount_captured: 500 });
  });

  it('tells an expiry in the past as an expired card', async () => {
    const cs = await session();
    const res = await submit(cs.id, { number: '4242424242424242', exp: '12/29', cvc: '123', zip: '94110' });
    expect(res.statusCode).toBe(402);
    expect(res.body).toMatch(/id="exp"[^>]*aria-invalid="true"/);
    expect(res.body).toContain('Your card has expired.');
  });

  for (const exp of ['1234', '12/34', '12 / 34', '12-34', '12/2034']) {
    it(`pays with the expiry typed as ${exp}`, async () => {
      const cs = await session();
      const res = await submit(cs.id, { number: '4242424242424242', exp, cvc: '123', zip: '94110' });
      expect(res.statusCode, res.body).toBe(303);
      const pi = (await s.call('GET', `/v1/payment-intents/${cs.payment_intent_id}`)).body;
      const pm = (await s.call('GET', `/v1/payment-methods/${pi.payment_method_id}`)).body;
      expect(pm.card).toMatchObject({ exp_month: 12, exp_year: 2034 });
    });
  }

  it('escapes what it interpolates', async () => {
    const cs = await session({ cancel_url: 'https://shop.example/cart?x="><script>alert(1)</script>' });
    const res = await page(`/checkout/${cs.id}`);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body.match(/<script>/g), 'the page\'s own script only').toHaveLength(1);
    expect(res.body).toContain('id="cancel"');
  });

  it('expires with the test clock, canceling the unpaid intent', async () => {
    const later = await inProcessSandbox();
    const cs = (await later.call('POST', '/v1/checkout-sessions', { amount: 500, currency: 'eur', success_url: 'https://a.example/ok', cancel_url: 'https://a.example/no' })).body;
    await later.call('POST', '/v1/test-helpers/clock/advance', { days: 1 });
    expect((await later.call('GET', `/v1/checkout-sessions/${cs.id}`)).body.status).toBe('expired');
    expect((await later.call('GET', `/v1/payment-intents/${cs.payment_intent_id}`)).body).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    const res = await later.app.inject({ method: 'GET', url: `/checkout/${cs.id}` });
    expect(res.statusCode).toBe(410);
    await later.close();
  });

  it('carries what is paid for and the merchant\'s name, trimmed, null when not given', async () => {
    const cs = await session({ description: '  Espresso beans 250 g ', merchant_name: 'Corner Roasters' });
    expect(cs).toMatchObject({ description: 'Espresso beans 250 g', merchant_name: 'Corner Roasters' });
    expect(await session()).toMatchObject({ description: null, merchant_name: null });
    const blank = await s.call('POST', '/v1/checkout-sessions', { amount: 100, currency: 'usd', success_url: 'https://x.example', cancel_url: 'https://x.example', merchant_name: '  ' });
    expect(blank.body.error).toMatchObject({ code: 'parameter_invalid', param: 'merchant_name', message: 'Invalid merchant_name: must not be empty' });
  });

  it('answers 404 for an unknown page, and rejects bad bodies naming the field', async () => {
    expect((await page('/checkout/cs_nope')).statusCode).toBe(404);
    expect((await s.call('POST', '/v1/checkout-sessions', { amount: 100, currency: 'usd', success_url: 'ftp://x', cancel_url: 'https://x.example' })).body.error.param).toBe('success_url');
  });
});

describe('payment links', () => {
  it('gives a reusable URL; each visit opens its own session', async () => {
    const link = (await s.call('POST', '/v1/payment-links', { amount: 2500, currency: 'usd', description: 'Gift card', merchant_name: 'Corner Roasters' })).body;
    expect(link).toMatchObject({ object: 'payment_link', active: true, amount: 2500, description: 'Gift card', merchant_name: 'Corner Roasters' });
    expect(link.url).toBe(`http://localhost:80/pay/${link.id}`);
    const first = await page(`/pay/${link.id}`);
    const second = await page(`/pay/${link.id}`);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toMatch(/^\/checkout\/cs_/);
    expect(second.headers.location).not.toBe(first.headers.location);
    const csId = String(first.headers.location).split('/').pop()!;
    const paid = await submit(csId, { number: '5555555555554444', exp: '01/31', cvc: '321', zip: '94110' });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('Payment complete');
    expect((await s.call('GET', `/v1/checkout-sessions/${csId}`)).body).toMatchObject({ payment_link_id: link.id, status: 'complete', description: 'Gift card', merchant_name: 'Corner Roasters' });
  });

  it('a receipt shows what the card was charged: after a partial authorization, less than the amount', async () => {
    const link = (await s.call('POST', '/v1/payment-links', { amount: 2500, currency: 'usd' })).body;
    const csId = String((await page(`/pay/${link.id}`)).headers.location).split('/').pop()!;
    const paid = await submit(csId, { number: '4000000000005555', exp: '01/31', cvc: '321', zip: '94110' });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('<p class="amount">$12.50</p>');
    expect(paid.body).toContain('Partial authorization: $12.50 of $25.00 was charged.');
    // Shown again, the same.
    expect((await page(`/checkout/${csId}`)).body).toContain('<p class="amount">$12.50</p>');
  });
});
