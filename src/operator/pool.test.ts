import { describe, expect, it } from 'vitest';
import { eachLimited } from './pool.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

describe('eachLimited', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await eachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      most = Math.max(most, ++running);
      await tick();
      seen.push(n);
      running--;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('takes no new item once stopped, and lets the running ones finish', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    let stop = false;
    await eachLimited([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 2) stop = true;
      await tick();
      finished.push(n);
    }, () => stop);
    expect(started).toEqual([1, 2]);
    expect(finished.sort()).toEqual([1, 2]);
  });

  it('rethrows the first error only after the running tasks are done, starting nothing more', async () => {
    const finished: number[] = [];
    const started: number[] = [];
    const run = eachLimited([1, 2, 3, 4], 2, async (n) => {
      started.push(n);
      if (n === 1) throw new Error('boom');
      await tick();
      finished.push(n);
    });
    await expect(run).rejects.toThrow('boom');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([2]);
  });

  it('follows a limit that shrinks while running: the workers above it take nothing more', async () => {
    let limit = 4;
    let late = 0;
    let mostLate = 0;
    const seen: number[] = [];
    await eachLimited([0, 1, 2, 3, 4, 5, 6, 7], () => limit, async (n) => {
      if (n === 0) limit = 1;
      if (n >= 4) mostLate = Math.max(mostLate, ++late);
      await tick();
      if (n >= 4) late--;
      seen.push(n);
    });
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(mostLate).toBe(1);
  });
});
