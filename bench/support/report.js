// Rows of issue 12's table: what each bench measured, its baseline from the same run, the
// ratio, and the goal and moonshot checked against them. A bench prints its rows and, under
// bench/run.js, appends them to the JSON-lines file named by BENCH_ROWS; run.js prints the
// whole table and writes bench/results.json. A missed goal is a result, not a failure.
import { appendFileSync } from 'node:fs';

/**
 * One row. `id` is its place in the table. `value`/`baseline` are the printed
 * cells, `metrics`/`baselineMetrics` the numbers behind them. `met`/`moonshotMet` are
 * booleans, or null when the run was smaller than the (a goal set for 100,000
 * intents says nothing about 1,000).
 */
export function row({ id, name, value, metrics, baseline = null, baselineMetrics = null, ratio = null, goal, met, moonshot, moonshotMet }) {
  return { id, name, value, metrics, baseline, baseline_metrics: baselineMetrics, ratio, goal, met, moonshot, moonshot_met: moonshotMet };
}

export function report(rows) {
  process.stdout.write(`${table(rows)}\n`);
  if (process.env.BENCH_ROWS) appendFileSync(process.env.BENCH_ROWS, rows.map((r) => `${JSON.stringify({ ...r, measured_at: new Date().toISOString() })}\n`).join(''));
}

const mark = (met) => (met === null ? 'n/a' : met ? 'PASS' : 'MISS');

/** The rows as a Markdown table, as in the issue (readable in a terminal, pasteable in a note). */
export function table(rows) {
  const head = ['#', 'measure', 'pay now', 'baseline in the same run', 'ratio now', 'goal', '', 'moonshot', ''];
  const cells = rows.map((r) => [
    String(r.id),
    r.name,
    r.value,
    r.baseline ?? '—',
    r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`,
    r.goal,
    mark(r.met),
    r.moonshot,
    mark(r.moonshot_met),
  ]);
  const line = (values) => `| ${values.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...cells.map(line)].join('\n');
}

/** 12,345 */
export const int = (n) => Math.round(n).toLocaleString('en-US');
/** Milliseconds: autocannon's are whole; measured ones get two decimals below 10. */
export const ms = (n) => `${Number.isInteger(n) || n >= 10 ? n.toFixed(0) : n.toFixed(2)} ms`;
export const KB = 1024;
export const MB = 1024 * KB;
export const GB = 1024 * MB;
export const mb = (bytes) => `${int(bytes / MB)} MB`;
