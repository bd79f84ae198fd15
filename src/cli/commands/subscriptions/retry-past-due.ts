import { formatAmount } from '../../../domain/money.js';
import { existsSync } from 'node:fs';
import type { ItemResult } from '../../../operator/journal.js';
import type { BatchReport, BatchSummary, OpenBatch } from '../../../operator/retry-batch.js';
import { defineCommand, fieldsOf, flag, type OptionsOf } from '../../command.js';
import { CancelError, PartialError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody } from '../../flags.js';
import { confirmed, requireYes, yesFlag } from '../../prompts.js';
import { type Column, plural } from '../../io/io.js';
import { PastDueSelection, type PastDueRow, pastDueColumns, pastDueFields, selectionFlag, totalText } from './past-due.js';

const MAX_CONCURRENCY = 16;
const DAY_MS = 24 * 60 * 60 * 1000;
/** In scripts, a progress line each this many items. */
const PROGRESS_EVERY = 100;

const flags = {
  customer: flag.string('--customer <id>', 'Only this customer\'s past_due subscriptions (cus_…)', { conflicts: ['only', 'resume'] }),
  only: flag.list('--only <ids>', 'Exactly these subscriptions (sub_…, comma-separated or repeated); those not past_due are skipped', { conflicts: ['resume'] }),
  includeUnchanged: flag.bool('--include-unchanged', 'Also retry an unchanged payment method whose last decline was soft (insufficient_funds, card_declined…); hard declines are never retried on an unchanged card', { conflicts: ['resume'] }),
  dryRun: flag.bool('--dry-run', 'Show the batch, with why each skipped subscription is skipped, and charge nothing', { conflicts: ['report'] }),
  concurrency: flag.int('--concurrency <n>', `Retries at once, 1 to ${MAX_CONCURRENCY} (fewer while the service answers 429)`, { default: 4 }),
  journal: flag.string('--journal <file>', 'Journal file of the batch (default: a new file under the config dir\'s batches/)'),
  resume: flag.parsed('--resume [batch]', 'Continue an interrupted batch (default: this account\'s latest unfinished one): started items are replayed with their original idempotency keys; a finished one is only reported', (value): string | true => value),
  report: flag.string('--report <file>', 'Write the batch\'s outcome as CSV: subscription_id, customer_id, amount, currency, outcome, decline_code, payment_intent_id, skip_reason, amount_received, partial'),
  ...yesFlag,
};
export type RetryPastDueOptions = OptionsOf<Record<never, never>, typeof flags>;

/** The --json of a batch (not of --dry-run, which is the past-due list). */
const BATCH_FIELDS = fieldsOf<ReturnType<typeof batchJson>>()('object', 'id', 'journal', 'status', 'counts', 'items', 'remaining');

