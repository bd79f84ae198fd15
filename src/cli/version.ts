// Kept apart from main.ts and its imports: bin/pay.js answers `pay --version` from this
// module alone, so a version check costs little more than starting Node. node:fs is
// taken with getBuiltinModule: an ESM import of a builtin costs a few ms more here.

import { packageFile } from '../infra/package-files.js';

/** The package's version. */
export function version(): string {
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * Prints the version for bin/pay.js, written to the descriptor: setting up Node's stdout
 * stream would cost more than the rest of `pay --version`.
 */
export function printVersion(): void {
  const { writeSync } = process.getBuiltinModule('node:fs');
  const line = `${version()}\n`;
  try {
    writeSync(1, line);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The reader went away (`| head`): nothing left to say, as main's run() treats it.
    if (code === 'EPIPE') return;
    // A non-blocking pipe that is full: the stream waits for room.
    if (code !== 'EAGAIN') throw error;
    process.stdout.write(line);
  }
}

/** `pay --version` (or `-V`) and nothing else: answered without loading the program. */
export const asksVersionOnly = (args: readonly string[]): boolean => args.length === 1 && (args[0] === '--version' || args[0] === '-V');
