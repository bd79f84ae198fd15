import { createHash } from 'node:crypto';
import type { CheckoutSession } from '../../domain/checkout.js';
import { formatAmount } from '../../domain/money.js';
import type { DeclineCode } from '../../domain/test-cards.js';

// The hosted checkout page (spec section 1: checkout sessions and payment links route
// the customer to it). A plain HTML form that works without script; a small inline
// script only formats the card number and expiry as they are typed. Every value
// interpolated is escaped.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The expiry as the customer types it, on a keypad without "/": the slash follows the
 * month by itself (1234 → 12/34), a month that can only be one digit gets its zero
 * (4 → 04/, 1/ → 01/), and deleting does not bring the slash back. Its output is what
 * the server's one parser (parseExpiry) reads; a test holds the two together. Sent to
 * the page as source: it uses nothing outside itself.
 */
export function formatExpiryInput(value: string, deleting: boolean): string {
  let digits = value.replace(/\D/g, '');
  if (/^([2-9]|1[3-9])/.test(digits) || /^\s*\d\s*[\s/-]/.test(value)) digits = `0${digits}`;
  digits = digits.slice(0, 6);
  if (digits.length < 2 || (digits.length === 2 && deleting)) return digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** The card number in groups of four as it is typed (the API ignores the spaces). Sent to the page as source. */
export function formatCardNumberInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
}

// Reformats a field on each edit, keeping the caret after the same digit.
const SCRIPT = `(() => {
  const formats = { number: ${formatCardNumberInput}, exp: ${formatExpiryInput} };
  for (const [id, format] of Object.entries(formats)) {
    const input = document.getElementById(id);
    input.addEventListener('input', (event) => {
      const caretAtEnd = input.selectionStart === input.value.length;
      const digitsBefore = input.value.slice(0, input.selectionStart ?? 0).replace(/\\D/g, '').length;
      const next = format(input.value, (event.inputType ?? '').startsWith('delete'));
      if (next === input.value) return;
      input.value = next;
      let caret = next.length;
      if (!caretAtEnd) for (let seen = caret = 0; caret < next.length && seen < digitsBefore; caret++) if (/\\d/.test(next[caret])) seen++;
      input.setSelectionRange(caret, caret);
    });
  }
})();`;

/** A URL's origin as a CSP source; CSP has no syntax for an IPv6 address, so such a host is allowed by its scheme. */
const cspSource = (url: URL) => (url.hostname.startsWith('[') ? url.protocol : url.origin);

const SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;

/**
 * The pages' Content-Security-Policy: nothing loads, nothing frames them, and the one
 * script that runs is the one above (by its hash). The form posts to the page itself;
 * form-action also rules the redirects that answer it, so the session's success URL
 * (a paid session's 303) is let through too, by its origin.
 */
export function pageCsp(successUrl: string | null = null): string {
  const targets = ["'self'", ...(successUrl === null ? [] : [cspSource(new URL(successUrl))])];
  return `default-src 'none'; script-src ${SCRIPT_SOURCE}; style-src 'unsafe-inline'; form-action ${targets.join(' ')}; frame-ancestors 'none'; base-uri 'none'`;
}

/** The form's inputs, the API params whose errors they show, and what the customer is asked to fix. */
export const FIELDS = [
  { name: 'number', inputmode: 'numeric', label: 'Card number', params: ['card.number', 'card'], autocomplete: 'cc-number', placeholder: '1234 1234 1234 1234', maxlength: 23, fix: 'Enter a valid card number.' },
  { name: 'exp', inputmode: 'numeric', label: 'Expiry (MM/YY)', params: ['card.exp_month', 'card.exp_year'], autocomplete: 'cc-exp', placeholder: 'MM/YY', maxlength: 9, fix: 'Enter the expiry date as MM/YY.' },
  { name: 'cvc', inputmode: 'numeric', label: 'CVC', params: ['card.cvc'], autocomplete: 'cc-csc', placeholder: '123', maxlength: 4, fix: 'Enter the security code (CVC) from your card.' },
  { name: 'zip', inputmode: 'text', label: 'ZIP / postal code', params: ['billing_details.address.zip', 'billing_details.address', 'billing_details'], autocomplete: 'postal-code', placeholder: '94110', maxlength: 10, fix: 'Enter your ZIP or postal code.' },
] as const;
export type FieldName = (typeof FIELDS)[number]['name'];
type Field = (typeof FIELDS)[number];