export const retryPastDue = defineCommand({
  name: 'retry-past-due',
  description: 'Retry past_due subscriptions whose payment method changed since the failure, once each, as one crash-safe batch: journaled, resumable, never charged twice',
  flags,
  examples: [
    'pay subscriptions retry-past-due --dry-run                 # what it would retry, what it skips and why',
    'pay subscriptions retry-past-due                           # at a TTY: shows the batch, asks, then retries',
    'pay subscriptions retry-past-due --include-unchanged --yes --report batch.csv',
    'pay subscriptions retry-past-due --customer cus_123 --yes',
    'pay subscriptions retry-past-due --only sub_1,sub_2 --yes --json',
    'pay subscriptions retry-past-due --resume --yes             # after a crash or Ctrl-C',
    'pay subscriptions retry-past-due --resume batch_20300116T000000Z_a1b2c3 --report batch.csv   # a finished batch\'s record, again',
  ],
  help: `
Which are retried: a past_due subscription whose payment method changed since its last
failed attempt. With --include-unchanged, also an unchanged card whose decline was soft
(insufficient_funds, card_declined, processing_error…); a hard decline (expired_card,
incorrect_cvc, card_not_supported…) on an unchanged card never: update its payment
method, or retry that one alone with pay subscriptions retry sub_…. Nor one whose failed
payment intent (the latest, or an older one) was since paid by confirming it directly
(the subscription stays past_due): a retry would charge again. The others are skipped, each with its reason, and
charged nothing.

Each retry is POST /v1/subscriptions/{id}/retry with an idempotency key written to the
journal (fsync'd) before the request is sent. A batch cut short (crash, Ctrl-C, service
unreachable) continues with --resume: items already sent are sent again with their
original key, so the service answers what it answered the first time and charges
nothing twice. While a batch runs its journal is locked: a second --resume of it exits 5
naming the process that runs it. Two batches at once in one config dir take a
subscription in turn, the second deciding on what the first's attempt left.
Subscriptions no longer past_due when their turn comes are skipped, and so are those
it was started to skip, whatever changed since (the next batch takes them). A retry that
captured only part of the price (a partial authorization) succeeded and its subscription
is active: its line shows what was received, marked partial, and the summary the
difference to charge in another payment. Progress: a bar at a terminal, a line each ${PROGRESS_EVERY} subscriptions otherwise.
Exit 0 when every item succeeded or was skipped, 8 when some failed, 130 on Ctrl-C.
`,
  run: (options, f) => run(options, f),
});

export async function run(options: RetryPastDueOptions, f: Factory): Promise<BatchReport | undefined> {
  f.io.declareFields(options.dryRun ? pastDueFields : BATCH_FIELDS);
  if (options.concurrency < 1 || options.concurrency > MAX_CONCURRENCY) throw new UsageError(`Invalid --concurrency: must be from 1 to ${MAX_CONCURRENCY}.`);
  checkedBody(PastDueSelection, { customer_id: options.customer, only: options.only }, selectionFlag);
  if (options.journal !== undefined) await checkNotDirectory(options.journal, '--journal');
  if (options.report !== undefined) await checkWritable(options.report);
  if (options.resume !== undefined) return resume(options, f);
  requireBatchYes(options, f);
  return start(options, f);
}

/** This charges cards: without --yes someone must say so, and a script is told before any request. */
function requireBatchYes(options: RetryPastDueOptions, f: Factory): void {
  if (!options.dryRun) requireYes(f.io, options.yes, 'retrying past_due subscriptions charges their cards', ', or see the batch first with --dry-run');
}

/** A new batch: every past_due subscription selected, each with the rule's decision. */
async function start(options: RetryPastDueOptions, f: Factory): Promise<BatchReport | undefined> {
  const client = await f.client();
  const { batchJournalDir } = await import('../../../config/paths.js');
  const { batchDecision, findPastDue } = await import('../../../operator/past-due.js');
  const engine = await import('../../../operator/retry-batch.js');
  const dir = batchJournalDir(f.configDir);

  const { data: items } = await f.io.spin('Finding past_due subscriptions…', () => findPastDue(client, { customer: options.customer, only: options.only }));
  // A dry run's output is the list, empty or not.
  if (items.length === 0 && !options.dryRun) {
    f.io.info(`No past_due subscriptions${options.customer ? ` for ${options.customer}` : ''}: nothing to retry.`);
    if (options.report !== undefined) await writeReport(options.report, { items: [], results: [] }, f);
    if (f.io.json) f.io.printJSON(batchJson());
    return undefined;
  }
  const rows: PastDueRow[] = items.map((item) => ({ ...item, ...batchDecision(item, { includeUnchanged: options.includeUnchanged }) }));
  // One another process runs is not cut short: it will finish there.
  const unfinished = (await listBatches(dir, f)).find((b) => b.account === client.account && b.done < b.items && b.running === null);
  if (unfinished) f.io.warn(`Batch ${unfinished.batch_id} was cut short with ${plural(unfinished.items - unfinished.done, 'subscription')} left; continue it with --resume ${unfinished.batch_id}.`);

  if (options.dryRun) {
    dryRun(rows, f);
    return undefined;
  }
  if (!options.yes) await confirm(rows, f);
  const batch = await engine
    .createBatch({
      dir,
      path: options.journal,
      account: client.account,
      base_url: client.baseUrl,
      selection: { customer_id: options.customer ?? null, only: options.only ?? null, include_unchanged: options.includeUnchanged },
      items,
    })
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw new UsageError(`Journal ${options.journal} already exists: continue its batch with --resume --journal ${options.journal}, or name a new file.`);
      throw error;
    });
  return runBatch(batch, options, f);
}

