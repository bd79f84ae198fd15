import { Worker } from 'node:worker_threads';

/** The checkpointing connection, in a worker thread: CommonJS source, so it runs from src/ and dist/ alike. */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file, { open: false });
let checkpoint;
const closed = new Int32Array(workerData.closed);
parentPort.on('message', (message) => {
  if (message === 'close') {
    if (db.isOpen) db.close();
    Atomics.store(closed, 0, 1);
    Atomics.notify(closed, 0);
    parentPort.close();
    return;
  }
  // A failed checkpoint (a full disk) loses nothing: the commits stay in the WAL, and the next one tries again.
  try {
    if (!db.isOpen) db.open();
    checkpoint ??= db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    parentPort.postMessage(checkpoint.get());
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

/** How often, at most, the WAL is checkpointed while commits keep coming. */
const INTERVAL_MS = 100;
/** Frames the WAL may hold before the writer resets it itself (a checkpoint that never catches up leaves it growing). */
const RESTART_FRAMES = 16_384;

/**
 * WAL checkpoints off the request thread: SQLite's automatic checkpoint copies pages and
 * fsyncs inside whichever COMMIT crosses its threshold, stalling every request behind it.
 * Here a second connection in a worker thread checkpoints (PASSIVE: never blocking the
 * writer) shortly after commits. A checkpoint can only restart the WAL from its start when
 * it caught up with the writer; under sustained writes it may never do so, so once the WAL
 * passes RESTART_FRAMES the writer restarts it (`restart`, a short catch-up).
 */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly closed = new Int32Array(new SharedArrayBuffer(4));
  private inFlight = false;
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    file: string,
    private readonly restart: () => void,
    /** Where a failed checkpoint is told; the sandbox goes on (and so does its WAL). */
    report: (error: Error) => void,
  ) {
    this.worker = new Worker(SOURCE, { eval: true, workerData: { file, closed: this.closed.buffer } });
    this.worker.unref();
    this.worker.on('message', (result: { log: number } | { error: string }) => {
      this.inFlight = false;
      this.last = Date.now();
      if ('error' in result) report(new Error(`a WAL checkpoint of ${file} failed (it is tried again after the next commit): ${result.error}`));
      else if (result.log > RESTART_FRAMES) {
        try {
          this.restart();
        } catch (error) {
          report(error as Error);
        }
      }
    });
  }

  /** After a commit: a checkpoint soon, one at a time. */
  committed(): void {
    if (this.inFlight || this.timer) return;
    const wait = this.last + INTERVAL_MS - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.start();
      }, wait).unref();
      return;
    }
    this.start();
  }

  private start(): void {
    if (this.inFlight) return;
    this.inFlight = true;
    this.worker.postMessage('checkpoint');
  }

  /** Closes the worker's connection before returning, so the writer's close is the last and removes the WAL. */
  close(): void {
    clearTimeout(this.timer);
    this.worker.postMessage('close');
    Atomics.wait(this.closed, 0, 0, 10_000);
    void this.worker.terminate();
  }
}
