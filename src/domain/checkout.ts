import { z } from 'zod';
import { Amount, type BaseObject, Currency, HttpUrlWithoutCredentials, IdOf, LineText, ListQueryOf, Metadata } from './common.js';
import { parseExpiry, PaymentMethodCreate } from './payment-methods.js';

const HttpUrl = HttpUrlWithoutCredentials('https://example.com/done');

/** What the customer pays for, and who is paid: shown on the hosted page (which escapes it). */
const PageDetails = {
  description: LineText('what is being paid for, e.g. "2 × Espresso beans 250 g"', 500).optional(),
  merchant_name: LineText('the name the customer knows the merchant by', 100).optional(),
};

/**
 * DESIGN section 4: `{amount, currency, success_url, cancel_url, customer_id?}`, plus the
 * optional page details `description` and `merchant_name`.
 */
export const CheckoutSessionCreate = z.strictObject({
  amount: Amount,
  currency: Currency,
  success_url: HttpUrl,
  cancel_url: HttpUrl,
  customer_id: IdOf('cus').optional(),
  metadata: Metadata.optional(),
  ...PageDetails,
});
export type CheckoutSessionCreate = z.output<typeof CheckoutSessionCreate>;

export const CHECKOUT_SESSION_STATUSES = ['open', 'complete', 'expired'] as const;

export const CheckoutSessionListQuery = ListQueryOf('cs').extend({
  status: z.enum(CHECKOUT_SESSION_STATUSES, { error: 'must be open, complete or expired' }).optional(),
  payment_intent_id: IdOf('pi').optional(),
});

export interface CheckoutSession extends BaseObject {
  object: 'checkout_session';
  status: (typeof CHECKOUT_SESSION_STATUSES)[number];
  payment_status: 'unpaid' | 'paid';
  amount: number;
  currency: string;
  payment_intent_id: string;
  /** The hosted payment page, served by the sandbox. */
  checkout_session_url: string;
  /** Null for sessions of a payment link without one: the page then shows its own receipt. */
  success_url: string | null;
  cancel_url: string | null;
  customer_id: string | null;
  payment_link_id: string | null;
  expires_at: string;
  metadata: Record<string, string>;
  description: string | null;
  merchant_name: string | null;
}

/** The spec's no-code option: a reusable URL, each visit its own checkout session. */
export const PaymentLinkCreate = z.strictObject({
  amount: Amount,
  currency: Currency,
  success_url: HttpUrl.optional(),
  cancel_url: HttpUrl.optional(),
  metadata: Metadata.optional(),
  ...PageDetails,
});
export type PaymentLinkCreate = z.output<typeof PaymentLinkCreate>;
export const PaymentLinkListQuery = ListQueryOf('plink');

export interface PaymentLink extends BaseObject {
  object: 'payment_link';
  url: string;
  active: boolean;
  amount: number;
  currency: string;
  success_url: string | null;
  cancel_url: string | null;
  metadata: Record<string, string>;
  /** Given to each session the link opens. */
  description: string | null;
  merchant_name: string | null;
}

/** The hosted page's form as the customer typed it. */
export interface CheckoutForm {
  number?: string | undefined;
  exp?: string | undefined;
  cvc?: string | undefined;
  zip?: string | undefined;
}

/** A field of the form to fix: the API param it fills, why (a decline code for an expired card), and the rule in words. */
export interface FormIssue {
  param: string;
  code: string;
  message: string;
}

/**
 * The form as the API's card input, by the API's own rules (and its one expiry parser),
 * with every invalid field reported together; the page asks for the postal code, which
 * the API leaves optional. For the page, and for a flow's pay_checkout step checked
 * before it runs.
 */
export function readCheckoutForm(form: CheckoutForm): { value?: PaymentMethodCreate; exp?: { exp_month: number; exp_year: number }; issues: FormIssue[] } {
  const exp = parseExpiry(form.exp ?? '');
  const zip = form.zip?.trim() ?? '';
  const result = PaymentMethodCreate.safeParse({
    type: 'card',
    card: { number: form.number ?? '', ...exp, cvc: (form.cvc ?? '').trim() },
    ...(zip ? { billing_details: { address: { zip } } } : {}),
  });
  const issues: FormIssue[] = result.success ? [] : result.error.issues.map((issue) => ({ param: issue.path.join('.'), code: 'parameter_invalid', message: issue.message }));
  if (!zip) issues.push({ param: 'billing_details.address.zip', code: 'parameter_missing', message: 'the page asks for a ZIP or postal code' });
  return { ...(result.success ? { value: result.data } : {}), ...(exp ? { exp } : {}), issues };
}