/** Continues a batch from its journal, under its lock; a finished one is only reported. */
async function resume(options: RetryPastDueOptions, f: Factory): Promise<BatchReport | undefined> {
  const client = await f.client();
  const engine = await import('../../../operator/retry-batch.js');
  const path = await batchToResume(options, client.account, f);
  if (path === undefined) {
    if (options.dryRun) dryRun([], f);
    else if (f.io.json) f.io.printJSON(batchJson());
    return undefined;
  }
  const { JournalError, readJournal } = await import('../../../operator/journal.js');
  const state = await readJournal(path).catch((error: unknown) => {
    if (error instanceof JournalError) throw new UsageError(`Invalid ${options.journal === undefined ? '--resume' : '--journal'}: ${error.message}`);
    throw error;
  });
  if (state.header.account !== client.account) {
    throw new UsageError(`Batch ${state.header.batch_id} was started for account ${state.header.account}, not ${client.account}: use the profile it was started with.`);
  }
  if (state.results.size === state.header.items.length) {
    f.io.info(`Batch ${state.header.batch_id} is already finished: nothing to resume. Its record, as it ended:`);
    return finish(engine.reportOf(state, path), options, f);
  }
  if (options.dryRun) {
    const { batchDecision } = await import('../../../operator/past-due.js');
    const rule = { includeUnchanged: state.header.selection.include_unchanged };
    dryRun(state.header.items.filter((item) => !state.results.has(item.subscription_id)).map((item) => ({ ...item, ...batchDecision(item, rule) })), f);
    return undefined;
  }
  requireBatchYes(options, f);
  const batch = await engine.openBatch(path);
  try {
    const { header, results, keys } = batch.state;
    const left = header.items.filter((item) => !results.has(item.subscription_id));
    if (Date.now() - Date.parse(header.created) > DAY_MS) {
      f.io.warn(`Batch ${header.batch_id} started over 24 h ago: the service may no longer replay its first answers, so a retry that was in flight takes the attempt its subscription shows since as its result; none is charged twice.`);
    }
    f.io.info(`Resuming batch ${header.batch_id}: ${left.length} of ${plural(header.items.length, 'subscription')} left, ${keys.size - [...keys.keys()].filter((id) => results.has(id)).length} of them sent before and replayed with their keys.`);
    if (!options.yes) {
      const { batchDecision } = await import('../../../operator/past-due.js');
      await confirm(left.map((item) => ({ ...item, ...batchDecision(item, { includeUnchanged: header.selection.include_unchanged }) })), f);
    }
  } catch (error) {
    await batch.journal.close();
    throw error;
  }
  return runBatch(batch, options, f);
}

/** The journal to resume; undefined (said so) when there is nothing to resume. */
async function batchToResume(options: RetryPastDueOptions, account: string, f: Factory): Promise<string | undefined> {
  const { batchJournalDir } = await import('../../../config/paths.js');
  const { journalFile } = await import('../../../operator/retry-batch.js');
  const dir = batchJournalDir(f.configDir);
  if (typeof options.resume === 'string' && !/^batch_\w+$/.test(options.resume)) throw new UsageError(`Invalid --resume: '${options.resume}' is not a batch id (batch_…).`);
  const named = options.journal ?? (typeof options.resume === 'string' ? journalFile(dir, options.resume) : undefined);
  if (named !== undefined) {
    if (!existsSync(named)) throw new UsageError(`No batch journal at ${named}.`);
    return named;
  }
  const batches = (await listBatches(dir, f)).filter((b) => b.account === account);
  // The latest no one runs; else the latest running, whose lock then names its process (exit 5).
  const unfinished = batches.find((b) => b.done < b.items && b.running === null) ?? batches.find((b) => b.done < b.items);
  if (!unfinished) {
    f.io.info(`Nothing to resume: no unfinished batch for account ${account} in ${dir}${batches[0] ? ` (the latest, ${batches[0].batch_id}, is finished)` : ''}.`);
    return undefined;
  }
  f.io.info(`Latest unfinished batch: ${unfinished.batch_id} (${unfinished.created}).`);
  return unfinished.path;
}

