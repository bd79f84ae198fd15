import { existsSync } from 'node:fs';
import { type Command, Option } from 'commander';
import type { ItemResult } from '../../../operator/journal.js';
import type { PastDueSubscription } from '../../../operator/past-due.js';
import type { BatchReport, OpenBatch } from '../../../operator/retry-batch.js';
import { CancelError, PartialError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkedBody, intArg, listArg, withExamples } from '../../flags.js';
import type { Column } from '../../io/io.js';
import { PastDueSelection, pastDueColumns, selectionFlag, totalText } from './view.js';

export interface RetryPastDueOptions {
  customer?: string | undefined;
  only?: string[] | undefined;
  dryRun: boolean;
  concurrency: number;
  /** Journal file: where a new batch is written, or the batch to resume. */
  journal?: string | undefined;
  /** Continue a batch: its id, or true for this account's latest unfinished one. */
  resume?: string | true | undefined;
  yes: boolean;
}

const MAX_CONCURRENCY = 16;
const DAY_MS = 24 * 60 * 60 * 1000;

export function define(noun: Command, f: Factory): void {
  const command = noun
    .command('retry-past-due')
    .description('Retry every past_due subscription (or some) once, as one crash-safe batch: journaled, resumable, never charged twice')
    .addOption(new Option('--customer <id>', 'Only this customer\'s past_due subscriptions (cus_…)').conflicts(['only', 'resume']))
    .addOption(new Option('--only <ids>', 'Exactly these subscriptions (sub_…, comma-separated or repeated); those not past_due are skipped').argParser(listArg).conflicts('resume'))
    .option('--dry-run', 'Show the batch and charge nothing', false)
    .option('--concurrency <n>', `Retries at once, 1 to ${MAX_CONCURRENCY}`, intArg, 4)
    .option('--journal <file>', 'Journal file of the batch (default: a new file under the config dir\'s batches/)')
    .option('--resume [batch]', 'Continue an interrupted batch (default: this account\'s latest unfinished one): started items are replayed with their original idempotency keys')
    .option('-y, --yes', 'Run without asking (required when no one can be asked: scripts, --no-input)', false)
    .action(async (flags: Omit<RetryPastDueOptions, 'resume'> & { resume?: string | true }) => {
      await run(flags, f);
    });
  withExamples(
    command,
    'pay subscriptions retry-past-due --dry-run',
    'pay subscriptions retry-past-due                      # at a TTY: shows the batch, asks, then retries',
    'pay subscriptions retry-past-due --customer cus_123 --yes',
    'pay subscriptions retry-past-due --only sub_1,sub_2 --yes --json',
    'pay subscriptions retry-past-due --resume --yes        # after a crash or Ctrl-C',
  );
  command.addHelpText('after', `
Each retry is POST /v1/subscriptions/{id}/retry with an idempotency key written to the
journal (fsync'd) before the request is sent. A batch cut short (crash, Ctrl-C, service
unreachable) continues with --resume: items already sent are sent again with their
original key, so the service answers what it answered the first time and charges
nothing twice. Subscriptions no longer past_due when their turn comes are skipped.
Exit 0 when every item succeeded or was skipped, 8 when some failed, 130 on Ctrl-C.
`);
}

