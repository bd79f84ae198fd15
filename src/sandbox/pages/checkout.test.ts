import { describe, expect, it } from 'vitest';
import type { CheckoutSession } from '../../domain/checkout.js';
import { checkoutPage, escapeHtml } from './checkout.js';

const session: CheckoutSession = {
  id: 'cs_test', object: 'checkout_session', created: '2030-01-15T00:00:00Z', livemode: false,
  status: 'open', payment_status: 'unpaid', amount: 1099, currency: 'usd', payment_intent_id: 'pi_test',
  checkout_session_url: 'http://127.0.0.1/checkout/cs_test', success_url: 'https://a.example/ok', cancel_url: 'https://a.example/?q="><img src=x>',
  customer_id: null, payment_link_id: null, expires_at: '2030-01-16T00:00:00Z', metadata: {},
};

describe('hosted checkout page', () => {
  it('shows the amount in the currency\'s own minor units', () => {
    expect(checkoutPage(session)).toContain('$10.99');
    expect(checkoutPage({ ...session, amount: 1000, currency: 'jpy' })).toContain('¥1,000');
  });

  it('escapes every interpolated value', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    const html = checkoutPage(session, { error: { message: '<script>alert(1)</script>' }, values: { exp: '"><b>', zip: '<i>' } });
    expect(html).not.toMatch(/<script>|<img|<b>|<i>/);
    expect(html).toContain('&lt;script&gt;');
  });

  it('shows a field\'s error beside it and a decline above the form', () => {
    const fieldError = checkoutPage(session, { error: { message: 'Must be 3 digits', param: 'card.cvc' } });
    expect(fieldError).toMatch(/id="cvc"[^>]*aria-invalid="true"/);
    expect(fieldError).toContain('id="cvc-error"');
    expect(fieldError).not.toContain('id="payment-error"');
    const decline = checkoutPage(session, { error: { message: 'Your card was declined.' } });
    expect(decline).toContain('<p class="alert" role="alert" id="payment-error">Your card was declined.</p>');
  });

  it('never writes the card number or cvc back into the form', () => {
    const html = checkoutPage(session, { values: { number: '4242424242424242', cvc: '123', exp: '12/34' } });
    expect(html).not.toContain('4242424242424242');
    expect(html).toContain('value="12/34"');
  });
});
