import { writeFileAtomic } from '../infra/atomic-write.js';
import type { ItemResult } from './journal.js';
import type { BatchReport } from './retry-batch.js';

// The record for the ticket: one CSV row per subscription of the batch (RFC 4180).

/** amount_received and partial (yes/no; empty when nothing was charged): a partial authorization succeeded with less than amount. */
export const REPORT_COLUMNS = ['subscription_id', 'customer_id', 'amount', 'currency', 'outcome', 'decline_code', 'payment_intent_id', 'skip_reason', 'amount_received', 'partial'] as const;

/** Items not done yet (an interrupted batch) have this outcome in the report. */
export const NOT_DONE = 'not_done';

type Row = Record<(typeof REPORT_COLUMNS)[number], string | number | null>;

/** A field quoted when it holds a comma, a quote or a line break, its quotes doubled. */
export function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The batch as CSV, in the batch's order: every item, done or not. */
export function reportCsv(report: Pick<BatchReport, 'items' | 'results'>): string {
  const results = new Map(report.results.map((r) => [r.subscription_id, r]));
  const rows = report.items.map((item): Row => {
    const r: ItemResult | undefined = results.get(item.subscription_id);
    return r
      ? { ...pick(r), outcome: r.outcome, decline_code: r.decline_code, payment_intent_id: r.payment_intent_id, skip_reason: r.skip_reason, amount_received: r.amount_received, partial: r.amount_received === null ? null : r.partial ? 'yes' : 'no' }
      : { ...pick(item), outcome: NOT_DONE, decline_code: item.decline_code, payment_intent_id: item.payment_intent_id, skip_reason: null, amount_received: null, partial: null };
  });
  return [REPORT_COLUMNS, ...rows.map((row) => REPORT_COLUMNS.map((c) => row[c]))].map((fields) => `${fields.map(csvField).join(',')}\r\n`).join('');
}

const pick = (r: { subscription_id: string; customer_id: string; amount: number; currency: string }) => ({
  subscription_id: r.subscription_id,
  customer_id: r.customer_id,
  amount: r.amount,
  currency: r.currency,
});

/** Writes the report whole or not at all: a reader never sees half a file. */
export function writeReport(path: string, report: Pick<BatchReport, 'items' | 'results'>): void {
  writeFileAtomic(path, reportCsv(report));
}
