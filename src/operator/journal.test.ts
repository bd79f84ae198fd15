import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BatchHeader, type ItemResult, Journal, JournalError, lockFile, parseJournal, readJournal } from './journal.js';
import type { PastDueSubscription } from './past-due.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pay-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const item = (n: number): PastDueSubscription => ({
  subscription_id: `sub_${n}`,
  customer_id: `cus_${n}`,
  payment_method_id: `pm_${n}`,
  status: 'past_due',
  amount: 1500,
  currency: 'usd',
  past_due_since: '2030-01-16T00:00:00Z',
  payment_intent_id: `pi_${n}`,
  payment_intent_status: 'requires_payment_method',
  paid_directly_intent_id: null,
  decline_code: 'card_declined',
  decline_message: 'Your card was declined.',
  decline_type: 'soft',
  failed_payment_method_id: `pm_old${n}`,
  payment_method_changed: true,
});

const header: BatchHeader = {
  type: 'batch',
  version: 2,
  batch_id: 'batch_test',
  created: '2030-01-16T00:00:00.000Z',
  account: 'acct_1',
  base_url: 'http://127.0.0.1:1',
  selection: { customer_id: null, only: null, include_unchanged: false },
  items: [item(1), item(2), item(3)],
};

const result = (n: number, outcome: ItemResult['outcome'] = 'succeeded'): ItemResult => ({
  subscription_id: `sub_${n}`,
  customer_id: `cus_${n}`,
  amount: 1500,
  currency: 'usd',
  outcome,
  status: outcome === 'failed' ? 'past_due' : 'active',
  decline_code: outcome === 'failed' ? 'card_declined' : null,
  skip_reason: null,
  message: null,
  payment_intent_id: `pi_new${n}`,
  idempotency_key: `key-${n}`,
  amount_received: outcome === 'succeeded' ? 1500 : null,
  partial: false,
});

