import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../../../test/support/cli.js';
import { subscriptionHelpers } from '../../../../test/support/subscriptions.js';
import { Client } from '../../../client/client.js';
import { batchJournalDir } from '../../../config/paths.js';
import { type BatchHeader, Journal } from '../../../operator/journal.js';
import { findPastDue, type PastDueSubscription } from '../../../operator/past-due.js';
import { journalFile } from '../../../operator/retry-batch.js';

// retry-past-due in-process: what its output says when there is nothing, or when another
// process runs a batch. Crashes, signals and TTYs are in test/e2e/operator.test.ts.

const DECLINED = '4000000000000002';

const sb = cliSandbox({ clock: '2030-01-15T00:00:00Z' });

const header = (batch_id: string, created: string, items: PastDueSubscription[]): BatchHeader => ({
  type: 'batch', version: 2, batch_id, created, account: sb.account, base_url: sb.baseUrl, selection: { customer_id: null, only: null, include_unchanged: false }, items,
});

const { ok, card, create } = subscriptionHelpers(sb);

/** Subscriptions past_due on a declined card, each given a new card since, and their past-due items as a batch selects them. */
async function pastDueWithNewCards(count = 1) {
  const subs = [];
  for (let i = 0; i < count; i++) subs.push(await create(1, ['--yes'], DECLINED));
  await sb.json(['sandbox', 'clock', 'advance', '--days', '1']);
  for (const sub of subs) await ok('POST', `/v1/subscriptions/${sub.id}`, { payment_method_id: await card(sub.customer_id) });
  const client = new Client({ baseUrl: sb.baseUrl, account: sb.account, apiKey: sb.apiKey, headerPrefix: 'pay', retries: 0 });
  const { data } = await findPastDue(client, { only: subs.map((sub) => sub.id) });
  await client.close();
  return { subs, data };
}

describe('pay subscriptions retry-past-due --dry-run', () => {
  it('with nothing past_due, --json is the past-due list (empty), as with some', async () => {
    const dry = await sb.pay(['subscriptions', 'retry-past-due', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ object: 'list', data: [], has_more: false });
    const resumed = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--dry-run', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual({ object: 'list', data: [], has_more: false });
  });
});

describe('pay subscriptions retry-past-due --journal', () => {
  it('refuses a directory, and a file that is not a journal, naming the flag (exit 2)', async () => {
    const damaged = join(sb.configDir, 'damaged.jsonl');
    writeFileSync(damaged, '{not json\n');
    for (const args of [['--journal', sb.configDir, '--yes'], ['--resume', '--journal', sb.configDir, '--yes'], ['--resume', '--journal', damaged, '--yes']]) {
      const run = await sb.pay(['subscriptions', 'retry-past-due', ...args]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/^✗ Invalid --journal: /);
    }
  });
});

