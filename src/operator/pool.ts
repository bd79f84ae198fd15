/**
 * Runs `task` over `items` with at most `limit` running at once, taking items in order;
 * a limit given as a function may shrink while running (a worker above it takes no more).
 * No new item is taken once `stopped()` is true or a task has thrown; the first error is
 * rethrown only after every task already running has finished, so nothing is left half
 * done behind the caller's back.
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number | (() => number),
  task: (item: T, index: number) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const limitNow = typeof limit === 'number' ? () => limit : limit;
  const worker = async (_: unknown, w: number) => {
    while (failure === undefined && !stopped() && w < limitNow() && next < items.length) {
      const index = next++;
      try {
        await task(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limitNow(), items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
}
