import { open, readFile, stat, unlink } from 'node:fs/promises';

// A lock file beside the journal holds the pid of the process running its batch. It is
// created with O_EXCL, so of two processes only one gets it; a lock whose process is
// gone (kill -9, a crash) is stale and taken over.

export class LockedError extends Error {
  override name = 'LockedError';
  constructor(
    readonly path: string,
    /** The process holding the lock; null while it is still writing its pid. */
    readonly pid: number | null,
  ) {
    super(`The lock ${path} is ${pid === null ? 'being taken by another process' : `held by process ${pid}`}: its work is still running there; let it finish, or stop it, then try again.`);
  }
}

/** A lock file younger than this with no pid yet belongs to a process still writing it. */
const WRITING_MS = 5_000;

/** Takes the lock at `path`, or throws LockedError naming the live process that holds it. Resolves to its release. */
export async function acquireLock(path: string): Promise<() => Promise<void>> {
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return () => releaseLock(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
    const holder = await readHolder(path);
    if (holder === 'gone') continue;
    if (holder === 'writing') throw new LockedError(path, null);
    if (holder !== 'stale' && isAlive(holder)) throw new LockedError(path, holder);
    // Stale: removed, then created anew above. (Two processes finding the same stale
    // lock within the same instant could both remove it; one resume racing another
    // right after a crash is the only way there.)
    await unlink(path).catch(ignoreMissing);
  }
}

async function readHolder(path: string): Promise<number | 'gone' | 'writing' | 'stale'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  const pid = Number(text.trim());
  if (Number.isSafeInteger(pid) && pid > 0) return pid;
  const since = await stat(path).then((s) => Date.now() - s.mtimeMs, () => Infinity);
  return since < WRITING_MS ? 'writing' : 'stale';
}

/** Removes the lock if it is still this process's. */
async function releaseLock(path: string): Promise<void> {
  const holder = await readHolder(path);
  if (holder === process.pid) await unlink(path).catch(ignoreMissing);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
