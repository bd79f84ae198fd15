import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckoutSession } from '../../domain/checkout.js';
import { parseExpiry } from '../../domain/payment-methods.js';
import { checkoutPage, escapeHtml, formatCardNumberInput, formatExpiryInput, pageCsp, paidPage } from './checkout.js';

const session: CheckoutSession = {
  id: 'cs_test', object: 'checkout_session', created: '2030-01-15T00:00:00Z', livemode: false,
  status: 'open', payment_status: 'unpaid', amount: 1099, currency: 'usd', payment_intent_id: 'pi_test',
  checkout_session_url: 'http://127.0.0.1/checkout/cs_test', success_url: 'https://a.example/ok', cancel_url: 'https://a.example/?q="><img src=x>',
  customer_id: null, payment_link_id: null, expires_at: '2030-01-16T00:00:00Z', metadata: {}, description: null, merchant_name: null,
};

describe('hosted checkout page', () => {
  it('shows the amount in the currency\'s own minor units', () => {
    expect(checkoutPage(session)).toContain('$10.99');
    expect(checkoutPage({ ...session, amount: 1000, currency: 'jpy' })).toContain('¥1,000');
  });

  it('escapes every interpolated value', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    const named = { ...session, merchant_name: '<b>Shop</b>', description: '<i>beans</i>' };
    const html = checkoutPage(named, { errors: [{ code: 'card_declined' }], values: { exp: '"><b>', zip: '<i>' } });
    expect(html).not.toMatch(/<img|<b>|<i>/);
    expect(html).toContain('&lt;b&gt;Shop&lt;/b&gt;');
    expect(paidPage(named, named.amount)).not.toMatch(/<b>|<i>/);
  });

  it('shows who is paid and for what', () => {
    const html = checkoutPage({ ...session, merchant_name: 'Corner Roasters', description: 'Espresso beans 250 g' });
    expect(html).toContain('<h1 id="merchant">Corner Roasters</h1>');
    expect(html).toContain('<p class="description" id="description">Espresso beans 250 g</p>');
    expect(html).toContain('<title>Pay $10.99 to Corner Roasters</title>');
    expect(checkoutPage(session)).not.toContain('id="description"');
    // A session stored before these fields existed has neither.
    const { description: _d, merchant_name: _m, ...older } = session;
    expect(checkoutPage(older as CheckoutSession)).toContain('<h1 id="merchant">Pay</h1>');
    expect(paidPage({ ...session, merchant_name: 'Corner Roasters', description: 'Espresso beans 250 g' }, session.amount)).toContain('Paid to Corner Roasters');
  });

  it('marks every field to fix at once, in the customer\'s words', () => {
    const html = checkoutPage(session, {
      errors: [
        { code: 'parameter_invalid', param: 'card.number' },
        { code: 'parameter_invalid', param: 'card.exp_month' },
        { code: 'parameter_invalid', param: 'card.exp_year' },
        { code: 'parameter_invalid', param: 'card.cvc' },
        { code: 'parameter_missing', param: 'billing_details.address.zip' },
      ],
    });
    for (const name of ['number', 'exp', 'cvc', 'zip']) expect(html).toMatch(new RegExp(`id="${name}"[^>]*aria-invalid="true"[^>]*aria-describedby="${name}-error"`));
    expect(html).toContain('id="number-error">Enter a valid card number.</p>');
    expect(html).toContain('id="exp-error">Enter the expiry date as MM/YY.</p>');
    expect(html).toContain('id="cvc-error">Enter the security code (CVC) from your card.</p>');
    expect(html).toContain('id="zip-error">Enter your ZIP or postal code.</p>');
    expect(html.match(/ autofocus/g)).toHaveLength(1);
    expect(html).toMatch(/id="number"[^>]* autofocus/);
    expect(html).not.toContain('id="payment-error"');
  });

  it('says a decline above the form, or beside its field, never in the API\'s words', () => {
    const decline = checkoutPage(session, { errors: [{ code: 'insufficient_funds' }] });
    expect(decline).toContain('<p class="alert" role="alert" id="payment-error">Your card has insufficient funds. Try another card.</p>');
    const expired = checkoutPage(session, { errors: [{ code: 'expired_card', param: 'card.exp_month' }] });
    expect(expired).toContain('id="exp-error">Your card has expired.');
    const unsupported = checkoutPage(session, { errors: [{ code: 'card_not_supported', param: 'card.number' }] });
    expect(unsupported).toContain('id="number-error">This card is not accepted here. Try another card.</p>');
    expect(checkoutPage(session, { errors: [{ code: 'invalid_state' }] })).toContain('The payment could not be completed.');
  });

  it('never writes the card number or cvc back into the form', () => {
    const html = checkoutPage(session, { values: { number: '4242424242424242', cvc: '123', exp: '12/34' } });
    expect(html).not.toContain('4242424242424242');
    expect(html).toContain('value="12/34"');
  });

  it('runs only its own script: the CSP names the inline script by its hash', () => {
    const script = /<script>([\s\S]*)<\/script>/.exec(checkoutPage(session))![1]!;
    expect(pageCsp()).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(pageCsp()).toContain("default-src 'none'");
    expect(script).toContain(formatExpiryInput.toString());
  });

  it('lets the form lead to itself and, once paid, to the success URL\'s origin: nowhere else', () => {
    expect(pageCsp()).toContain("form-action 'self';");
    expect(pageCsp('https://shop.example:8443/done?order=1#top')).toContain("form-action 'self' https://shop.example:8443;");
    expect(pageCsp('http://[::1]:8080/done')).toContain("form-action 'self' http:;");
  });
});

