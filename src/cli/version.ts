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

/** `pay --version` (or `-V`) and nothing else: answered without loading the program. */
export const asksVersionOnly = (args: readonly string[]): boolean => args.length === 1 && (args[0] === '--version' || args[0] === '-V');