export async function run(options: RetryPastDueOptions, f: Factory): Promise<BatchReport | undefined> {
  if (options.concurrency < 1 || options.concurrency > MAX_CONCURRENCY) throw new UsageError(`Invalid --concurrency: must be from 1 to ${MAX_CONCURRENCY}.`);
  checkedBody(PastDueSelection, { customer_id: options.customer, only: options.only }, selectionFlag);
  // This charges cards: without --yes someone must say so, and a script is told before any request.
  if (!options.yes && !options.dryRun && !f.io.canPrompt) {
    throw new UsageError(`Missing --yes: retrying past_due subscriptions charges their cards, and no one can be asked to confirm${f.io.options.input ? ' (no TTY)' : ' (--no-input)'}. Add --yes, or see the batch first with --dry-run.`);
  }
  const client = await f.client();
  const { batchJournalDir } = await import('../../../config/paths.js');
  const engine = await import('../../../operator/retry-batch.js');
  const dir = batchJournalDir(f.configDir);

  let items: PastDueSubscription[];
  let resumePath: string | undefined;
  if (options.resume !== undefined) {
    resumePath = await batchToResume(options, dir, client.account, f);
    const { readJournal } = await import('../../../operator/journal.js');
    const state = await readJournal(resumePath);
    if (state.header.account !== client.account) {
      throw new UsageError(`Batch ${state.header.batch_id} was started for account ${state.header.account}, not ${client.account}: use the profile it was started with.`);
    }
    if (Date.now() - Date.parse(state.header.created) > DAY_MS) {
      f.io.warn(`Batch ${state.header.batch_id} started over 24 h ago: the service may no longer replay its first answers, so items it already charged will show as skipped (they are not past_due any more), never charged twice.`);
    }
    items = state.header.items.filter((item) => !state.results.has(item.subscription_id));
    if (items.length === 0) {
      f.io.info(`Batch ${state.header.batch_id} is already finished.`);
      const finished = await engine.openBatch(resumePath);
      await finished.journal.close();
      return finish(engine.reportOf(finished), f);
    }
    f.io.info(`Resuming batch ${state.header.batch_id}: ${items.length} of ${state.header.items.length} subscriptions left, ${state.keys.size - state.results.size} of them sent before and replayed with their keys.`);
  } else {
    const { findPastDue } = await import('../../../operator/past-due.js');
    ({ data: items } = await f.io.spin('Finding past_due subscriptions…', () => findPastDue(client, { customer: options.customer, only: options.only })));
    if (items.length === 0) {
      f.io.info(`No past_due subscriptions${options.customer ? ` for ${options.customer}` : ''}: nothing to retry.`);
      if (f.io.json) f.io.printJSON(batchJson());
      return undefined;
    }
    const unfinished = (await engine.listBatches(dir)).find((b) => b.account === client.account && b.done < b.items);
    if (unfinished) f.io.warn(`Batch ${unfinished.batch_id} was cut short with ${unfinished.items - unfinished.done} subscriptions left; continue it with --resume ${unfinished.batch_id}.`);
  }

  if (options.dryRun) {
    f.io.printList(items, pastDueColumns, { object: 'list', data: items, has_more: false });
    f.io.info(`Dry run: ${items.length} subscriptions would be retried (${totalText(items)}). Nothing was charged.`);
    return undefined;
  }
  if (!options.yes) await confirm(items, f);

  const batch: OpenBatch = resumePath
    ? await engine.openBatch(resumePath)
    : await engine.createBatch({
        dir,
        path: options.journal,
        account: client.account,
        base_url: client.baseUrl,
        selection: { customer_id: options.customer ?? null, only: options.only ?? null },
        items,
      }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw new UsageError(`Journal ${options.journal} already exists: continue its batch with --resume --journal ${options.journal}, or name a new file.`);
        throw error;
      });
  f.io.info(`Batch ${batch.state.header.batch_id}: retrying ${items.length} subscriptions, up to ${Math.min(options.concurrency, items.length)} at a time. Journal: ${batch.journal.path}`);

  // Ctrl-C: no new retries; those in flight finish and are journaled, then exit 130.
  const abort = new AbortController();
  void f.io.untilStopped().then(() => {
    if (abort.signal.aborted) return;
    f.io.warn('Stopping after the retries in flight (Ctrl-C again quits at once; the journal is safe either way)…');
    abort.abort();
  });
  let report: BatchReport;
  try {
    report = await engine.runRetryBatch({ client, batch, concurrency: options.concurrency, signal: abort.signal, onResult: (r) => progress(r, f) });
  } finally {
    abort.abort();
    await batch.journal.close();
  }
  return finish(report, f);
}