describe('formatting as the customer types', () => {
  /** What the field shows after typing text one character at a time. */
  const typed = (text: string) => [...text].reduce((shown, char) => formatExpiryInput(shown + char, false), '');

  it('adds the slash after the month: a number pad has none', () => {
    expect(typed('1234')).toBe('12/34');
    expect(typed('12')).toBe('12/');
    expect(typed('4')).toBe('04/');
    expect(typed('1/3')).toBe('01/3');
    expect(typed('1/2034')).toBe('01/2034');
    expect(typed('1 05')).toBe('01/05');
    expect(typed('122034')).toBe('12/2034');
    expect(typed('12/345678')).toBe('12/3456');
    expect(formatExpiryInput('12-34', false)).toBe('12/34');
    expect(formatExpiryInput('12 / 34', false)).toBe('12/34');
    expect(formatExpiryInput('1', false)).toBe('1');
  });

  it('lets the customer delete the slash', () => {
    expect(formatExpiryInput('12', true)).toBe('12');
    expect(formatExpiryInput('12/3', true)).toBe('12/3');
    expect(formatExpiryInput('1', true)).toBe('1');
  });

  it('shows what the server reads the same: every accepted form, pasted or typed', () => {
    const separator = fc.constantFrom('', '/', ' / ', '-', ' - ', ' ');
    const month = fc.integer({ min: 1, max: 12 });
    const year = fc.oneof(fc.integer({ min: 0, max: 99 }).map((y) => String(y).padStart(2, '0')), fc.integer({ min: 2000, max: 2099 }).map(String));
    fc.assert(
      fc.property(month, fc.boolean(), separator, year, (m, pad, sep, y) => {
        const mm = pad || m >= 10 || sep === '' ? String(m).padStart(2, '0') : String(m);
        const text = `${mm}${sep}${y}`;
        const read = parseExpiry(text);
        expect(read, text).toBeDefined();
        expect(parseExpiry(formatExpiryInput(text, false)), text).toEqual(read);
        expect(parseExpiry(typed(text)), text).toEqual(read);
      }),
      { numRuns: 2000 },
    );
  });

  it('groups the card number in fours', () => {
    expect(formatCardNumberInput('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumberInput('4242-42')).toBe('4242 42');
    expect(formatCardNumberInput('4242')).toBe('4242');
    expect(formatCardNumberInput('12345678901234567890123')).toBe('1234 5678 9012 3456 789');
  });
});