/** A decline in the customer's words: the API's messages are written for developers. */
const DECLINES: Record<DeclineCode, string> = {
  card_declined: 'Your card was declined. Try another card.',
  insufficient_funds: 'Your card has insufficient funds. Try another card.',
  expired_card: 'Your card has expired. Check the expiry date or try another card.',
  incorrect_cvc: "Your card's security code is incorrect. Check it and try again.",
  card_not_supported: 'This card is not accepted here. Try another card.',
};
const OTHER_FAILURE = 'The payment could not be completed. Try again, or use another card.';

/** What went wrong with an attempt: an error code, and the API param it names if any. */
export interface PageError {
  code: string;
  param?: string | undefined;
}

const customerText = (error: PageError, field?: Field) => DECLINES[error.code as DeclineCode] ?? field?.fix ?? OTHER_FAILURE;

function layout(title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  *, *::before, *::after { box-sizing: border-box; }
  body { font: 16px/1.5 system-ui, sans-serif; background: #f6f8fa; color: #1f2328; margin: 0; padding: 3rem 1rem; }
  main { max-width: 26rem; margin: 0 auto; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 2rem; }
  /* A phone keeps a margin around the card. */
  @media (max-width: 30rem) { body { padding: 1rem; } main { padding: 1.25rem; } }
  h1 { font-size: 1.25rem; margin: 0; overflow-wrap: anywhere; }
  .description { color: #57606a; margin: .25rem 0 0; overflow-wrap: anywhere; }
  .paid-to { margin: 0; }
  .amount { font-size: 2rem; font-weight: 600; margin: .5rem 0 1.5rem; }
  .row { display: flex; gap: .75rem; }
  .row > div { flex: 1; min-width: 0; }
  label { display: block; font-weight: 500; margin-top: 1rem; }
  input { width: 100%; padding: .6rem; font: inherit; border: 1px solid #d0d7de; border-radius: 6px; }
  input:focus { outline: 2px solid #1f6feb; outline-offset: -1px; }
  input[aria-invalid="true"] { border-color: #cf222e; box-shadow: 0 0 0 1px #cf222e; }
  input[aria-invalid="true"]:focus { outline-color: #cf222e; }
  .field-error, .alert { color: #cf222e; font-size: .875rem; margin: .25rem 0 0; }
  .alert { border: 1px solid #cf222e; border-radius: 6px; padding: .75rem; background: #ffebe9; margin-bottom: 1rem; }
  button { margin-top: 1.5rem; width: 100%; padding: .75rem; font: inherit; font-weight: 600; color: #fff; background: #1f6feb; border: 0; border-radius: 6px; cursor: pointer; }
  .cancel { display: block; text-align: center; margin-top: 1rem; color: #57606a; }
  .note { color: #57606a; font-size: .875rem; }
</style>
</head>
<body><main>
${body}
</main>${script && `\n<script>${script}</script>`}</body>
</html>
`;
}

/** Who is paid and for what (absent from sessions stored before these fields), then the amount. */
function summary(session: CheckoutSession): string {
  const amount = formatAmount(session.amount, session.currency);
  return `<h1 id="merchant">${session.merchant_name ? escapeHtml(session.merchant_name) : 'Pay'}</h1>
${session.description ? `<p class="description" id="description">${escapeHtml(session.description)}</p>\n` : ''}<p class="amount" id="amount">${escapeHtml(amount)}</p>`;
}

/**
 * The payment form of an open session. After a failed attempt every field to fix is
 * marked at once, and a decline is said above the form, all in the customer's words.
 */
export function checkoutPage(session: CheckoutSession, options: { errors?: PageError[]; values?: Partial<Record<FieldName, string>> } = {}): string {
  const errors = options.errors ?? [];
  const fieldOf = (error: PageError) => FIELDS.find((f) => error.param !== undefined && (f.params as readonly string[]).includes(error.param));
  const marked = new Map<FieldName, string>();
  for (const error of errors) {
    const field = fieldOf(error);
    if (field && !marked.has(field.name)) marked.set(field.name, customerText(error, field));
  }
  const general = errors.find((e) => fieldOf(e) === undefined);
  const alert = general ? `<p class="alert" role="alert" id="payment-error">${escapeHtml(customerText(general))}</p>` : '';
  const firstMarked = FIELDS.find((f) => marked.has(f.name))?.name;

  const input = (field: Field) => {
    const problem = marked.get(field.name);
    // The card number and cvc are never written back into the page.
    const value = field.name === 'number' || field.name === 'cvc' ? '' : (options.values?.[field.name] ?? '');
    // A decline alone marks no field: the focus goes to the card number, typed again, which says the decline.
    const declined = alert !== '' && firstMarked === undefined && field.name === 'number';
    const attributes = problem !== undefined ? ` aria-invalid="true" aria-describedby="${field.name}-error"${field.name === firstMarked ? ' autofocus' : ''}` : declined ? ' aria-describedby="payment-error" autofocus' : '';
    return `<div>
<label for="${field.name}">${escapeHtml(field.label)}</label>
<input id="${field.name}" name="${field.name}" autocomplete="${field.autocomplete}" inputmode="${field.inputmode}" maxlength="${field.maxlength}" placeholder="${escapeHtml(field.placeholder)}" value="${escapeHtml(value)}" required${attributes}>
${problem === undefined ? '' : `<p class="field-error" id="${field.name}-error">${escapeHtml(problem)}</p>\n`}</div>`;
  };
  const [number, exp, cvc, zip] = FIELDS;
  const cancel = session.cancel_url ? `<a class="cancel" id="cancel" href="${escapeHtml(session.cancel_url)}">Cancel and return</a>` : '';
  const amount = formatAmount(session.amount, session.currency);
  const title = `Pay ${amount}${session.merchant_name ? ` to ${session.merchant_name}` : ''}`;
  return layout(title, `${summary(session)}
${alert}
<form method="post" action="/checkout/${escapeHtml(session.id)}" novalidate>
${input(number)}
<div class="row">
${input(exp)}
${input(cvc)}
</div>
${input(zip)}
<button type="submit" id="pay">Pay ${escapeHtml(amount)}</button>
</form>
${cancel}
<p class="note">Sandbox: no real money moves. Test cards: pay sandbox cards</p>`, SCRIPT);
}

/**
 * The receipt of a paid session without a success URL of its own: what the card was
 * charged (`received`), which a partial authorization makes less than the amount.
 */
export function paidPage(session: CheckoutSession, received: number): string {
  const paidTo = session.merchant_name ? `<p class="paid-to" id="merchant">Paid to ${escapeHtml(session.merchant_name)}</p>\n` : '';
  const paidFor = session.description ? `<p class="description" id="description">${escapeHtml(session.description)}</p>\n` : '';
  const charged = formatAmount(received, session.currency);
  const partial = received < session.amount ? `<p class="note" id="partial">Partial authorization: ${escapeHtml(charged)} of ${escapeHtml(formatAmount(session.amount, session.currency))} was charged.</p>\n` : '';
  return layout('Payment complete', `<h1 id="result">Payment complete</h1>
<p class="amount">${escapeHtml(charged)}</p>
${partial}${paidTo}${paidFor}<p class="note">Reference: ${escapeHtml(session.payment_intent_id)}</p>`);
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<h1 id="result">${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>`);
}
