import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CustomerCreate } from './customers.js';
import { PaymentIntentCreate } from './payment-intents.js';
import { ApiError, parseOrThrow } from './errors.js';

function rejection(schema: z.ZodType, input: unknown): ApiError {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('fromZodError (through parseOrThrow): param names the field, the message states the rule', () => {
  it('an unknown field is parameter_unknown naming it', () => {
    const error = rejection(CustomerCreate, { email: 'a@example.com', nickname: 'x' });
    expect(error).toMatchObject({ status: 400, code: 'parameter_unknown', param: 'nickname' });
    expect(error.toBody().error.type).toBe('invalid_request_error');
  });

  it('a wrong type is parameter_invalid naming the field, with the rule', () => {
    const error = rejection(CustomerCreate, { email: 42 });
    expect(error).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'email' });
    expect(error.message).toMatch(/email.*must be an email address/);
  });

  it('a nested field is a dotted path', () => {
    const error = rejection(CustomerCreate, { metadata: { plan: 5 } });
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'metadata.plan' });
    const nested = rejection(z.strictObject({ card: z.strictObject({ number: z.string() }) }), { card: { number: '4242', extra: 1 } });
    expect(nested).toMatchObject({ code: 'parameter_unknown', param: 'card.extra' });
  });

  it('an unknown field wins over a missing or invalid one (a misspelt name is both), and the answer says what the object takes', () => {
    expect(rejection(PaymentIntentCreate, { ammount: 100, currency: 'usd', payment_method_types: ['card'] })).toMatchObject({
      code: 'parameter_unknown',
      param: 'ammount',
      message: 'Received unknown parameter: ammount. This request takes: amount, currency, payment_method_types, confirm, capture_method, payment_method_id, customer_id, description, metadata.',
    });
    const card = z.strictObject({ card: z.strictObject({ number: z.string(), cvc: z.string() }).optional() });
    expect(rejection(card, { card: { number: 42, cvv: '123' } })).toMatchObject({ code: 'parameter_unknown', param: 'card.cvv', message: 'Received unknown parameter: card.cvv. card takes: number, cvc.' });
  });

  it('a missing required field is parameter_missing naming it', () => {
    const error = rejection(z.strictObject({ amount: z.number() }), {});
    expect(error).toMatchObject({ status: 400, code: 'parameter_missing', param: 'amount' });
  });

  it('a field a rule makes required says the rule', () => {
    const error = rejection(PaymentIntentCreate, { amount: 100, currency: 'usd', payment_method_types: ['card'], confirm: true });
    expect(error).toMatchObject({ code: 'parameter_missing', param: 'payment_method_id', message: 'Missing required parameter: payment_method_id: it is required with confirm=true.' });
  });

  it('a name is one line of text, trimmed, not blank', () => {
    expect(rejection(CustomerCreate, { first_name: '   ' })).toMatchObject({ code: 'parameter_invalid', param: 'first_name', message: 'Invalid first_name: must not be empty' });
    expect(rejection(CustomerCreate, { last_name: 'Rosen\nberg' })).toMatchObject({ param: 'last_name', message: 'Invalid last_name: must be one line without control characters' });
    expect(CustomerCreate.parse({ first_name: '  Jenny ' }).first_name).toBe('Jenny');
  });

  it('a missing choice (an enum, a union) is parameter_missing too, not invalid', () => {
    expect(rejection(z.strictObject({ processor: z.enum(['A', 'B'], { error: 'must be A or B' }) }), {})).toMatchObject({ code: 'parameter_missing', param: 'processor' });
    expect(rejection(z.strictObject({ to: z.union([z.string(), z.number()]) }), {})).toMatchObject({ code: 'parameter_missing', param: 'to' });
  });

  it('a metadata key breaking a rule gets that rule, echoed no further than a short prefix', () => {
    const long = 'k'.repeat(5000);
    const error = rejection(CustomerCreate, { metadata: { [long]: 'v' } });
    expect(error).toMatchObject({ code: 'parameter_invalid', param: `metadata.${'k'.repeat(31)}…`, message: `Invalid metadata.${'k'.repeat(31)}…: metadata keys are at most 40 characters` });
    expect(JSON.stringify(error.toBody()).length).toBeLessThan(300);
    expect(rejection(CustomerCreate, { metadata: { '': 'v' } })).toMatchObject({ param: 'metadata', message: 'Invalid metadata: metadata keys must not be empty' });
  });

  it('a body that is not an object names the body', () => {
    expect(rejection(CustomerCreate, [1, 2])).toMatchObject({ code: 'parameter_invalid', param: 'body' });
  });

  it('the body has param only when there is one', () => {
    expect(new ApiError(404, 'resource_missing', 'No such customer.').toBody()).toEqual({ error: { type: 'not_found_error', code: 'resource_missing', message: 'No such customer.' } });
  });
});
