#!/usr/bin/env node
// The CLI runs from its bundle (scripts/bundle.js). `pay --version` is answered from one
// tiny module, before the program and its imports load; everything else goes to main.
// CommonJS (bin/package.json): the version needs no ES module loader started.
const { asksVersionOnly, printVersion } = require('../dist/bundle/version.cjs');

if (asksVersionOnly(process.argv.slice(2))) {
  printVersion();
} else {
  // Compiled modules are cached between runs: start-up is most of a short command's time.
  require('node:module').enableCompileCache?.();
  import('../dist/bundle/main.js').then(({ run }) => run());
}
