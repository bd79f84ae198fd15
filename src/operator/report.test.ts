import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ItemResult } from './journal.js';
import type { PastDueSubscription } from './past-due.js';
import { csvField, reportCsv, writeReport } from './report.js';

const item = (n: number, extra: Partial<PastDueSubscription> = {}): PastDueSubscription => ({
  subscription_id: `sub_${n}`,
  customer_id: `cus_${n}`,
  payment_method_id: `pm_${n}`,
  status: 'past_due',
  amount: 1000 + n,
  currency: 'usd',
  past_due_since: null,
  payment_intent_id: `pi_old${n}`,
  payment_intent_status: 'requires_payment_method',
  paid_directly_intent_id: null,
  decline_code: 'card_declined',
  decline_message: null,
  decline_type: 'soft',
  failed_payment_method_id: `pm_${n}`,
  payment_method_changed: false,
  ...extra,
});

const result = (n: number, extra: Partial<ItemResult>): ItemResult => ({
  subscription_id: `sub_${n}`,
  customer_id: `cus_${n}`,
  amount: 1000 + n,
  currency: 'usd',
  outcome: 'succeeded',
  status: 'active',
  decline_code: null,
  skip_reason: null,
  message: null,
  payment_intent_id: `pi_new${n}`,
  idempotency_key: `k${n}`,
  amount_received: 1000 + n,
  partial: false,
  ...extra,
});

describe('reportCsv', () => {
  it('one row per subscription in the batch\'s order, done or not, after a header', () => {
    const items = [item(1), item(2), item(3), item(4), item(5)];
    const csv = reportCsv({
      items,
      results: [
        result(1, {}),
        result(3, { outcome: 'skipped', status: 'past_due', decline_code: 'expired_card', skip_reason: 'unchanged_hard_decline', payment_intent_id: 'pi_old3', idempotency_key: null, amount_received: null }),
        result(2, { outcome: 'failed', status: 'past_due', decline_code: 'insufficient_funds', amount_received: null }),
        result(5, { amount_received: 502, partial: true }),
      ],
    });
    expect(csv).toBe(
      [
        'subscription_id,customer_id,amount,currency,outcome,decline_code,payment_intent_id,skip_reason,amount_received,partial',
        'sub_1,cus_1,1001,usd,succeeded,,pi_new1,,1001,no',
        'sub_2,cus_2,1002,usd,failed,insufficient_funds,pi_new2,,,',
        'sub_3,cus_3,1003,usd,skipped,expired_card,pi_old3,unchanged_hard_decline,,',
        'sub_4,cus_4,1004,usd,not_done,card_declined,pi_old4,,,',
        // A partial authorization: half the price received, the rest for support to charge.
        'sub_5,cus_5,1005,usd,succeeded,,pi_new5,,502,yes',
        '',
      ].join('\r\n'),
    );
  });

  it('quotes a field with a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(12)).toBe('12');
    expect(csvField(null)).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(reportCsv({ items: [item(1, { customer_id: 'cus_"x",y' })], results: [] }).split('\r\n')[1]).toBe('sub_1,"cus_""x"",y",1001,usd,not_done,card_declined,pi_old1,,,');
  });

  it('writes the file whole, leaving nothing beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-report-'));
    try {
      writeReport(join(dir, 'r.csv'), { items: [item(1)], results: [result(1, {})] });
      expect(readFileSync(join(dir, 'r.csv'), 'utf8')).toContain('sub_1,cus_1,1001,usd,succeeded');
      expect(readdirSync(dir)).toEqual(['r.csv']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
