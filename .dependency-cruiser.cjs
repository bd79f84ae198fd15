/**
 * The dependency rules of the code, checked by `npm run lint:deps` (the first step of
 * `npm test`). Layers, from the bottom: domain (schemas and rules, imports nothing of
 * ours) → config, client (and the library entry src/index.ts over it) → engines
 * (webhooks, terminal, operator, flows) and the sandbox → cli, which only bin/ imports.
 * See README, "How the code is laid out".
 *
 * TypeScript 7 has no compiler API yet that dependency-cruiser can use, so sources are
 * parsed with swc (`parser: 'swc'`), which keeps type-only and dynamic imports.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No module depends on itself through others: each layer stands on the ones below it. ' +
        'The sandbox\'s own cycles (services/context ↔ webhook-endpoints, events/delivery ↔ sandbox) are being taken apart; then the pathNot goes.',
      from: { pathNot: '^src/sandbox/' },
      to: { circular: true },
    },
    {
      name: 'only-bin-imports-cli',
      severity: 'error',
      comment: 'The CLI is the top layer: nothing imports src/cli/ but bin/, the CLI itself and its tests (the sandbox and the engines included: they throw their own errors).',
      from: { pathNot: '^(bin|src/cli|test)/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'domain-imports-only-domain',
      severity: 'error',
      comment: 'src/domain (schemas, state rules, schedule, test cards) is shared by client and sandbox: it imports nothing of the project but itself.',
      from: { path: '^src/domain/' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/domain/' },
    },
    {
      name: 'client-imports-only-domain-and-config',
      severity: 'error',
      comment:
        'The HTTP client speaks the service\'s API: it knows the domain and profiles, not the sandbox or the CLI. ' +
        'Its tests may use the public entry points (pay, pay/testing) as an app would.',
      from: { path: '^src/client/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/(client|domain|config)/' },
    },
    {
      name: 'config-imports-only-domain-and-config',
      severity: 'error',
      comment: 'Profiles on disk: below the client and the engines.',
      from: { path: '^src/config/' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/(config|domain)/' },
    },
    {
      name: 'operator-and-flows-stand-on-the-client',
      severity: 'error',
      comment:
        'The batch retry engine (src/operator) and the flow runner (src/flows) drive the service through the client: ' +
        'they import the domain, the client and config, never the sandbox, another engine or the CLI.',
      from: { path: '^src/(operator|flows)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/($1|domain|client|config)/' },
    },
    {
      name: 'engines-import-no-sandbox',
      severity: 'error',
      comment:
        'The engines the CLI runs against any deployment (the reader simulator, the batch retry, flows) know the service ' +
        'only through its API. src/webhooks joins this rule once the forwarder\'s pid check leaves sandbox/daemon for the shared infrastructure.',
      from: { path: '^src/(terminal|operator|flows)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'sandbox-imports-no-cli-engines',
      severity: 'error',
      comment: 'The sandbox is the service: it shares webhook signing and posting with listen, but never runs the simulator, the batch retry or flows.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/(terminal|operator|flows)/' },
    },
    {
      name: 'library-entry-is-client-and-domain',
      severity: 'error',
      comment: 'The library (`import { createClient } from \'pay\'`, src/index.ts) is the typed client and the domain\'s types: no CLI, no sandbox, no engine.',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/(client|domain)/' },
    },
    {
      name: 'src-imports-no-tests',
      severity: 'error',
      comment: 'What ships in dist/ does not import test helpers.',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^test/' },
    },
  ],
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|dist-check|node_modules)/' },
    moduleSystems: ['es6'],
  },
};
