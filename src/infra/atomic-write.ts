import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

let staging = 0;

/**
 * Writes the file whole or not at all: the text goes to a new file beside it (same
 * directory, so the rename stays on one file system), is fsync'd, then renamed over the
 * name. A reader racing the writer sees the old file or the new one, never a part, and a
 * crash mid-write leaves the old file as it was. The file gets `mode` whatever the old
 * one had (0600 by default: these files hold keys and pids).
 */
export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  // A name no other live process uses; the counter keeps two writes of one process apart.
  const staged = `${path}.${process.pid}.${staging++}.tmp`;
  try {
    const fd = openSync(staged, 'wx', mode);
    try {
      // The umask may have taken bits off the mode open gave.
      fchmodSync(fd, mode);
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(staged, path);
  } catch (error) {
    rmSync(staged, { force: true });
    throw error;
  }
}
