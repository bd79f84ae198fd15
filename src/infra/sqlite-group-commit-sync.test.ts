import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Sqlite } from './sqlite.js';

// The disk's timing is what this test cannot run: each fdatasync is held until the test lets it go.
const syncs = vi.hoisted(() => ({ held: [] as Array<() => void> }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, fdatasync: (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => syncs.held.push(() => fs.fdatasync(fd, callback)) };
});

let dir: string;
let file: string;
let db: Sqlite;
const nextTick = () => new Promise((resolve) => setImmediate(resolve));
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await nextTick();
}
const releaseAll = () => syncs.held.splice(0).forEach((release) => release());

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pay-db-'));
  file = join(dir, 'test.db');
  db = new Sqlite(file, { syncOffThread: true });
  db.transaction(() => db.run('CREATE TABLE notes (text TEXT NOT NULL)'));
  releaseAll();
  await db.durable();
});
afterEach(async () => {
  releaseAll();
  await db.durable();
  db.close();
  releaseAll();
  rmSync(dir, { recursive: true, force: true });
});

function committedNotes(): string[] {
  const reader = new DatabaseSync(file, { readOnly: true });
  try {
    return (reader.prepare('SELECT text FROM notes ORDER BY rowid').all() as Array<{ text: string }>).map((r) => r.text);
  } finally {
    reader.close();
  }
}

it('keeps a group open while the disk syncs the commit before it, commits it when that sync ends, and answers it after its own', async () => {
  const answered: string[] = [];
  const request = (name: string) => db.grouped(() => db.run('INSERT INTO notes VALUES (?)', name)).then(() => answered.push(name));

  const first = request('first');
  await until(() => syncs.held.length === 1);
  expect(committedNotes()).toEqual(['first']);

  // Two requests in later ticks, while the first commit's sync runs: one group, still open.
  const second = request('second');
  await nextTick();
  const third = request('third');
  await nextTick();
  expect(db.inTransaction).toBe(true);
  expect(committedNotes()).toEqual(['first']);
  expect(answered).toEqual([]);

  // The sync ends: the first is answered, the group is committed, and its own sync starts.
  syncs.held.shift()!();
  await first;
  await until(() => syncs.held.length === 1);
  expect(committedNotes()).toEqual(['first', 'second', 'third']);
  expect(answered).toEqual(['first']);

  syncs.held.shift()!();
  await Promise.all([second, third]);
  expect(answered).toEqual(['first', 'second', 'third']);
});
