import { link, open, readFile, unlink } from 'node:fs/promises';

// The one pid lock (a support batch's journal, a profile's listen spool): a lock file
// holds the pid of the process that owns the thing. It appears whole, as a hard link to
// a file already holding the pid (link fails if the name exists, as O_EXCL does), so of
// two processes only one gets it and the other always learns who holds it; a lock whose
// process is gone (kill -9, a crash) is stale and taken over.

export class LockedError extends Error {
  override name = 'LockedError';
  constructor(
    readonly path: string,
    /** The process holding the lock. */
    readonly pid: number,
  ) {
    super(`The lock ${path} is held by process ${pid}: its work is still running there; let it finish, or stop it, then try again.`);
  }
}

let staging = 0;

/** Takes the lock at `path`, or throws LockedError naming the live process that holds it. Resolves to its release. */
export async function acquireLock(path: string): Promise<() => Promise<void>> {
  // A name no other live process uses: one left by a dead process of the same pid is written over.
  const staged = `${path}.${process.pid}.${staging++}`;
  const handle = await open(staged, 'w', 0o600);
  try {
    await handle.writeFile(`${process.pid}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(staged, path);
        return () => releaseLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
      }
      const holder = await readHolder(path);
      if (holder === 'gone') continue;
      if (holder !== 'stale' && processAlive(holder)) throw new LockedError(path, holder);
      // Stale: removed, then linked anew above. (Two processes finding the same stale
      // lock within the same instant could both remove it; one resume racing another
      // right after a crash is the only way there.)
      await unlink(path).catch(ignoreMissing);
    }
  } finally {
    await unlink(staged).catch(ignoreMissing);
  }
}

/** The pid in the lock file; 'stale' when it holds none (not written by this lock). */
async function readHolder(path: string): Promise<number | 'gone' | 'stale'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : 'stale';
}

/** Removes the lock if it is still this process's. */
async function releaseLock(path: string): Promise<void> {
  const holder = await readHolder(path);
  if (holder === process.pid) await unlink(path).catch(ignoreMissing);
}

/** Whether a process of this pid exists (also another user's): the sandbox daemon's check too. */
export function processAlive(pid: number): boolean {
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