/** The batches of the config dir; one whose journal cannot be read is named on stderr, never silently missing. */
async function listBatches(dir: string, f: Factory): Promise<BatchSummary[]> {
  const { listBatches } = await import('../../../operator/retry-batch.js');
  return listBatches(dir, (problem) => f.io.warn(`${problem} It is left as it is; its batch cannot be resumed until the file is repaired.`));
}

async function runBatch(batch: OpenBatch, options: RetryPastDueOptions, f: Factory): Promise<BatchReport> {
  const engine = await import('../../../operator/retry-batch.js');
  const { batchJournalDir } = await import('../../../config/paths.js');
  const { header, results } = batch.state;
  const toRetry = header.items.length - results.size;
  f.io.info(`Batch ${header.batch_id}: ${plural(toRetry, 'subscription')}, up to ${Math.min(options.concurrency, toRetry)} at a time. Journal: ${batch.journal.path}`);
  const progress = new Progress(header.items.length, [...results.values()], f);

  // Ctrl-C: no new retries; those in flight finish and are journaled, then exit 130.
  const abort = new AbortController();
  void f.io.untilStopped().then(() => {
    if (abort.signal.aborted) return;
    progress.say(() => f.io.warn('Stopping after the retries in flight (Ctrl-C again quits at once; the journal is safe either way)…'));
    abort.abort();
  });
  const waitedFor = new Set<number>();
  let report: BatchReport;
  try {
    report = await engine.runRetryBatch({
      client: await f.client(),
      batch,
      concurrency: options.concurrency,
      signal: abort.signal,
      // Every batch of this config dir, whatever its --journal: two at once take a subscription in turn.
      claims: batchJournalDir(f.configDir),
      onWaiting: (id, pid) => {
        // Once a batch: two overlapping batches meet on every item they share.
        if (waitedFor.has(pid)) return;
        waitedFor.add(pid);
        progress.say(() => f.io.info(`Another batch (process ${pid}) is retrying ${id}, and maybe more of these: each is taken in turn, and decided on what the other's attempt left.`));
      },
      onResult: (r) => progress.result(r),
      onRateLimited: (n) => progress.say(() => f.io.warn(`The service is rate limiting: going on with ${n} at a time.`)),
    });
  } finally {
    abort.abort();
    await batch.journal.close();
  }
  return finish(report, options, f);
}

/**
 * Progress on stderr: at a terminal one bar, redrawn in place; in scripts a line each
 * PROGRESS_EVERY items and at the end.
 */
class Progress {
  private done: number;
  private readonly counts = { succeeded: 0, failed: 0, skipped: 0 };
  private drawn = false;
  private shown = -1;

  constructor(
    private readonly total: number,
    before: ItemResult[],
    private readonly f: Factory,
  ) {
    this.done = before.length;
    for (const r of before) this.counts[r.outcome]++;
  }

