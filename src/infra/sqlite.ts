import { chmodSync, closeSync, fdatasync, openSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { Checkpointer } from './sqlite-checkpointer.js';

export type Row = Record<string, SQLInputValue>;

/** A table whose inserts may be held back (Sqlite.hold): its name and the columns a row gives, in order. */
export interface HeldTable {
  readonly name: string;
  readonly columns: readonly string[];
}

/** A row held back: its values may still be replaced until it is written. */
export class HeldRow {
  written = false;

  constructor(private current: SQLInputValue[]) {}

  get values(): readonly SQLInputValue[] {
    return this.current;
  }

  /** Loud, not lost: a row written already (a statement ran since it was found) is not to be replaced. */
  replace(values: SQLInputValue[]): void {
    if (this.written) throw new Error('a held row replaced after it was written');
    this.current = values;
  }
}

/** Rows a held table's INSERT statement writes at most: the statements made stay few. */
const HELD_ROWS_A_STATEMENT = 16;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A request of the open group that finished with its rows still held: them, and how it fails if they cannot be written. */
interface FinishedRequest {
  rows: Array<[HeldTable, HeldRow[]]>;
  fail: (error: unknown) => void;
}

const NOTHING = () => undefined;

/**
 * A position that only grows as transactions write (the last sequence number a log gave
 * out), and where it stood at the newest commit known to be on disk: everything written
 * at or below `durable` is (Sqlite.mark).
 */
export class DurableMark {
  durable: number;

  constructor(readonly position: () => number) {
    this.durable = position();
  }
}

export interface SqliteOptions {
  /**
   * Durability off the calling thread, for a server answering requests: commits do not
   * wait for the disk (synchronous = NORMAL); the WAL is fdatasync'd after every commit
   * on libuv's pool (what synchronous = FULL does inside COMMIT), after-commit callbacks
   * and `durable()` wait for it, and WAL checkpoints run off the thread too
   * (`checkpointOffThread`). Without it, a commit's callbacks run as soon as it returns.
   */
  syncOffThread?: boolean;
  /**
   * WAL checkpoints in a worker (Checkpointer), not inside whichever COMMIT crosses
   * SQLite's automatic threshold (two fsyncs, milliseconds, stalling everything behind it).
   */
  checkpointOffThread?: boolean;
  /** How long, in ms, a group smaller than the last one waits at most to grow (commitIfGrown): 1 unless a test says otherwise. */
  groupLingerMs?: number;
}

/**
 * node:sqlite behind a small surface, for the sandbox's store and `listen`'s spool alike:
 * a file only its owner can read (what is kept holds customers' details and key
 * hashes; WAL files inherit the mode), WAL, cached statements, and one transaction at a
 * time. Callers are synchronous, so a transaction never interleaves with another's.
 * Group commit (`grouped`) lets the requests of one tick (or, while the disk syncs, of
 * every tick until it is done; under load, of as many ticks as the last group needed)
 * share one transaction, so they share its page writes and its fsync, each in a
 * savepoint of its own (once it runs a statement: one that only inserts holds its rows,
 * which are written with its neighbours').
 */
export class Sqlite {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;
  private afterCommit: Array<() => void> = [];
  /** What undoes, in memory, the work of the open transaction: run, newest first, if that work rolls back. */
  private undo: Array<() => void> = [];
  /**
   * Inserts held back (hold) by the running request or transaction, by table, in the order
   * held; and those held under a key, by it.
   */
  private held = new Map<HeldTable, { rows: HeldRow[]; byKey: Map<unknown, HeldRow> }>();
  /**
   * Requests of the open group that finished without running a statement: their rows are
   * still held, to be written by the next statement or the COMMIT (see flushFinished).
   */
  private finished: FinishedRequest[] = [];
  /** The running request of a group: whether it has opened its savepoint (at its first statement). */
  private request: { savepoint: boolean } | undefined;
  /** A held table's INSERT text for n rows, at n - 1. */
  private readonly heldInserts = new WeakMap<HeldTable, string[]>();
  /** The open group transaction and the requests in it, answered once it is on disk. */
  private group: Waiter[] | undefined;
  /** When the open group was opened (performance.now()), and how many requests the last group committed held. */
  private groupOpened = 0;
  private lastGroupSize = 0;
  private readonly groupLingerMs: number;
  /** A check of whether the open group is ready to commit is pending (commitWhenGrown). */
  private commitPending = false;
  /** Settles once everything committed so far is on disk. */
  private synced: Promise<void> = Promise.resolve();
  /** Commits waiting for the next fdatasync, and whether one is running. */
  private unsynced: Array<(error?: unknown) => void> = [];
  private syncing = false;
  private closing = false;
  private readonly syncOffThread: boolean;
  private walFd: number | undefined;
  private checkpointer: Checkpointer | undefined;
  /** Positions read at each COMMIT, and made durable with it (mark). */
  private readonly marks: DurableMark[] = [];
  /** Set while durableRead runs reads inside the open group: they neither commit it nor write what it holds. */
  private peeking = false;
  /**
   * Where a failed after-commit callback is told: stderr (the sandbox's log, sandbox.log
   * when detached), unless its owner says otherwise.
   */
  report: (error: unknown) => void = (error) => {
    process.stderr.write(`pay: work after a commit failed (what was committed stands): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  };

  constructor(readonly file: string, options: SqliteOptions = {}) {
    if (file !== ':memory:') {
      closeSync(openSync(file, 'a', 0o600));
      chmodSync(file, 0o600);
    }
    this.db = new DatabaseSync(file);
    // busy_timeout first: switching a new file to WAL takes a lock another opener may hold.
    this.db.exec('PRAGMA busy_timeout = 5000');
    if (file !== ':memory:') this.db.exec('PRAGMA journal_mode = WAL');
    // temp_store: a request's savepoint journal, spilled to a temporary file past 64 KiB,
    // cost a file created and removed every few requests and half the writes of a commit.
    this.db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY');
    this.syncOffThread = options.syncOffThread === true && file !== ':memory:';
    this.groupLingerMs = options.groupLingerMs ?? 1;
    if ((this.syncOffThread || options.checkpointOffThread === true) && file !== ':memory:') {
      this.db.exec('PRAGMA wal_autocheckpoint = 0');
      this.checkpointer = new Checkpointer(
        file,
        () => {
          this.outsideGroup();
          this.db.exec('PRAGMA wal_checkpoint(RESTART)');
        },
        (error) => this.report(error),
      );
    }
  }

  /** Runs SQL text as it is (schemas, pragmas): no parameters, no result. */
  exec(sql: string): void {
    this.outsideGroup();
    this.beforeStatement();
    this.db.exec(sql);
  }

  /**
   * Inserts a row into `table` late: it is held, and may be replaced (heldRow(table, key))
   * while its request runs, until any other statement runs or the transaction ends; then
   * the rows held are written together, one INSERT of many rows a table. No statement can
   * tell: every other one writes them first. A request of a group that runs no statement
   * of its own leaves its rows held past its end, so the requests of a tick share those
   * INSERTs, and it needs no savepoint. An object a request creates and changes again is
   * written once. Outside a transaction the row is written at once.
   */
  hold(table: HeldTable, values: SQLInputValue[], key?: unknown): void {
    if (this.depth === 0) {
      this.statement(this.heldInsert(table, 1)).run(...values);
      return;
    }
    let held = this.held.get(table);
    if (!held) this.held.set(table, (held = { rows: [], byKey: new Map() }));
    const row = new HeldRow(values);
    held.rows.push(row);
    if (key !== undefined) held.byKey.set(key, row);
  }

  /** The row held under `key` in `table`, while it is held (not yet written, nor rolled back). */
  heldRow(table: HeldTable, key: unknown): HeldRow | undefined {
    return this.held.get(table)?.byKey.get(key);
  }

  /** Writes the running request's (or transaction's) held rows. */
  private writeHeld(): void {
    if (this.held.size > 0) this.writeRows(this.takeHeld());
  }

  /** The running request's held rows, by table, no longer its to replace. */
  private takeHeld(): Array<[HeldTable, HeldRow[]]> {
    const held = this.held;
    this.held = new Map();
    return [...held].map(([table, { rows }]) => [table, rows]);
  }

  private writeRows(tables: Iterable<[HeldTable, HeldRow[]]>): void {
    for (const [table, rows] of tables) {
      for (let start = 0; start < rows.length; start += HELD_ROWS_A_STATEMENT) {
        const chunk = rows.slice(start, start + HELD_ROWS_A_STATEMENT);
        this.prepared(this.heldInsert(table, chunk.length)).run(...chunk.flatMap((row) => row.values));
        for (const row of chunk) row.written = true;
      }
    }
  }

  /**
   * Before a statement: the rows the group's finished requests still hold are written
   * (outside the running request's savepoint, which must not take them back), the running
   * request opens its savepoint, and its own rows are written in it.
   */
  private beforeStatement(): void {
    this.flushFinished();
    if (this.request && !this.request.savepoint) {
      this.control('SAVEPOINT request');
      this.request.savepoint = true;
    }
    this.writeHeld();
  }

  /**
   * Writes the rows of the group's finished requests, all together. Should they clash
   * (a bug, as a duplicate key), each request's are written alone, and a request whose
   * rows cannot be written fails as it would have alone: its rows, its work in memory and
   * its after-commit callbacks go, and its neighbours commit. Its rows were all it wrote.
   */
  private flushFinished(): void {
    if (this.finished.length === 0) return;
    const requests = this.finished;
    this.finished = [];
    const merged = new Map<HeldTable, HeldRow[]>();
    for (const { rows } of requests) {
      for (const [table, tableRows] of rows) {
        let all = merged.get(table);
        if (!all) merged.set(table, (all = []));
        all.push(...tableRows);
      }
    }
    if (this.inSavepoint(() => this.writeRows(merged)) === undefined) return;
    for (const request of requests) {
      const error = this.inSavepoint(() => this.writeRows(request.rows));
      if (error !== undefined) request.fail(error);
    }
  }

  /** Runs `write` in a savepoint of its own: the error that rolled it back, if any. */
  private inSavepoint(write: () => void): unknown {
    this.control('SAVEPOINT held');
    try {
      write();
      this.control('RELEASE held');
      return undefined;
    } catch (error) {
      if (this.db.isTransaction) {
        this.control('ROLLBACK TO held');
        this.control('RELEASE held');
      }
      return error;
    }
  }

  /** Rolled back: what was held is never written. */
  private dropHeld(): void {
    if (this.held.size > 0) this.held = new Map();
  }

  private heldInsert(table: HeldTable, rows: number): string {
    let texts = this.heldInserts.get(table);
    if (!texts) this.heldInserts.set(table, (texts = []));
    return (texts[rows - 1] ??= `INSERT INTO ${table.name} (${table.columns.join(', ')}) VALUES ${Array.from({ length: rows }, () => `(${table.columns.map(() => '?').join(', ')})`).join(', ')}`);
  }

  private statement(sql: string): StatementSync {
    if (!this.peeking) {
      this.outsideGroup();
      this.beforeStatement();
    }
    return this.prepared(sql);
  }

  private prepared(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  /**
   * Transaction control (BEGIN, SAVEPOINT, RELEASE, COMMIT, ROLLBACK) as a cached
   * statement: exec() compiles its text every time, and a group runs several.
   */
  private control(sql: string): void {
    this.prepared(sql).run();
  }

  run(sql: string, ...params: SQLInputValue[]): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.statement(sql).run(...params);
  }

  get<T = Row>(sql: string, ...params: SQLInputValue[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  all<T = Row>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  /** Rows one at a time, for a caller that may stop early. */
  iterate<T = Row>(sql: string, ...params: SQLInputValue[]): IterableIterator<T> {
    return this.statement(sql).iterate(...params) as IterableIterator<T>;
  }

  /** Runs `fn` in a transaction (nested calls join the outer one); rolls back on throw. */
  transaction<T>(fn: () => T): T {
    this.outsideGroup();
    if (this.depth > 0) {
      this.depth++;
      try {
        return fn();
      } finally {
        this.depth--;
      }
    }
    this.control('BEGIN IMMEDIATE');
    this.depth = 1;
    let result: T;
    try {
      result = fn();
      this.writeHeld();
      this.control('COMMIT');
    } catch (error) {
      this.dropHeld();
      this.rollback();
      this.afterCommit = [];
      this.rolledBack(0);
      throw error;
    } finally {
      this.depth = 0;
    }
    this.undo = [];
    this.committed([]);
    return result;
  }

  /**
   * Runs `fn` in a savepoint of the open group transaction (opened here when none is)
   * and settles with its result once that transaction is committed (and, with
   * syncOffThread, on disk). A throw rolls back this savepoint alone; its neighbours
   * commit. A read (`write` false) with no group open runs outside any transaction.
   */
  grouped<T>(fn: () => T, write = true): Promise<T> {
    if (this.depth > 0) throw new Error('grouped() inside a transaction');
    if (!write && !this.group) {
      const outcome = this.inside(fn);
      return this.synced.then(() => ('value' in outcome ? outcome.value : Promise.reject(outcome.error)));
    }
    if (!this.group) {
      this.control('BEGIN IMMEDIATE');
      this.group = [];
      this.groupOpened = performance.now();
      // After the I/O callbacks of this tick (the requests that arrived together), once it
      // has grown (commitIfGrown); while an fdatasync runs, not before it is done (sync),
      // since this group would wait for the next one anyway: it grows meanwhile, at no
      // cost in latency.
      if (!this.syncing) this.commitWhenGrown();
    }
    const group = this.group;
    const mark = this.afterCommit.length;
    const undoMark = this.undo.length;
    let outcome = this.inRequest(fn);
    if (!this.db.isTransaction) {
      // SQLite rolled the whole group back (a full disk): every request in it failed, with this error.
      const error = 'error' in outcome ? outcome.error : new Error('the transaction was rolled back');
      this.group = undefined;
      this.failGroup(group, error);
      return Promise.reject(error);
    }
    if ('error' in outcome) {
      this.afterCommit.length = mark;
      this.rolledBack(undoMark);
    } else if (this.held.size > 0) {
      // It ran no statement (else its rows went before its RELEASE): they wait for its neighbours'.
      const rows = this.takeHeld();
      const afterEnd = this.afterCommit.length;
      const undoEnd = this.undo.length;
      this.finished.push({
        rows,
        fail: (error) => {
          outcome = { error };
          this.afterCommit.fill(NOTHING, mark, afterEnd);
          for (let i = undoEnd - 1; i >= undoMark; i--) {
            const undo = this.undo[i]!;
            this.undo[i] = NOTHING;
            undo();
          }
        },
      });
    }
    return new Promise<T>((resolve, reject) => {
      group.push({ resolve: () => ('value' in outcome ? resolve(outcome.value) : reject(outcome.error)), reject });
    });
  }

  /**
   * Runs a request of the group: its savepoint is opened by its first statement, if it
   * runs one (beforeStatement), and then its rows are written before it is released. A
   * throw drops its rows and rolls its savepoint back.
   */
  private inRequest<T>(fn: () => T): { value: T } | { error: unknown } {
    const request = (this.request = { savepoint: false });
    this.depth = 1;
    try {
      const value = fn();
      if (request.savepoint) {
        this.writeHeld();
        this.control('RELEASE request');
      }
      return { value };
    } catch (error) {
      this.dropHeld();
      // A full disk: SQLite rolled the whole group back already (commitGroup fails it).
      if (request.savepoint && this.db.isTransaction) {
        this.control('ROLLBACK TO request');
        this.control('RELEASE request');
      }
      return { error };
    } finally {
      this.depth = 0;
      this.request = undefined;
    }
  }

  /** Runs `fn` as work outside any transaction (a read), with what it held written (or, if it throws, dropped). */
  private inside<T>(fn: () => T): { value: T } | { error: unknown } {
    this.depth = 1;
    try {
      const value = fn();
      this.writeHeld();
      return { value };
    } catch (error) {
      this.dropHeld();
      return { error };
    } finally {
      this.depth = 0;
    }
  }

  /** Rolls the open transaction back, unless SQLite did already (SQLITE_FULL, SQLITE_IOERR…): the error that did it is the one to tell. */
  private rollback(): void {
    if (this.db.isTransaction) this.control('ROLLBACK');
  }

  /** Work outside any transaction never sees, nor joins, a group not yet committed: it commits it first. */
  private outsideGroup(): void {
    if (this.group && this.depth === 0) this.commitGroup();
  }

  /**
   * Commits the open group once it has grown: to as many requests as the last group
   * committed, or for groupLingerMs. Until then it is looked at again at the end of each
   * tick, after that tick's I/O. Under load (many connections, each waiting for its
   * answer before it sends its next request) the requests the last commit answered are
   * on their way back, and a commit's page writes and sync, which hardly grow with its
   * requests, are shared among as many. A lone request commits at the end of its tick,
   * as before: the last group was no larger.
   */
  private commitIfGrown(): void {
    if (this.group!.length >= this.lastGroupSize || performance.now() - this.groupOpened >= this.groupLingerMs) this.commitGroup();
    else this.commitWhenGrown();
  }

  private commitWhenGrown(): void {
    if (this.commitPending) return;
    this.commitPending = true;
    setImmediate(() => {
      this.commitPending = false;
      if (this.group) this.commitIfGrown();
    });
  }

  private commitGroup(): void {
    const group = this.group;
    if (!group) return;
    this.group = undefined;
    this.lastGroupSize = group.length;
    try {
      this.flushFinished();
      this.control('COMMIT');
    } catch (error) {
      this.failGroup(group, error);
      return;
    }
    this.undo = [];
    this.committed(group);
  }

  /** The open group is rolled back (by SQLite, or here): its work in memory is undone, and each of its requests fails with `error`. */
  private failGroup(waiters: Waiter[], error: unknown): void {
    this.finished = [];
    this.rollback();
    this.afterCommit = [];
    this.rolledBack(0);
    for (const waiter of waiters) waiter.reject(error);
  }

  /** After a COMMIT: its callbacks, then its waiters, once it is durable, in commit order. */
  private committed(waiters: Waiter[]): void {
    const callbacks = this.afterCommit;
    this.afterCommit = [];
    const positions = this.marks.map((mark) => mark.position());
    const done = () => {
      // First: the callbacks read up to the marks (a push sends what is durable).
      for (let i = 0; i < positions.length; i++) this.marks[i]!.durable = Math.max(this.marks[i]!.durable, positions[i]!);
      // The work is committed: a failing push or wake-up must neither undo its answer nor stop the others.
      for (const callback of callbacks) {
        try {
          callback();
        } catch (error) {
          this.report(error);
        }
      }
      for (const waiter of waiters) waiter.resolve();
    };
    this.checkpointer?.committed();
    if (!this.syncOffThread) return done();
    this.synced = new Promise<void>((resolve, reject) => {
      this.unsynced.push((error) => {
        if (error === undefined) {
          done();
          resolve();
        } else {
          for (const waiter of waiters) waiter.reject(error);
          reject(error);
        }
      });
    });
    // Its waiters are told; a caller of durable() sees the failure through its own promise.
    this.synced.catch(() => undefined);
    if (!this.syncing) this.sync();
  }

  /**
   * One fdatasync of the WAL at a time, for every commit made before it started: while
   * one runs, the commits that follow wait for the next, which covers them all. Syncs
   * issued side by side would queue in the kernel anyway, each paying for the disk.
   */
  private sync(): void {
    const batch = this.unsynced;
    this.unsynced = [];
    this.syncing = true;
    this.walFd ??= openSync(`${this.file}-wal`, 'r');
    fdatasync(this.walFd, (error) => {
      this.syncing = false;
      // The group that waited for this sync: committed now if it has grown (else once it
      // has), and synced next, before this batch's callbacks push what it made durable
      // (they read no further: Sqlite.mark).
      if (this.group) this.commitIfGrown();
      for (const settle of batch) settle(error ?? undefined);
      if (this.syncing) return;
      if (this.unsynced.length > 0) this.sync();
      else if (this.closing) this.closeWal();
    });
  }

  /** True inside an open SQL transaction: what is read there may yet roll back. */
  get inTransaction(): boolean {
    return this.db.isTransaction;
  }

  /** Settles once every commit so far is durable: what an answer awaits. */
  durable(): Promise<void> {
    return this.synced;
  }

  /**
   * Follows `position` (it only grows as transactions write it): read at each COMMIT, it
   * becomes the mark's `durable` once that commit is on disk, before the commit's
   * callbacks run. Commits reach the disk in order, so what a transaction wrote at or
   * below the mark was committed and synced (or rolled back, and is not there).
   */
  mark(position: () => number): DurableMark {
    const mark = new DurableMark(position);
    this.marks.push(mark);
    return mark;
  }

  /**
   * Runs reads of rows at or below a DurableMark (what a push sends) without committing
   * the open group first: committed early, it would split that group (another commit
   * and sync on the write path) only to show rows not yet on disk. They run inside it, so
   * they also see what it wrote so far: `fn` must read nothing above its marks, and write
   * nothing. Inside a transaction, it is an ordinary read of it.
   */
  durableRead<T>(fn: () => T): T {
    if (this.depth > 0 || this.peeking) return fn();
    this.peeking = true;
    try {
      return fn();
    } finally {
      this.peeking = false;
    }
  }

  /** Work that must only happen once the current transaction has committed (delivery, pushes). */
  onCommit(callback: () => void): void {
    if (this.depth === 0) callback();
    else this.afterCommit.push(callback);
  }

  /**
   * Undoes, if the current transaction (or the request's savepoint in a group) rolls
   * back, what its caller changed in memory beside it: an index kept in step with rows.
   * Outside a transaction there is nothing to roll back.
   */
  onRollback(callback: () => void): void {
    if (this.depth > 0) this.undo.push(callback);
  }

  /** After a rollback to `mark`: what was done in memory since is undone, newest first, once the rows are back. */
  private rolledBack(mark: number): void {
    const undone = this.undo.splice(mark);
    for (let i = undone.length - 1; i >= 0; i--) undone[i]!();
  }

  close(): void {
    this.commitGroup();
    this.checkpointer?.close();
    this.statements.clear();
    this.db.close();
    // A sync still running (and the one it may start for the last commits) keeps the WAL open until it is done.
    this.closing = true;
    if (!this.syncing) this.closeWal();
  }

  private closeWal(): void {
    if (this.walFd !== undefined) closeSync(this.walFd);
    this.walFd = undefined;
  }
}
