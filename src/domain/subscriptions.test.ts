import { describe, expect, it } from 'vitest';
import { ApiError, parseOrThrow } from './errors.js';
import { scheduledDates, statusAfterPayment, SubscriptionCreate, SubscriptionUpdate } from './subscriptions.js';

const valid = {
  customer_id: 'cus_1',
  payment_method_id: 'pm_1',
  price: 1500,
  billing_cycle_anchor: '2030-01-31',
  interval_unit: 'month',
  interval_count: 1,
};

const rejection = (schema: Parameters<typeof parseOrThrow>[0], body: unknown): ApiError => {
  try {
    parseOrThrow(schema, body);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
};

describe('SubscriptionCreate', () => {
  it('accepts the spec\'s fields', () => {
    expect(parseOrThrow(SubscriptionCreate, { ...valid, currency: 'eur', platform_fee_amount: 100, metadata: { plan: 'gold' }, cancel_at: '2030-02-01' })).toMatchObject(valid);
  });

  it('names the field and the rule of each bad value', () => {
    expect(rejection(SubscriptionCreate, { ...valid, interval_unit: 'day' })).toMatchObject({ code: 'parameter_invalid', param: 'interval_unit', message: expect.stringContaining('week, month or year') });
    expect(rejection(SubscriptionCreate, { ...valid, interval_count: 0 })).toMatchObject({ param: 'interval_count' });
    expect(rejection(SubscriptionCreate, { ...valid, billing_cycle_anchor: '2030-02-30' })).toMatchObject({ param: 'billing_cycle_anchor' });
    expect(rejection(SubscriptionCreate, { ...valid, price: undefined })).toMatchObject({ code: 'parameter_missing', param: 'price' });
    expect(rejection(SubscriptionCreate, { ...valid, trial_days: 3 })).toMatchObject({ code: 'parameter_unknown', param: 'trial_days' });
  });

  it('wants cancel_at after the anchor and the platform fee within the price', () => {
    expect(rejection(SubscriptionCreate, { ...valid, cancel_at: '2030-01-31' })).toMatchObject({ param: 'cancel_at', message: expect.stringContaining('after billing_cycle_anchor') });
    expect(rejection(SubscriptionCreate, { ...valid, platform_fee_amount: 1501 })).toMatchObject({ param: 'platform_fee_amount' });
  });
});

describe('SubscriptionUpdate', () => {
  it('answers the immutable fields with the rule, naming each', () => {
    for (const [param, value] of [['customer_id', 'cus_2'], ['billing_cycle_anchor', '2030-03-01'], ['interval_unit', 'week'], ['interval_count', 2]] as const) {
      expect(rejection(SubscriptionUpdate, { metadata: { a: 'b' }, [param]: value })).toMatchObject({
        status: 400,
        code: 'parameter_immutable',
        param,
        message: expect.stringContaining('immutable after creation'),
      });
    }
  });

  it('takes the mutable fields, null clearing cancel_at and the fee', () => {
    expect(parseOrThrow(SubscriptionUpdate, { payment_method_id: 'pm_2', cancel_at: null, platform_fee_amount: null, metadata: { a: '' } })).toEqual({
      payment_method_id: 'pm_2',
      cancel_at: null,
      platform_fee_amount: null,
      metadata: { a: '' },
    });
  });
});

describe('statusAfterPayment', () => {
  it('maps the generated intent\'s status as spec section 3 does', () => {
    expect(statusAfterPayment('succeeded')).toBe('active');
    expect(statusAfterPayment('requires_payment_method')).toBe('past_due');
  });
});

describe('scheduledDates', () => {
  const cycle = { billing_cycle_anchor: '2030-01-31', interval_unit: 'month' as const, interval_count: 1, cancel_at: null };

  it('lists due dates from an index', () => {
    expect(scheduledDates(cycle, 3)).toEqual(['2030-01-31', '2030-02-28', '2030-03-31']);
    expect(scheduledDates(cycle, 2, 3)).toEqual(['2030-04-30', '2030-05-31']);
  });

  it('ends before cancel_at: the subscription cancels before a payment due that day', () => {
    expect(scheduledDates({ ...cycle, cancel_at: '2030-03-31' }, 5)).toEqual(['2030-01-31', '2030-02-28']);
    expect(scheduledDates({ ...cycle, cancel_at: '2030-02-01' }, 5)).toEqual(['2030-01-31']);
  });
});
