/**
 * The dependency rules of the code, checked by `npm run lint:deps` (the first step of
 * `npm test`). Layers, from the bottom: domain (schemas and rules, imports nothing of
 * ours) → config, client → engines (webhooks, terminal, operator) and the sandbox →
 * cli, which only bin/ imports. See README, "How the code is laid out".
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
      comment: 'The HTTP client speaks the service\'s API: it knows the domain and profiles, not the sandbox or the CLI.',
      from: { path: '^src/client/' },
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
