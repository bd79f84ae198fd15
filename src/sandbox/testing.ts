// `pay/testing`: the sandbox in an app's own test process.
export { startSandbox, type StartSandboxOptions, type TestSandbox } from './in-process.js';
