// Billing benchmark (issue 5, acceptance 4): a test-clock advance over 1,000 weekly
// subscriptions for one year, in process through the service layer, reported as the time
// per generated payment against one plain payment intent create+confirm through the same
// layer, measured in the same run. Needs `npm run build` first (it imports dist/).
// BENCH_MEMORY=1 uses an in-memory database instead of a file; BENCH_SUBSCRIPTIONS and
// BENCH_BASELINE_RUNS change the sizes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays, firstIndexOnOrAfter } from '../dist/domain/schedule.js';
import { Sandbox } from '../dist/sandbox/sandbox.js';
import { createCustomer } from '../dist/sandbox/services/customers.js';
import { createPaymentIntent } from '../dist/sandbox/services/payment-intents.js';
import { attachPaymentMethod, createPaymentMethod } from '../dist/sandbox/services/payment-methods.js';
import { createSubscription } from '../dist/sandbox/services/subscriptions.js';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1000);
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 2000);
const START = '2030-01-01';
const END = '2031-01-01';

// By default a database file, as `pay sandbox start` uses: every clock step commits to disk.
const memory = Boolean(process.env.BENCH_MEMORY);
const dir = mkdtempSync(join(tmpdir(), 'pay-bench-billing-'));
const sandbox = new Sandbox({ db: memory ? ':memory:' : join(dir, 'bench.db'), clock: `${START}T00:00:00Z`, headerPrefix: 'pay' });
const account = sandbox.addAccount({ apiKey: 'sk_test_bench_billing_abcdefghijklmnopqrstuvwxyz' });
/** One transaction, as the request pipeline runs one request. */
const request = (fn) => sandbox.store.db.transaction(() => fn(sandbox.context(account)));
const card = { type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2045, cvc: '123' } };

function customerWithCard(ctx) {
  const customer = createCustomer(ctx, {});
  const pm = createPaymentMethod(ctx, card);
  attachPaymentMethod(ctx, pm.id, customer.id);
  return { customer: customer.id, pm: pm.id };
}

try {
  const baselineCard = request(customerWithCard);
  const plainPayment = () =>
    request((ctx) => createPaymentIntent(ctx, { amount: 1000, currency: 'usd', payment_method_types: ['card'], payment_method_id: baselineCard.pm, customer_id: baselineCard.customer, confirm: true }));
  /** Median time of one plain create+confirm over batches, in ms. */
  const baseline = () => {
    const batches = [];
    for (let b = 0; b < 5; b++) {
      const started = performance.now();
      for (let i = 0; i < BASELINE_RUNS / 5; i++) plainPayment();
      batches.push((performance.now() - started) / (BASELINE_RUNS / 5));
    }
    return batches.sort((x, y) => x - y)[2];
  };

  for (let i = 0; i < 200; i++) plainPayment(); // warm-up
  const before = baseline();

  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    request((ctx) => {
      const { customer, pm } = customerWithCard(ctx);
      // Anchors spread over the first week: seven billing days a week, as real sign-ups are.
      createSubscription(ctx, { customer_id: customer, payment_method_id: pm, price: 1000 + i, billing_cycle_anchor: addDays(START, i % 7), interval_unit: 'week', interval_count: 1 });
    });
  }
  const countSubscriptionIntents = () =>
    sandbox.store.db.get(`SELECT count(*) AS n FROM objects WHERE kind = 'payment_intent' AND json_extract(data, '$.subscription_id') IS NOT NULL`).n;

  const started = performance.now();
  await sandbox.clock.advance((now) => sandbox.context(account, now), `${END}T00:00:00Z`);
  const advanceMs = performance.now() - started;
  const payments = countSubscriptionIntents();

  const after = baseline();
  const plainMs = (before + after) / 2;
  const perPaymentMs = advanceMs / payments;
  const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
  process.stdout.write(
    [
      `Billing on Node ${process.version}: clock advance ${START} → ${END} over ${SUBSCRIPTIONS} weekly subscriptions (${memory ? 'in-memory database' : 'database file'})`,
      `  generated payments     ${payments} in ${(advanceMs / 1000).toFixed(2)} s (one transaction per billing day)`,
      `  per generated payment  ${us(perPaymentMs)}`,
      `  plain create+confirm   ${us(plainMs)} (one transaction each, as one request; median of batches before and after)`,
      `  ratio                  ${(perPaymentMs / plainMs).toFixed(2)}x`,
    ].join('\n') + '\n',
  );
  // A fast wrong answer is no result: every due date up to END is charged exactly once.
  let expected = 0;
  for (let i = 0; i < SUBSCRIPTIONS; i++) expected += firstIndexOnOrAfter(addDays(START, i % 7), 'week', 1, addDays(END, 1));
  if (payments !== expected) throw new Error(`expected ${expected} generated payments, got ${payments}`);
} finally {
  sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
