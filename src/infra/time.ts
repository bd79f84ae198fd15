// Time, in one place: the instants the service writes, the length of a day, and the
// scheduler behind every timer of the sandbox's engines (tests pass a manual one).

/**
 * An instant as the service writes it: ISO 8601 in UTC, `2030-01-01T00:00:00Z`, with
 * milliseconds only when they are not zero. Text order is time order for instants of
 * the same precision; compare with `compareInstants`.
 */
export type Instant = string;

export const DAY_MS = 86_400_000;

/** The one normalisation of an instant: UTC, `.000` dropped. */
export function toInstant(at: number | string | Date): Instant {
  return new Date(typeof at === 'string' ? Date.parse(at) : at).toISOString().replace(/\.000Z$/, 'Z');
}

/** Milliseconds since the epoch of an ISO 8601 date-time (any offset). */
export const msOf = (instant: string): number => Date.parse(instant);

/** The instant `ms` after `instant` (negative: before). */
export const addMs = (instant: string, ms: number): Instant => toInstant(msOf(instant) + ms);

/** Negative, zero or positive as a is before, at or after b. */
export const compareInstants = (a: string, b: string): number => msOf(a) - msOf(b);

/** The earliest of some instants, or undefined when there is none. */
export function earliest(instants: Iterable<string | undefined>): Instant | undefined {
  let first: string | undefined;
  for (const at of instants) if (at !== undefined && (first === undefined || compareInstants(at, first) < 0)) first = at;
  return first;
}

/** A pending timer of a Scheduler. */
export interface Timer {
  cancel(): void;
}

/**
 * Real time and the timers that wait on it, behind an interface so a test can drive
 * them: clock steps, delivery retries.
 */
export interface Scheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Milliseconds on a clock that never jumps (timers run on it): how far `now` was set back or forward shows against it. */
  monotonic(): number;
  /** Runs fn after ms; the timer never keeps the process alive by itself. */
  after(ms: number, fn: () => void): Timer;
  /** Resolves after the events already queued (I/O, other requests) have had their turn. */
  yield(): Promise<void>;
}

/** The longest delay a Node timer takes (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS)).unref();
    return { cancel: () => clearTimeout(timer) };
  },
  yield: () => new Promise((resolve) => setImmediate(resolve)),
};

/** The scheduler's now as an instant, to the second (a test clock starting at the real time). */
export const nowInstant = (scheduler: Scheduler = realScheduler): Instant => toInstant(Math.floor(scheduler.now() / 1000) * 1000);
