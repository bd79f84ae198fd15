#!/usr/bin/env node
// The CLI runs from its bundle (scripts/bundle.js). `pay --version` is answered from one
// tiny module, before the program and its imports load; everything else goes to main.
import { asksVersionOnly, printVersion } from '../dist/bundle/version.js';

if (asksVersionOnly(process.argv.slice(2))) {
  printVersion();
} else {
  // Compiled modules are cached between runs: start-up is most of a short command's time.
  const { default: module } = await import('node:module');
  module.enableCompileCache?.();
  const { run } = await import('../dist/bundle/main.js');
  await run();
}
