/**
 * Where the package's own files are, found the same way from `src/` (tsx, the tests), from the test suites'
 * transpiled copy, and from the bundle `npm run build` writes to `dist/`, where this code sits in `dist/main.js` or
 * in a chunk under `dist/chunks/`: a path counted up from this module's own place would hold in only some of these.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const THIS_FILE = fileURLToPath(import.meta.url);

/** The nearest directory above `from` that holds a package.json, as Node itself finds a module's package. */
function nearestPackage(from: string): string {
  for (let directory = dirname(from); ; directory = dirname(directory)) {
    if (existsSync(join(directory, 'package.json'))) return directory;
    if (dirname(directory) === directory) throw new Error(`no package.json above ${from}`);
  }
}

/**
 * The package's own directory, where package.json is. Relative paths in settings (the default SQLite store, the
 * persisted-operations manifest) resolve from here, never from the working directory, so the process reads and
 * writes the same files wherever it is started.
 */
export const PACKAGE_ROOT = nearestPackage(THIS_FILE);

/** The directory of the code that runs: `src/` in a checkout, `dist/` in the build. */
export const CODE_ROOT = join(PACKAGE_ROOT, relative(PACKAGE_ROOT, THIS_FILE).split(sep)[0] ?? '');
