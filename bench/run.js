// `npm run bench`: every benchmark in this folder, one process each, one after another
// (they time themselves against a baseline in the same run). Exits 1 if any fails.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((name) => name.endsWith('.js') && name !== 'run.js')
  .filter((name) => only.length === 0 || only.includes(name.replace(/\.js$/, '')))
  .sort();
let failed = false;
for (const name of benches) {
  process.stdout.write(`\n# ${name}\n`);
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(name, import.meta.url))], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed = true;
    process.stderr.write(`${name} failed (exit ${result.status ?? result.signal})\n`);
  }
}
process.exit(failed ? 1 : 0);
