import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, LockedError, processAlive, processStartOf } from './pid-lock.js';

let dir: string;
let lock: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pay-lock-'));
  lock = join(dir, 'b.jsonl.lock');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The lock's text as this process writes it: its pid, and its start where the kernel tells it. */
const ownLock = () => [process.pid, processStartOf(process.pid)].filter((field) => field !== undefined).join(' ');

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = execa(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await child;
  return pid;
}

describe('acquireLock', () => {
  it('of two takers finding the same stale lock at once, gives it to one alone', async () => {
    const dead = await deadPid();
    for (let round = 0; round < 100; round++) {
      writeFileSync(lock, `${dead}\n`);
      const outcomes = await Promise.allSettled([acquireLock(lock), acquireLock(lock)]);
      const taken = outcomes.filter((o) => o.status === 'fulfilled');
      expect(taken, `round ${round}`).toHaveLength(1);
      expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { name: 'LockedError', pid: process.pid } });
      await (taken[0] as PromiseFulfilledResult<() => Promise<void>>).value();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('holds the lock with this pid, refuses a second taker naming the holder, and releases it', async () => {
    const release = await acquireLock(lock);
    expect(readFileSync(lock, 'utf8').trim()).toBe(ownLock());
    const second = acquireLock(lock);
    await expect(second).rejects.toBeInstanceOf(LockedError);
    await expect(second).rejects.toMatchObject({ pid: process.pid, message: expect.stringContaining(`process ${process.pid}`) });
    await release();
    expect(existsSync(lock)).toBe(false);
    await (await acquireLock(lock))();
  });

  it('refuses a lock held by another live process', async () => {
    const child = execa(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      // As a process of this version writes it, and as one of the last wrote it (its pid alone).
      for (const text of [[child.pid, processStartOf(child.pid!)].filter((field) => field !== undefined).join(' '), String(child.pid)]) {
        writeFileSync(lock, `${text}\n`);
        await expect(acquireLock(lock)).rejects.toMatchObject({ name: 'LockedError', pid: child.pid });
      }
    } finally {
      child.kill('SIGKILL');
      await child.catch(() => undefined);
    }
  });

  it('takes over a stale lock: its process is gone (kill -9), or it holds no pid', async () => {
    writeFileSync(lock, `${await deadPid()}\n`);
    const release = await acquireLock(lock);
    expect(readFileSync(lock, 'utf8').trim()).toBe(ownLock());
    await release();

    writeFileSync(lock, '');
    await (await acquireLock(lock))();
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(processStartOf(process.pid) !== undefined)('takes over a lock whose process was killed but not yet reaped by its parent (a zombie)', async () => {
    // The shell's background child ends at once; the shell becomes a sleep that never reaps it.
    const parent = execa('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { buffer: false });
    try {
      const zombie = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
      const state = () => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]![0];
      while (state() !== 'Z') await new Promise((resolve) => setImmediate(resolve));
      expect(processAlive(zombie)).toBe(false);
      writeFileSync(lock, `${zombie} ${processStartOf(zombie)}\n`);
      await (await acquireLock(lock))();
    } finally {
      parent.kill('SIGKILL');
      await parent.catch(() => undefined);
    }
  });

  it.runIf(processStartOf(process.pid) !== undefined)('takes over a lock whose pid another program was given since (a crash, a reboot), leaving that program alone', async () => {
    const stranger = execa(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      // The holder's start as it recorded it is not the stranger's.
      writeFileSync(lock, `${stranger.pid} 1\n`);
      const release = await acquireLock(lock);
      expect(readFileSync(lock, 'utf8').trim()).toBe(ownLock());
      await release();
      expect(processAlive(stranger.pid!)).toBe(true);
    } finally {
      stranger.kill('SIGKILL');
      await stranger.catch(() => undefined);
    }
  });

  it('of many takers at once, exactly one gets it, and every other one is told its pid', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => acquireLock(lock)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(refusals.every((reason) => reason instanceof LockedError && reason.pid === process.pid)).toBe(true);
  });

  it('a release leaves alone a lock that is no longer its own', async () => {
    const release = await acquireLock(lock);
    writeFileSync(lock, '1\n');
    await release();
    expect(readFileSync(lock, 'utf8')).toBe('1\n');
  });
});