  result(r: ItemResult): void {
    this.done++;
    this.counts[r.outcome]++;
    const { succeeded, failed, skipped } = this.counts;
    const counts = `${succeeded} succeeded, ${failed} failed, ${skipped} skipped`;
    if (!this.f.io.isStderrTTY) {
      if (this.done % PROGRESS_EVERY === 0 || this.done === this.total) this.f.io.info(`Progress: ${this.done} of ${this.total} done (${counts}).`);
      return;
    }
    const percent = Math.floor((this.done * 100) / this.total);
    if (percent === this.shown && this.done < this.total) return;
    this.shown = percent;
    const width = 30;
    const full = Math.floor((this.done * width) / this.total);
    // Up one line and clear it: the bar is redrawn where it was.
    const redraw = this.drawn ? '\x1b[1A\x1b[2K' : '';
    this.f.io.info(`${redraw}[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${this.done}/${this.total}  ${counts}`);
    this.drawn = true;
  }

  /** A message between bars: the next bar is drawn below it. */
  say(message: () => void): void {
    message();
    this.drawn = false;
  }
}

function dryRun(rows: PastDueRow[], f: Factory): void {
  f.io.printList(rows, pastDueColumns);
  const retried = rows.filter((r) => r.retry);
  const skipped = skipText(rows);
  f.io.info(`Dry run: ${retried.length} of ${plural(rows.length, 'subscription')} would be retried (${totalText(retried)})${skipped && `; ${skipped}`}. Nothing was charged.`);
}

/** `3 skipped (2 unchanged_soft_decline, 1 unchanged_hard_decline)`, or nothing. */
function skipText(rows: PastDueRow[]): string {
  const reasons = new Map<string, number>();
  for (const r of rows) if (r.skip_reason !== null) reasons.set(r.skip_reason, (reasons.get(r.skip_reason) ?? 0) + 1);
  const skipped = rows.length - rows.filter((r) => r.retry).length;
  return skipped === 0 ? '' : `${skipped} skipped (${[...reasons].map(([reason, n]) => `${n} ${reason}`).join(', ')})`;
}

async function confirm(rows: PastDueRow[], f: Factory): Promise<void> {
  const retried = rows.filter((r) => r.retry);
  if (retried.length === 0) return;
  const shown = 20;
  for (const item of retried.slice(0, shown)) {
    f.io.info(`  ${item.subscription_id}  ${item.customer_id}  ${formatAmount(item.amount, item.currency)}  ${item.decline_code ?? item.status}`);
  }
  if (retried.length > shown) f.io.info(`  … and ${retried.length - shown} more (see them with --dry-run)`);
  const skipped = skipText(rows);
  if (skipped) f.io.info(`${skipped}: not charged.`);
  await confirmed(f.io, false, `Retry ${retried.length === 1 ? 'this subscription' : `these ${retried.length} subscriptions`}, charging up to ${totalText(retried)}?`, 'Nothing was charged.');
}

const resultColumns: Column<ItemResult>[] = [
  { header: 'SUBSCRIPTION', value: (r) => r.subscription_id },
  { header: 'CUSTOMER', value: (r) => r.customer_id },
  { header: 'AMOUNT', value: (r) => formatAmount(r.amount, r.currency) },
  { header: 'RESULT', value: (r) => r.outcome },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'DECLINE', value: (r) => r.decline_code },
  { header: 'SKIPPED BECAUSE', value: (r) => r.skip_reason },
  { header: 'PAYMENT INTENT', value: (r) => r.payment_intent_id },
  // Last: the columns before it keep their place in scripts' TSV.
  { header: 'RECEIVED', value: (r) => (r.amount_received === null ? null : `${formatAmount(r.amount_received, r.currency)}${r.partial ? ' (partial)' : ''}`) },
];

