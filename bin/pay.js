#!/usr/bin/env node
// Compiled modules are cached between runs: start-up is most of a short command's time.
import module from 'node:module';

module.enableCompileCache?.();
const { run } = await import('../dist/cli/main.js');
await run();
