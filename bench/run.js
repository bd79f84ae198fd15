// `npm run bench [-- name…]`: the benchmarks of issue 12's table, one process each, one
// after another (each measures its baseline in the same run), then the whole table and
// bench/results.json. `npm run bench -- write listen` runs only those; their rows replace
// the same rows of an existing results.json, each row stamped with when it was measured.
// A missed goal is a result: the exit code is 1 only when a bench failed to run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from './support/report.js';

/** In the order of the table's rows. */
const BENCHES = ['write', 'read', 'listen', 'startup', 'billing', 'memory'];
const resultsFile = fileURLToPath(new URL('results.json', import.meta.url));

const only = process.argv.slice(2);
const unknown = only.filter((name) => !BENCHES.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`Unknown bench: ${unknown.join(', ')}. Choose from: ${BENCHES.join(', ')}.\n`);
  process.exit(2);
}
const benches = only.length === 0 ? BENCHES : BENCHES.filter((name) => only.includes(name));

const scratch = mkdtempSync(join(tmpdir(), 'pay-bench-rows-'));
const rowsFile = join(scratch, 'rows.jsonl');
const failed = [];
const load = [loadavg()[0]];
for (const name of benches) {
  process.stdout.write(`\n# ${name}\n`);
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(`${name}.js`, import.meta.url))], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_ROWS: rowsFile },
  });
  if (result.status !== 0) {
    failed.push(name);
    process.stderr.write(`${name} failed (exit ${result.status ?? result.signal})\n`);
  }
}
load.push(loadavg()[0]);
const measured = existsSync(rowsFile)
  ? readFileSync(rowsFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
  : [];
rmSync(scratch, { recursive: true, force: true });

// Rows of benches not run this time are kept from the previous results.
const previous = only.length > 0 && existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')).rows : [];
const rows = [...previous.filter((old) => !measured.some((r) => r.id === old.id)), ...measured].sort((a, b) => a.id - b.id);
const machine = `Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim()}), load average ${load.map((l) => l.toFixed(1)).join(' → ')} over the run`;
process.stdout.write(`\n# issue 12: ${machine}\n${table(rows)}\n`);
writeFileSync(resultsFile, `${JSON.stringify({ generated: new Date().toISOString(), node: process.version, cpus: cpus().length, load_average: load, rows }, null, 2)}\n`);
process.stdout.write(`Wrote ${resultsFile}${failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''}\n`);
process.exit(failed.length > 0 ? 1 : 0);
