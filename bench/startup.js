// Start-up: each command's wall time as a ratio to bare `node -e 0` on the same Node,
// measured in the same run with the runs interleaved, so machine load moves baseline and
// commands alike. Exits 1 when `pay --version` is over its limit (issue 3, acceptance 3).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const VERSION_LIMIT = 1.6;
const node = process.execPath;
const payBin = fileURLToPath(new URL('../bin/pay.js', import.meta.url));

const configDir = mkdtempSync(join(tmpdir(), 'pay-bench-'));
const env = { ...process.env, PAY_CONFIG_DIR: configDir, NO_COLOR: '1' };
for (const key of ['PAY_PROFILE', 'PAY_BASE_URL', 'PAY_ACCOUNT', 'PAY_API_KEY']) delete env[key];

/** A sandbox in the foreground of a child process, like `pay sandbox start` in a terminal. */
async function startSandbox() {
  const child = spawn(node, [payBin, 'sandbox', 'start', '--port', '0', '--memory', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      if (buffer.includes('\n')) resolve(JSON.parse(buffer.slice(0, buffer.indexOf('\n'))));
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with code ${code}`)));
  });
  return { child, ready };
}

function time(args) {
  const started = performance.now();
  const result = spawnSync(node, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const cases = [
  { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
  { name: 'pay --version', args: [payBin, '--version'], limit: VERSION_LIMIT },
  { name: 'pay --help', args: [payBin, '--help'] },
  { name: 'pay customers list --json', args: [payBin, 'customers', 'list', '--json'] },
];

const { child, ready } = await startSandbox();
let failed = false;
try {
  for (let i = 0; i < 10; i++) time([payBin, 'customers', 'create', '--email', `bench${i}@example.com`]);
  // Warm-up: the compile cache and the OS file cache, as after a first run.
  for (const c of cases) time(c.args);
  const samples = cases.map(() => []);
  for (let run = 0; run < RUNS; run++) cases.forEach((c, i) => samples[i].push(time(c.args)));

  const base = median(samples[0]);
  const rows = cases.map((c, i) => {
    const ms = median(samples[i]);
    const ratio = ms / base;
    const verdict = c.limit === undefined ? '' : ratio <= c.limit ? `ok (≤ ${c.limit}x)` : `OVER ${c.limit}x`;
    if (c.limit !== undefined && ratio > c.limit) failed = true;
    return [c.name, ms.toFixed(1), `${ratio.toFixed(2)}x`, verdict];
  });
  const head = ['command', 'median ms', 'ratio', 'limit'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  const out = [
    `Start-up on Node ${process.version}, ${RUNS} interleaved runs each, sandbox at ${ready.base_url}`,
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(configDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
