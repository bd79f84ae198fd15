/**
 * Folder cycles, checked over the shipped code only (`npm run lint:deps`, after the
 * module rules of .dependency-cruiser.cjs): tests stand outside the layers, and a test
 * beside its code importing test/support would otherwise tie every folder to every other.
 */
const { options } = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'No folder depends on itself through others (the sandbox\'s store → events → store was one).',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
  ],
  options: { ...options, exclude: { path: '^(dist|dist-check|node_modules|test)/|\\.test\\.ts$' } },
};
