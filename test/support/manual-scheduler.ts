import type { Scheduler, Timer } from '../../src/infra/time.js';

/** A Scheduler whose time moves only when a test says so: timers run as `advance` passes them, in due order. */
export class ManualScheduler implements Scheduler {
  private timers: Array<{ due: number; fn: () => void }> = [];

  constructor(private at: number) {}

  now(): number {
    return this.at;
  }

  /** Its time never jumps: it moves only by `advance`. */
  monotonic(): number {
    return this.at;
  }

  after(ms: number, fn: () => void): Timer {
    const timer = { due: this.at + Math.max(0, ms), fn };
    this.timers.push(timer);
    return { cancel: () => void (this.timers = this.timers.filter((t) => t !== timer)) };
  }

  yield(): Promise<void> {
    return Promise.resolve();
  }

  /** When the earliest timer is due, in ms from now; undefined when none is set. */
  nextIn(): number | undefined {
    const due = Math.min(...this.timers.map((t) => t.due));
    return Number.isFinite(due) ? due - this.at : undefined;
  }

  /** Moves time forward by ms, running each timer that comes due. */
  advance(ms: number): void {
    const until = this.at + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.due <= until).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.at = next.due;
      next.fn();
    }
    this.at = until;
  }
}
