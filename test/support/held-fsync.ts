import type * as Fs from 'node:fs';

/**
 * fdatasync held until the test lets it go: the disk's timing is what a test cannot run.
 * A test file mocks node:fs with it (the factory imports this module itself, as vi.mock
 * is hoisted above the file's imports):
 *   vi.mock('node:fs', async (original) => (await import('…/held-fsync.js')).holdingFdatasync(original));
 * then sets `syncs.hold` and lets each of `syncs.held` go.
 */
export const syncs = { hold: false, held: [] as Array<() => void> };

export async function holdingFdatasync(importOriginal: () => Promise<typeof Fs>): Promise<typeof Fs> {
  const fs = await importOriginal();
  const fdatasync = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) =>
    syncs.hold ? void syncs.held.push(() => fs.fdatasync(fd, callback)) : fs.fdatasync(fd, callback);
  return { ...fs, fdatasync } as typeof Fs;
}

/** Holds no more, and lets every held sync go. */
export function releaseSyncs(): void {
  syncs.hold = false;
  syncs.held.splice(0).forEach((release) => release());
}
