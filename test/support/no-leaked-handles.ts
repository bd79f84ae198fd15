import { afterAll } from 'vitest';

// Node closes a FileHandle nobody closed when it is garbage collected, and warns
// (DEP0137): a leaked handle. Each test file collects its garbage at the end (vitest runs
// with --expose-gc), so a leak warns inside the file that made it, and fails it.

const leaks: Error[] = [];
const onWarning = (warning: Error & { code?: string }) => {
  if (warning.code === 'DEP0137') leaks.push(warning);
};
process.on('warning', onWarning);

afterAll(async () => {
  globalThis.gc?.();
  // The handle is closed, and its warning emitted, on later turns of the event loop.
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', onWarning);
  if (leaks.length > 0) throw new Error(`${leaks.length} FileHandle(s) were never closed (DEP0137): close every handle a test or the code opens.\n${leaks[0]!.stack}`);
});