async function batchToResume(options: RetryPastDueOptions, dir: string, account: string, f: Factory): Promise<string> {
  const { journalFile, listBatches } = await import('../../../operator/retry-batch.js');
  const named = options.journal ?? (typeof options.resume === 'string' ? journalFile(dir, options.resume) : undefined);
  if (typeof options.resume === 'string' && !/^batch_\w+$/.test(options.resume)) throw new UsageError(`Invalid --resume: '${options.resume}' is not a batch id (batch_…).`);
  if (named !== undefined) {
    if (!existsSync(named)) throw new UsageError(`No batch journal at ${named}.`);
    return named;
  }
  const batches = (await listBatches(dir)).filter((b) => b.account === account);
  const unfinished = batches.find((b) => b.done < b.items);
  if (!unfinished) throw new UsageError(`No unfinished batch for account ${account} in ${dir}${batches[0] ? ` (the latest, ${batches[0].batch_id}, is finished)` : ''}.`);
  f.io.info(`Latest unfinished batch: ${unfinished.batch_id} (${unfinished.created}).`);
  return unfinished.path;
}

async function confirm(items: PastDueSubscription[], f: Factory): Promise<void> {
  const shown = 20;
  for (const item of items.slice(0, shown)) {
    f.io.info(`  ${item.subscription_id}  ${item.customer_id}  ${item.amount} ${item.currency}  ${item.failure_code ?? item.status}`);
  }
  if (items.length > shown) f.io.info(`  … and ${items.length - shown} more (see them with --dry-run)`);
  const due = items.filter((item) => item.status === 'past_due');
  const others = items.length - due.length;
  const skipped = others > 0 ? ` (${others} not past_due now, to be skipped)` : '';
  if (!(await f.io.confirm(`Retry these ${items.length} subscriptions${skipped}, charging up to ${totalText(due)}?`, false))) {
    throw new CancelError('Nothing was charged.');
  }
}

function progress(r: ItemResult, f: Factory): void {
  if (r.outcome === 'succeeded') f.io.success(`${r.subscription_id} ${r.status} (${r.amount} ${r.currency}${r.payment_intent_id ? `, ${r.payment_intent_id}` : ''})`);
  else if (r.outcome === 'failed') f.io.error(`${r.subscription_id} ${r.status ?? 'not retried'}: ${r.reason}`);
  else f.io.info(`- ${r.subscription_id} skipped: ${r.reason}`);
}

const resultColumns: Column<ItemResult>[] = [
  { header: 'SUBSCRIPTION', value: (r) => r.subscription_id },
  { header: 'CUSTOMER', value: (r) => r.customer_id },
  { header: 'AMOUNT', value: (r) => `${r.amount} ${r.currency}` },
  { header: 'RESULT', value: (r) => r.outcome },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'REASON', value: (r) => r.reason },
  { header: 'PAYMENT INTENT', value: (r) => r.payment_intent_id },
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
    counts: { succeeded: count('succeeded'), failed: count('failed'), skipped: count('skipped'), remaining: report?.remaining.length ?? 0 },
    items: results,
    remaining: report?.remaining.map((item) => item.subscription_id) ?? [],
  };
}

/** The summary (table, TSV or JSON), then the exit: 0, 8 some failed, 130 interrupted, or what stopped it. */
function finish(report: BatchReport, f: Factory): BatchReport {
  const json = batchJson(report);
  const { counts } = json;
  f.io.printList(report.results, resultColumns, json);
  f.io.info(`Batch ${report.batch_id}: ${counts.succeeded} succeeded, ${counts.failed} failed, ${counts.skipped} skipped${counts.remaining ? `, ${counts.remaining} not done` : ''}.`);
  const resume = `pay subscriptions retry-past-due --resume ${report.batch_id}`;
  if (report.error !== undefined) {
    f.io.info(`The batch stopped; nothing in flight was lost. Continue it once the cause is fixed with: ${resume}`);
    throw report.error;
  }
  if (report.interrupted) throw new CancelError(`Interrupted: ${counts.remaining} subscriptions not retried yet. Continue with: ${resume}`);
  if (counts.failed > 0) {
    throw new PartialError(`${counts.failed} of ${report.results.length} subscriptions failed and are still past_due: update their payment method (pay subscriptions update ID --payment-method pm_…), then retry.`);
  }
  return report;
}
