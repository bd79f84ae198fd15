// Commands (issue 12, rows 5 and 6): each command's wall time against its baseline on the
// same pinned Node, measured in the same run with the runs interleaved, so machine load
// moves baselines and commands alike; the median of BENCH_RUNS runs each (default 21),
// after one warm-up run (the compile cache and the OS file cache, as after a first run).
// Row 5: `pay customers list --json` against a running sandbox (its own process, database
// file, ten customers) vs a bare `node` doing one authenticated fetch of the same URL.
// Row 6: `pay --version` vs `node -e 0`. `pay --help` is shown too. Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node, payBin, startSandbox } from './support/processes.js';
import { report, row } from './support/report.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);

// The bare client: one fetch with the sandbox profile's headers, the body to stdout, as the
// command prints it; a non-2xx answer fails it, as it fails the command.
const bareFetch = `
const res = await fetch(process.env.BENCH_URL, { headers: { 'pay-account': process.env.BENCH_ACCOUNT, 'pay-api-key': process.env.BENCH_API_KEY } });
if (!res.ok) process.exit(1);
process.stdout.write(await res.text());
`;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const dir = mkdtempSync(join(tmpdir(), 'pay-bench-startup-'));
const sandbox = await startSandbox({ name: 'startup', db: join(dir, 'bench.db') });
try {
  for (let i = 0; i < 10; i++) await sandbox.call('POST', '/v1/customers', { email: `bench${i}@example.com` });
  // The URL `pay customers list` asks for: the list endpoint at its default page size.
  const listUrl = `${sandbox.baseUrl}/v1/customers?limit=10`;
  const env = { ...sandbox.env, BENCH_URL: listUrl, BENCH_ACCOUNT: sandbox.account, BENCH_API_KEY: sandbox.apiKey };

  const time = (args) => {
    const started = performance.now();
    const result = spawnSync(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const elapsed = performance.now() - started;
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return { elapsed, stdout: result.stdout.toString() };
  };

  const cases = {
    node: { name: 'node -e 0', args: ['-e', '0'] },
    version: { name: 'pay --version', args: [payBin, '--version'] },
    help: { name: 'pay --help', args: [payBin, '--help'] },
    fetch: { name: 'node: one authenticated fetch', args: ['--input-type=module', '-e', bareFetch] },
    list: { name: 'pay customers list --json', args: [payBin, 'customers', 'list', '--json'] },
  };
  // Both clients must have got the same page, or the comparison is void.
  const listed = JSON.parse(time(cases.list.args).stdout);
  const fetched = JSON.parse(time(cases.fetch.args).stdout);
  if (listed.data.length !== 10 || fetched.data.length !== 10 || listed.data[0].id !== fetched.data[0].id) {
    throw new Error('pay customers list and the bare fetch did not get the same ten customers');
  }
  for (const c of Object.values(cases)) time(c.args); // warm-up
  const samples = Object.fromEntries(Object.keys(cases).map((key) => [key, []]));
  for (let run = 0; run < RUNS; run++) for (const [key, c] of Object.entries(cases)) samples[key].push(time(c.args).elapsed);
  const m = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, median(values)]));

  const width = Math.max(...Object.values(cases).map((c) => c.name.length));
  process.stdout.write(
    [
      `Commands on Node ${process.version}: median of ${RUNS} interleaved runs each, sandbox at ${sandbox.baseUrl} (database file)`,
      ...Object.entries(cases).map(([key, c]) => `  ${c.name.padEnd(width)}  ${m[key].toFixed(1)} ms`),
      '',
    ].join('\n'),
  );
  const listRatio = m.list / m.fetch;
  const versionRatio = m.version / m.node;
  report([
    row({
      id: 5,
      name: '`pay customers list --json` against a running sandbox',
      value: `${m.list.toFixed(0)} ms`,
      metrics: { median_ms: m.list, runs: RUNS },
      baseline: `a bare \`node\` doing one authenticated \`fetch\` of the same URL: ${m.fetch.toFixed(0)} ms`,
      baselineMetrics: { median_ms: m.fetch },
      ratio: listRatio,
      goal: '≤ 1.5×',
      met: listRatio <= 1.5,
      moonshot: '1.2×',
      moonshotMet: listRatio <= 1.2,
    }),
    row({
      id: 6,
      name: '`pay --version`',
      value: `${m.version.toFixed(0)} ms`,
      metrics: { median_ms: m.version, runs: RUNS, help_median_ms: m.help },
      baseline: `\`node -e 0\`: ${m.node.toFixed(0)} ms`,
      baselineMetrics: { median_ms: m.node },
      ratio: versionRatio,
      goal: '≤ 1.25×',
      met: versionRatio <= 1.25,
      moonshot: '1.1×',
      moonshotMet: versionRatio <= 1.1,
    }),
  ]);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
