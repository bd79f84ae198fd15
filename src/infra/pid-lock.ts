import { readFileSync } from 'node:fs';
import { link, open, readFile, unlink } from 'node:fs/promises';

// The one pid lock (a support batch's journal, a profile's listen spool): a lock file
// holds the pid of the process that owns the thing, and where the kernel tells it, when
// that process started. It appears whole, as a hard link to a file already holding them
// (link fails if the name exists, as O_EXCL does), so of two processes only one gets it
// and the other always learns who holds it; a lock whose process is gone (kill -9, a
// crash, a reboot that gave its pid to another program) is stale and taken over.

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

/**
 * Takes the lock at `path`, or throws LockedError naming the live process that holds it
 * (or what `refused` makes of it: the owner's own words). Resolves to its release.
 */
export async function acquireLock(path: string, refused: (locked: LockedError) => Error = (locked) => locked): Promise<() => Promise<void>> {
  // A name no other live process uses: one left by a dead process of the same pid is written over.
  const staged = `${path}.${process.pid}.${staging++}`;
  const handle = await open(staged, 'w', 0o600);
  try {
    await handle.writeFile(`${[process.pid, processStartOf(process.pid)].filter((field) => field !== undefined).join(' ')}\n`);
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
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= MAX_ATTEMPTS) throw error;
      }
      const holder = await readHolder(path);
      if (holder === 'gone') continue;
      if (holder !== 'stale' && sameProcessAlive(holder.pid, holder.start)) throw refused(new LockedError(path, holder.pid));
      await takeOver(path, staged, holder);
    }
  } finally {
    await unlink(staged).catch(ignoreMissing);
  }
}

/**
 * Takes the lock at `path` once the live process holding it lets it go, for work every
 * process may do in turn (a write of the config file, a sandbox's start): waits up to
 * `timeoutMs`, then throws the LockedError naming the holder; once `signal` aborts, throws its reason.
 */
export async function acquireLockInTurn(path: string, timeoutMs: number, signal?: AbortSignal): Promise<() => Promise<void>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    try {
      return await acquireLock(path);
    } catch (error) {
      if (!(error instanceof LockedError) || Date.now() > deadline) throw error;
    }
    // Jittered, so that waiters started together do not all come back together.
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
  }
}

/** How often a taker tries again while the lock changes hands under it. */
const MAX_ATTEMPTS = 50;

/**
 * Removes a stale lock (its process is gone) under a second lock, `<path>.takeover`: of
 * two takers that read the same stale lock, the second to get there would otherwise
 * remove the lock the first had just taken, and both would hold it. Under the takeover
 * lock the holder is read again and the lock removed only if it is still the stale one;
 * the caller then links its own. A takeover lock left by a dead process is removed too.
 */
async function takeOver(path: string, staged: string, stale: Holder | 'stale'): Promise<void> {
  const takeover = `${path}.takeover`;
  try {
    await link(staged, takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const taker = await readHolder(takeover);
    if (taker === 'stale' || (taker !== 'gone' && !sameProcessAlive(taker.pid, taker.start))) await unlink(takeover).catch(ignoreMissing);
    else await new Promise((resolve) => setTimeout(resolve, 5));
    return;
  }
  try {
    const now = await readHolder(path);
    if (now === stale || (typeof now === 'object' && typeof stale === 'object' && now.text === stale.text)) await unlink(path).catch(ignoreMissing);
  } finally {
    await unlink(takeover).catch(ignoreMissing);
  }
}

/** Who a lock file names: a pid, its process's start where it was known, and the file's text. */
interface Holder {
  pid: number;
  start: string | undefined;
  text: string;
}

/** The holder in the lock file; 'stale' when it names none (not written by this lock). */
async function readHolder(path: string): Promise<Holder | 'gone' | 'stale'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  const [pidText = '', start] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, start, text } : 'stale';
}

/** The pid of the live process holding the lock at `path`; undefined when none does (no lock, or a stale one). */
export async function lockHolder(path: string): Promise<number | undefined> {
  const holder = await readHolder(path);
  return typeof holder === 'object' && sameProcessAlive(holder.pid, holder.start) ? holder.pid : undefined;
}

/** Removes the lock if it is still this process's. */
async function releaseLock(path: string): Promise<void> {
  const holder = await readHolder(path);
  if (typeof holder === 'object' && holder.pid === process.pid) await unlink(path).catch(ignoreMissing);
}

/**
 * Whether a process of this pid runs (also another user's): the sandbox daemon's check
 * too. A killed process its parent has not reaped yet (a zombie, state Z in /proc) still
 * answers signal 0, but holds nothing: it is not alive.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, run by another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return statFields(pid)?.[0] !== 'Z';
}

/** The fields of /proc/<pid>/stat after the command name (state first), where there is a /proc. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When the process of this pid started, as the kernel counts it (Linux: field 22 of
 * /proc/<pid>/stat, clock ticks since boot); undefined where there is no /proc or no such process.
 */
export function processStartOf(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/**
 * Whether the process that recorded `start` (processStartOf, at its start) still runs as
 * `pid`: after a crash or a reboot the pid may be another program's, which must never be
 * signalled nor sent a key. Where the start cannot be read, a live pid is taken as it.
 */
export function sameProcessAlive(pid: number, start: string | undefined): boolean {
  if (!processAlive(pid)) return false;
  if (start === undefined) return true;
  const now = processStartOf(pid);
  return now === undefined || now === start;
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
