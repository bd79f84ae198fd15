#!/usr/bin/env node
// The CLI runs from its bundle (scripts/bundle.js). `pay --version` is answered from one
// tiny module, before the program and its imports load; everything else goes to main.
// CommonJS (bin/package.json): the version needs no ES module loader started.
const { asksVersionOnly, printVersion } = require('../dist/bundle/version.cjs');

/**
 * Refuses a Node older than the engines field asks (exit 1): it would fail later, and
 * obscurely, on an API it lacks. True when it refused.
 */
function refusedOldNode() {
  const needed = Number(/\d+/.exec(require('../package.json').engines.node)[0]);
  if (Number(process.versions.node.split('.')[0]) >= needed) return false;
  process.stderr.write(`✗ pay needs Node.js ${needed} or later; this is Node.js ${process.versions.node}. Install Node.js ${needed}, or run pay through npx in its project, which brings its own.\n`);
  process.exitCode = 1;
  return true;
}

if (asksVersionOnly(process.argv.slice(2))) {
  printVersion();
} else if (!refusedOldNode()) {
  // Compiled modules are cached between runs: start-up is most of a short command's time.
  require('node:module').enableCompileCache?.();
  import('../dist/bundle/main.js').then(({ run }) => run());
}
