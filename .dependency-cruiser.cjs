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
      comment: 'No module depends on itself through others: each layer stands on the ones below it.',
      from: {},
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
      comment: 'src/domain (schemas, state rules, schedule, test cards) is shared by client and sandbox: it imports nothing of the project but itself and the shared infrastructure (time).',
      from: { path: '^src/domain/' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/(domain|infra)/' },
    },
    {
      name: 'client-imports-only-domain-and-config',
      severity: 'error',
      comment:
        'The HTTP client speaks the service\'s API: it knows the domain and profiles, not the sandbox or the CLI. ' +
        'Its tests may use the public entry points (pay, pay/testing) as an app would.',
      from: { path: '^src/client/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/(client|domain|config|infra)/' },
    },
    {
      name: 'config-imports-only-domain-and-config',
      severity: 'error',
      comment: 'Profiles on disk: below the client and the engines; on the shared infrastructure (the lock its writes take in turn).',
      from: { path: '^src/config/' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/(config|domain|infra)/' },
    },
    {
      name: 'operator-and-flows-stand-on-the-client',
      severity: 'error',
      comment:
        'The batch retry engine (src/operator) and the flow runner (src/flows) drive the service through the client: ' +
        'they import the domain, the client, config and the shared infrastructure, never the sandbox, another engine or the CLI.',
      from: { path: '^src/(operator|flows)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/($1|domain|client|config|infra)/' },
    },
    {
      name: 'engines-import-no-sandbox',
      severity: 'error',
      comment:
        'The engines the CLI runs against any deployment (the reader simulator, the batch retry, flows) know the service ' +
        'only through its API, and share with the sandbox only src/infra.',
      from: { path: '^src/(webhooks|terminal|operator|flows)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'routes-never-import-store',
      severity: 'error',
      comment: 'Routes are HTTP only: parse, call a service through the pipeline, shape the answer. Pages too.',
      from: { path: '^src/sandbox/routes/' },
      to: { path: '^src/sandbox/store/' },
    },
    {
      name: 'store-imports-nothing-above',
      severity: 'error',
      comment: 'Storage owns all SQL and sits at the bottom of the sandbox: no events, services, hubs or routes.',
      from: { path: '^src/sandbox/store/' },
      to: { path: '^(src|bin|test)/', pathNot: '^src/(sandbox/store|domain|infra)/' },
    },
    {
      name: 'services-never-import-hub-or-routes',
      severity: 'error',
      comment: 'Services are the rules; they tell hubs and the delivery worker through sinks the app factory wires up.',
      from: { path: '^src/sandbox/services/' },
      to: { path: '^src/sandbox/(hub|routes|events|pages)/|^src/sandbox/[^/]+\\.ts$' },
    },
    {
      name: 'infra-imports-nothing-of-the-project',
      severity: 'error',
      comment: 'Shared infrastructure (SQLite, webhook signing and posting, pid locks, time) is below everything; its tests may use the shared test support (src-imports-no-tests keeps it out of what ships).',
      from: { path: '^src/infra/' },
      to: { path: '^(src|bin|test)/', pathNot: '^(src/infra|test/support)/' },
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