describe('Journal', () => {
  it('appends the header, started keys and results as whole lines, in a 0600 file it never overwrites', async () => {
    const path = join(dir, 'batches', 'b.jsonl');
    const journal = await Journal.create(path, header);
    await journal.started('sub_1', 'key-1', 'pi_old1');
    await journal.started('sub_2', 'key-2', null);
    await journal.result(result(1));
    await journal.close();

    expect(statSync(path).mode & 0o777).toBe(0o600);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l).type)).toEqual(['batch', 'started', 'started', 'result']);

    const state = await readJournal(path);
    expect(state.header).toEqual(header);
    expect([...state.keys]).toEqual([['sub_1', 'key-1'], ['sub_2', 'key-2']]);
    expect([...state.latestBefore]).toEqual([['sub_1', 'pi_old1'], ['sub_2', null]]);
    expect([...state.results]).toEqual([['sub_1', result(1)]]);
    await expect(Journal.create(path, header)).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('keeps concurrent appends whole and in the order they were made', async () => {
    const path = join(dir, 'b.jsonl');
    const journal = await Journal.create(path, header);
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.started(`sub_${i}`, `key-${i}`, null)));
    await journal.close();
    const state = await readJournal(path);
    expect([...state.keys.values()]).toEqual(Array.from({ length: 50 }, (_, i) => `key-${i}`));
  });

  it('ignores a torn last line, and cuts it off before appending when the batch resumes', async () => {
    const path = join(dir, 'b.jsonl');
    const journal = await Journal.create(path, header);
    await journal.started('sub_1', 'key-1', 'pi_old1');
    await journal.result(result(1));
    await journal.started('sub_2', 'key-2', null);
    await journal.close();
    // A crash in the middle of writing sub_2's result.
    const whole = readFileSync(path, 'utf8');
    appendFileSync(path, JSON.stringify({ type: 'result', ...result(2) }).slice(0, 40));

    const torn = await readJournal(path);
    expect(torn.keys.get('sub_2')).toBe('key-2');
    expect(torn.results.has('sub_2')).toBe(false);
    expect(torn.wholeLength).toBe(Buffer.byteLength(whole));

    const resumed = await Journal.resume(path);
    expect(resumed.state.keys.get('sub_2')).toBe('key-2');
    expect(readFileSync(path, 'utf8')).toBe(whole);
    await resumed.journal.result(result(2, 'failed'));
    await resumed.journal.close();
    const after = await readJournal(path);
    expect(after.results.get('sub_2')).toEqual(result(2, 'failed'));
    expect(after.wholeLength).toBe(statSync(path).size);
  });

  it('treats a complete last record without its newline as torn: it was never acted on', () => {
    const text = `${JSON.stringify(header)}\n${JSON.stringify({ type: 'started', subscription_id: 'sub_1', idempotency_key: 'key-1', at: 'x' })}`;
    expect(parseJournal(text, 'j').keys.size).toBe(0);
  });

  it('reads a result of an earlier version, without what it received, as unknown (null) and not partial', () => {
    const { amount_received: _received, partial: _partial, ...earlier } = result(1);
    const text = `${JSON.stringify(header)}\n${JSON.stringify({ type: 'result', ...earlier, at: 'x' })}\n`;
    expect(parseJournal(text, 'j').results.get('sub_1')).toEqual({ ...earlier, amount_received: null, partial: false });
  });

  it('reads the items of an earlier version\'s batch, without their intent\'s status nor a directly paid intent, as unknown (null)', () => {
    const earlier = header.items.map(({ payment_intent_status: _status, paid_directly_intent_id: _paid, ...rest }) => rest);
    const text = `${JSON.stringify({ ...header, items: earlier })}\n`;
    expect(parseJournal(text, 'j').header.items).toEqual(earlier.map((i) => ({ ...i, payment_intent_status: null, paid_directly_intent_id: null })));
  });

  it('keeps the first key of an item: the one whose request may have been sent', () => {
    const started = (key: string) => JSON.stringify({ type: 'started', subscription_id: 'sub_1', idempotency_key: key, at: 'x' });
    const text = `${JSON.stringify(header)}\n${started('first')}\n${started('second')}\n`;
    expect(parseJournal(text, 'j').keys.get('sub_1')).toBe('first');
  });

  it('is locked while open: a second resume is refused naming this process, and may go on once it is closed', async () => {
    const path = join(dir, 'b.jsonl');
    const journal = await Journal.create(path, header);
    await expect(Journal.resume(path)).rejects.toMatchObject({ name: 'LockedError', pid: process.pid });
    await journal.close();
    const resumed = await Journal.resume(path);
    await expect(Journal.resume(path)).rejects.toMatchObject({ name: 'LockedError', pid: process.pid });
    await resumed.journal.close();
    expect(existsSync(lockFile(path))).toBe(false);
  });

  it('closes its file and releases its lock when the header cannot be written', async () => {
    const path = join(dir, 'b.jsonl');
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    // A header that cannot be serialised: the first append throws.
    await expect(Journal.create(path, { ...header, created: 1n } as unknown as BatchHeader)).rejects.toThrow(TypeError);
    expect(open()).toBe(before);
    expect(existsSync(lockFile(path))).toBe(false);
  });

  it('refuses a damaged line before the last, naming it, and a file with no batch line', () => {
    const text = `${JSON.stringify(header)}\n{"type":"started","subscr\n${JSON.stringify({ type: 'result', ...result(1), at: 'x' })}\n`;
    expect(() => parseJournal(text, 'j.jsonl')).toThrow(new JournalError('j.jsonl line 2 is not JSON: the journal is damaged.'));
    expect(() => parseJournal(`${JSON.stringify({ type: 'nonsense' })}\n`, 'j')).toThrow(/line 1 is not a journal record/);
    expect(() => parseJournal('{"type":"batch"', 'j')).toThrow(/no complete first line/);
    const path = join(dir, 'empty.jsonl');
    writeFileSync(path, '');
    return expect(Journal.resume(path)).rejects.toThrow(JournalError);
  });
});
