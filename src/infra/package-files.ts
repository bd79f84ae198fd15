// The package's own files (package.json, bin/, flows/, completions/), found from this
// module's place two folders below the package root: dist/infra/ here, dist/bundle/ in
// the CLI's bundle (scripts/bundle.js keeps it there), so one rule serves both.

/** The URL of a file or folder of the package, by its path from the package root. */
export const packageFile = (path: string): URL => new URL(`../../${path}`, import.meta.url);
