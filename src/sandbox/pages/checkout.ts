import type { CheckoutSession } from '../../domain/checkout.js';
import { formatAmount } from '../../domain/money.js';

// The hosted checkout page (spec section 1: checkout sessions and payment links route
// the customer to it). Plain HTML forms, no script: every value interpolated is escaped.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The form's inputs and the API params whose errors they show. */
export const FIELDS = [
  { name: 'number', label: 'Card number', params: ['card.number', 'card'], autocomplete: 'cc-number', placeholder: '4242 4242 4242 4242', inputmode: 'numeric' },
  { name: 'exp', label: 'Expiry (MM / YY)', params: ['card.exp_month', 'card.exp_year'], autocomplete: 'cc-exp', placeholder: 'MM / YY', inputmode: 'numeric' },
  { name: 'cvc', label: 'CVC', params: ['card.cvc'], autocomplete: 'cc-csc', placeholder: '123', inputmode: 'numeric' },
  { name: 'zip', label: 'ZIP / postal code', params: ['billing_details.address.zip'], autocomplete: 'postal-code', placeholder: '94110', inputmode: 'text' },
] as const;
export type FieldName = (typeof FIELDS)[number]['name'];

export interface PageError {
  message: string;
  /** The API param the error names, if any: shown beside its field. */
  param?: string | undefined;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f6f8fa; color: #1f2328; margin: 0; }
  main { max-width: 26rem; margin: 3rem auto; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 2rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
  .amount { font-size: 2rem; font-weight: 600; margin: 0 0 1.5rem; }
  label { display: block; font-weight: 500; margin-top: 1rem; }
  input { width: 100%; box-sizing: border-box; padding: .6rem; font: inherit; border: 1px solid #d0d7de; border-radius: 6px; }
  input[aria-invalid="true"] { border-color: #cf222e; }
  .field-error, .alert { color: #cf222e; font-size: .875rem; margin: .25rem 0 0; }
  .alert { border: 1px solid #cf222e; border-radius: 6px; padding: .75rem; background: #ffebe9; margin-bottom: 1rem; }
  button { margin-top: 1.5rem; width: 100%; padding: .75rem; font: inherit; font-weight: 600; color: #fff; background: #1f6feb; border: 0; border-radius: 6px; cursor: pointer; }
  .cancel { display: block; text-align: center; margin-top: 1rem; color: #57606a; }
  .note { color: #57606a; font-size: .875rem; }
</style>
</head>
<body><main>
${body}
</main></body>
</html>
`;
}

/** The payment form of an open session, with the last attempt's error shown inline. */
export function checkoutPage(session: CheckoutSession, options: { error?: PageError; values?: Partial<Record<FieldName, string>> } = {}): string {
  const error = options.error;
  const fieldOfError = error?.param === undefined ? undefined : FIELDS.find((f) => (f.params as readonly string[]).includes(error.param!))?.name;
  const alert = error && fieldOfError === undefined ? `<p class="alert" role="alert" id="payment-error">${escapeHtml(error.message)}</p>` : '';
  const inputs = FIELDS.map((field) => {
    const invalid = field.name === fieldOfError;
    // The card number and cvc are never written back into the page.
    const value = field.name === 'number' || field.name === 'cvc' ? '' : (options.values?.[field.name] ?? '');
    return `<label for="${field.name}">${escapeHtml(field.label)}</label>
<input id="${field.name}" name="${field.name}" autocomplete="${field.autocomplete}" inputmode="${field.inputmode}" placeholder="${escapeHtml(field.placeholder)}" value="${escapeHtml(value)}"${invalid ? ` aria-invalid="true" aria-describedby="${field.name}-error"` : ''}${field.name === 'zip' ? '' : ' required'}>
${invalid ? `<p class="field-error" role="alert" id="${field.name}-error">${escapeHtml(error!.message)}</p>` : ''}`;
  }).join('\n');
  const cancel = session.cancel_url ? `<a class="cancel" id="cancel" href="${escapeHtml(session.cancel_url)}">Cancel and return</a>` : '';
  return layout(`Pay ${formatAmount(session.amount, session.currency)}`, `<h1>Pay</h1>
<p class="amount" id="amount">${escapeHtml(formatAmount(session.amount, session.currency))}</p>
${alert}
<form method="post" action="/checkout/${escapeHtml(session.id)}" novalidate>
${inputs}
<button type="submit" id="pay">Pay ${escapeHtml(formatAmount(session.amount, session.currency))}</button>
</form>
${cancel}
<p class="note">Sandbox: no real money moves. Test cards: pay sandbox cards</p>`);
}

/** The receipt of a paid session without a success URL of its own. */
export function paidPage(session: CheckoutSession): string {
  return layout('Payment complete', `<h1 id="result">Payment complete</h1>
<p class="amount">${escapeHtml(formatAmount(session.amount, session.currency))}</p>
<p class="note">Reference: ${escapeHtml(session.payment_intent_id)}</p>`);
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<h1 id="result">${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>`);
}