/** A batch's --json: every result so far, the counts, what is left; no batch at all when nothing was past_due. */
function batchJson(report?: BatchReport) {
  const results = report?.results ?? [];
  const count = (outcome: ItemResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  return {
    object: 'retry_batch',
    id: report?.batch_id ?? null,
    journal: report?.journal ?? null,
    status: report?.error !== undefined ? 'stopped' : report?.interrupted ? 'interrupted' : 'finished',
    // partial: of the succeeded, those a partial authorization paid only part of.
    counts: { succeeded: count('succeeded'), partial: results.filter((r) => r.partial).length, failed: count('failed'), skipped: count('skipped'), remaining: report?.remaining.length ?? 0 },
    items: results,
    remaining: report?.remaining.map((item) => item.subscription_id) ?? [],
  };
}

/** The summary (table, TSV or JSON), the --report file, then the exit: 0, 8 some failed, 130 interrupted, or what stopped it. */
async function finish(report: BatchReport, options: RetryPastDueOptions, f: Factory): Promise<BatchReport> {
  const json = batchJson(report);
  const { counts } = json;
  f.io.printList(report.results, resultColumns, json);
  if (options.report !== undefined) await writeReport(options.report, report, f);
  f.io.info(`Batch ${report.batch_id}: ${counts.succeeded} succeeded, ${counts.failed} failed, ${counts.skipped} skipped${counts.remaining ? `, ${counts.remaining} not done` : ''}.`);
  const partial = report.results.filter((r) => r.partial);
  if (partial.length > 0) {
    const received = partial.map((r) => ({ amount: r.amount_received!, currency: r.currency }));
    const short = partial.map((r) => ({ amount: r.amount - r.amount_received!, currency: r.currency }));
    f.io.warn(`${plural(partial.length, 'partial authorization')}: ${totalText(received)} received of ${totalText(partial)}: charge the ${totalText(short)} difference in another payment.`);
  }
  const resume = `pay subscriptions retry-past-due ${await resumeArgs(report, f)}`;
  if (report.error !== undefined) {
    f.io.info(`The batch stopped; nothing in flight was lost. Continue it once the cause is fixed with: ${resume}`);
    throw report.error;
  }
  if (report.interrupted) throw new CancelError(`Interrupted: ${plural(counts.remaining, 'subscription')} not retried yet. Continue with: ${resume}`);
  if (counts.failed > 0) {
    throw new PartialError(`${counts.failed} of ${plural(report.results.length, 'subscription')} failed and are still past_due: update their payment method (pay subscriptions update ID --payment-method pm_…), then retry.`);
  }
  return report;
}

/** How to name a batch to --resume: by its id, found in the config dir's batches/; by its file when --journal put it elsewhere. */
async function resumeArgs(report: BatchReport, f: Factory): Promise<string> {
  const { batchJournalDir } = await import('../../../config/paths.js');
  const { journalFile } = await import('../../../operator/retry-batch.js');
  const { resolve } = await import('node:path');
  if (resolve(report.journal) === resolve(journalFile(batchJournalDir(f.configDir), report.batch_id))) return `--resume ${report.batch_id}`;
  // Quoted for a shell when the path needs it.
  const path = /^[\w@%+=:,./-]+$/.test(report.journal) ? report.journal : `'${report.journal.replaceAll("'", "'\\''")}'`;
  return `--resume --journal ${path}`;
}

async function writeReport(path: string, report: Pick<BatchReport, 'items' | 'results'>, f: Factory): Promise<void> {
  const { writeReport } = await import('../../../operator/report.js');
  writeReport(path, report);
  f.io.info(`Report: ${path} (${report.items.length} subscriptions).`);
}

/** A file flag naming a directory is refused before anything is charged. */
async function checkNotDirectory(path: string, flagName: string): Promise<void> {
  const { stat } = await import('node:fs/promises');
  const isDir = await stat(path).then((s) => s.isDirectory(), () => false);
  if (isDir) throw new UsageError(`Invalid ${flagName}: ${path} is a directory; name a file.`);
}

/** --report is checked before anything is charged: its directory must take a new file. */
async function checkWritable(path: string): Promise<void> {
  const { access, constants } = await import('node:fs/promises');
  const { dirname } = await import('node:path');
  await checkNotDirectory(path, '--report');
  await access(dirname(path), constants.W_OK).catch(() => {
    throw new UsageError(`Invalid --report: cannot write in ${dirname(path)} (it does not exist or is not writable).`);
  });
}