describe('pay subscriptions retry-past-due while another process runs a batch', () => {
  it('calls only a batch no one runs cut short, and --resume takes that one, not the running one', async () => {
    const { data } = await pastDueWithNewCards(2);
    const dir = batchJournalDir(sb.configDir);
    // Cut short an hour ago (its process is gone); a newer one still runs (its lock is held, here by this process).
    const cut = 'batch_20300116T000000Z_cutcut';
    await (await Journal.create(journalFile(dir, cut), header(cut, new Date(Date.now() - 3_600_000).toISOString(), [data[0]!]))).close();
    const running = 'batch_20300116T000000Z_runrun';
    const held = await Journal.create(journalFile(dir, running), header(running, new Date().toISOString(), [data[1]!]));
    try {
      const dry = await sb.pay(['subscriptions', 'retry-past-due', '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stderr).toContain(`Batch ${cut} was cut short`);
      expect(dry.stderr).not.toContain(`Batch ${running} was cut short`);

      const resumed = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--yes', '--json']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ id: cut, counts: { succeeded: 1, remaining: 0 } });
    } finally {
      await held.close();
    }
  });
});

describe('pay subscriptions retry-past-due with damaged journals among the batches', () => {
  it('names each damaged journal and what is wrong on stderr, leaves it as it is, and goes on with the others (exit 0, --json data only on stdout)', async () => {
    const { subs: [sub], data } = await pastDueWithNewCards();
    const dir = batchJournalDir(sb.configDir);
    // The newest batch: the one --resume takes.
    const good = 'batch_20300117T000000Z_goodgd';
    await (await Journal.create(journalFile(dir, good), header(good, new Date(Date.now() + 60_000).toISOString(), data))).close();
    // A line damaged in the middle (not a torn last line, which a resume cuts off), and a header torn by a crash.
    const damaged = journalFile(dir, 'batch_20300117T000000Z_damagd');
    const started = { type: 'started', subscription_id: sub.id, idempotency_key: 'k1', payment_intent_id: null, at: new Date().toISOString() };
    writeFileSync(damaged, `${JSON.stringify(header('batch_20300117T000000Z_damagd', new Date().toISOString(), data))}\n${JSON.stringify(started)}\n{"type":"resu\n`);
    const torn = journalFile(dir, 'batch_20300117T000000Z_torntn');
    writeFileSync(torn, '{"type":"batch","vers');
    const said = (stderr: string) => {
      expect(stderr).toContain(`${damaged} line 3 is not JSON: the journal is damaged. It is left as it is`);
      expect(stderr).toContain(`${torn} is not a batch journal: it has no complete first line. It is left as it is`);
    };

    const dry = await sb.pay(['subscriptions', 'retry-past-due', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    said(dry.stderr);
    expect(JSON.parse(dry.stdout)).toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ subscription_id: sub.id })]) });

    const resumed = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--yes', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    said(resumed.stderr);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ id: good, counts: { succeeded: 1, remaining: 0 } });
    expect(readFileSync(torn, 'utf8')).toBe('{"type":"batch","vers');
  });
});

describe('pay subscriptions retry-past-due --journal FILE cut short', () => {
  it('names the command that continues it, with its journal: that command resumes it', async () => {
    const { subs: [sub], data } = await pastDueWithNewCards();
    const path = join(sb.configDir, 'ticket-123.jsonl');
    const id = 'batch_20300116T000000Z_ticket';
    await (await Journal.create(path, header(id, new Date().toISOString(), data))).close();
    // The service unreachable as the batch runs: it stops, and says how to continue.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = await sb.pay(['subscriptions', 'retry-past-due', '--resume', '--journal', path, '--yes'], {
      env: { PAY_BASE_URL: `http://127.0.0.1:${port}`, PAY_ACCOUNT: sb.account, PAY_API_KEY: sb.apiKey },
    });
    expect(down.code, down.stderr).toBe(7);
    const command = /Continue it once the cause is fixed with: pay (.+)$/m.exec(down.stderr)?.[1];
    expect(command, down.stderr).toBe(`subscriptions retry-past-due --resume --journal ${path}`);
    const resumed = await sb.pay([...command!.split(' '), '--yes', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ id, status: 'finished', counts: { failed: 0, remaining: 0 } });
    expect(JSON.parse(resumed.stdout).items).toContainEqual(expect.objectContaining({ subscription_id: sub.id, outcome: 'succeeded' }));
  });
});

describe('pay subscriptions retry-past-due --resume of a batch over a day old', () => {
  it('says what becomes of a retry that was in flight as it is: its attempt, found, is its result (succeeded, not skipped)', async () => {
    const { subs: [sub], data } = await pastDueWithNewCards();
    const id = 'batch_20300115T000000Z_oldold';
    const journal = await Journal.create(journalFile(batchJournalDir(sb.configDir), id), header(id, new Date(Date.now() - 2 * 24 * 3_600_000).toISOString(), data));
    // Its retry was sent and paid, then the batch was killed before the answer was journaled.
    await journal.started(sub.id, 'key-sent-two-days-ago', data[0]!.payment_intent_id);
    await journal.close();
    await ok('POST', `/v1/subscriptions/${sub.id}/retry`);
    const resumed = await sb.pay(['subscriptions', 'retry-past-due', '--resume', id, '--yes', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).items).toEqual([expect.objectContaining({ subscription_id: sub.id, outcome: 'succeeded' })]);
    const warning = resumed.stderr.split('\n').find((line) => line.includes(`Batch ${id} started over 24 h ago`));
    expect(warning, resumed.stderr).toBeDefined();
    // Not 'will show as skipped': the paid one is succeeded.
    expect(warning).not.toContain('skipped');
  });
});
