// The CLI as an esbuild bundle (issue 12, row 5): loading a few chunks costs less start-up
// than resolving and reading the hundreds of modules of dist/ and node_modules a short
// command touches. Run by `npm run build` after tsc, which still checks the types and
// emits the library entries (`pay`, `pay/testing`) and their declarations, unbundled.
//
// - The program (dist/cli/main.js): each noun, and anything else imported with `import()`,
//   stays a chunk of its own (`splitting`), so a command still loads only what it needs.
// - The version module bin/pay.js answers `--version` from, as one file of its own: one
//   module to load, not the chunks it would share with the program; CommonJS, as the bin.
// - Packages: the ones every short command loads are bundled; the others (the sandbox's
//   server, prompts, spinners, tables, colour, the profile writer) load from node_modules
//   when a command asks for them.
// - The bundle sits in dist/bundle/, two folders below the package root as dist/infra/ is:
//   src/infra/package-files.ts finds package.json, bin/, flows/ and completions/ from there.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';

const BUNDLED = ['commander', 'undici', 'zod'];
const OUT = 'dist/bundle';

const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED.includes(name))
  .flatMap((name) => [name, `${name}/*`]);

// The client's undici is the part it uses (scripts/undici-client.js); the sandbox, listen
// and the flows import the whole package.
const clientUndici = {
  name: 'client-undici',
  setup(build) {
    const client = `${sep}dist${sep}client${sep}client.js`;
    build.onResolve({ filter: /^undici$/ }, ({ importer }) => (importer.endsWith(client) ? { path: resolve('scripts/undici-client.js') } : undefined));
  },
};

// Node's builtins, imported or required by the program's modules, come from
// process.getBuiltinModule: the ES module wrapper Node makes of a builtin reads every
// export, and so loads what a short command never uses (node:fs's streams and promises,
// node:util's TextDecoder, node:process's stdin).
//
// These load when first used, not when a chunk naming them loads: a short command never
// touches commander's child_process (executable subcommands), crypto (ids and idempotency
// keys, for writes), fs/promises (the pid lock), tty (chalk's own colour detection), nor
// http2, which undici's HTTP/1.1 client reads only the constants of until a connection
// speaks HTTP/2 (the service's never do): loading it, with tls, costs more than the rest
// of undici. Those constants are the protocol's, copied from the building Node.
const LAZY_BUILTINS = {
  'node:child_process': [],
  'node:crypto': [],
  'node:fs/promises': [],
  'node:http2': ['constants'],
  'node:tty': [],
  'node:util': [],
};
const builtins = {
  name: 'builtins',
  setup(build) {
    build.onResolve({ filter: /^[\w:/]+$/ }, ({ path, kind, importer }) => {
      if (!isBuiltin(path) || (kind !== 'import-statement' && kind !== 'require-call')) return undefined;
      // One for each importer, in its chunk: shared, each would be a chunk of its own to load.
      return { path, namespace: path in LAZY_BUILTINS ? 'lazy-builtin' : 'builtin', suffix: `?${relative('.', importer)}` };
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({ loader: 'js', contents: `module.exports = process.getBuiltinModule(${JSON.stringify(path)});` }));
    // CommonJS, which esbuild reads an import from at each use: each export a getter.
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => {
      const actual = process.getBuiltinModule(path);
      const copied = LAZY_BUILTINS[path];
      const lazy = Object.keys(actual).filter((name) => !copied.includes(name));
      return {
        loader: 'js',
        contents: [
          `for (const name of ${JSON.stringify(lazy)}) {`,
          `  Object.defineProperty(exports, name, { enumerable: true, get: () => process.getBuiltinModule(${JSON.stringify(path)})[name] });`,
          '}',
          ...copied.map((name) => `exports.${name} = ${JSON.stringify(actual[name])};`),
        ].join('\n'),
      };
    });
  },
};

const common = { bundle: true, format: 'esm', platform: 'node', target: 'node24', logLevel: 'warning' };

rmSync(OUT, { recursive: true, force: true });
// CommonJS, as bin/pay.js is: its URL stands in for import.meta's, which only ES modules have.
await build({
  ...common,
  entryPoints: ['dist/cli/version.js'],
  outfile: `${OUT}/version.cjs`,
  format: 'cjs',
  define: { 'import.meta.url': 'moduleUrl' },
  banner: { js: "const moduleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
const { metafile } = await build({
  ...common,
  metafile: true,
  entryPoints: ['dist/cli/main.js'],
  outdir: OUT,
  splitting: true,
  external,
  plugins: [clientUndici, builtins],
});
// import() of a bundled CommonJS package (undici) gives only its `default` here, where Node
// gives the named exports too: a build that would break so at run time fails now.
for (const [file, input] of Object.entries(metafile.inputs)) {
  for (const { kind, path } of input.imports) {
    if (kind === 'dynamic-import' && metafile.inputs[path]?.format === 'cjs') {
      throw new Error(`${file} imports the CommonJS ${path} with import(): import it statically (its chunk is still loaded only with yours).`);
    }
  }
}

// Which modules each chunk holds: the start-up test reads it to tell what a command loaded.
// Not shipped (package.json's files).
writeFileSync(`${OUT}/meta.json`, JSON.stringify(metafile));
