/**
 * `npm run build`: the production build in dist/, what `node dist/main.js` and the image run.
 *
 * esbuild bundles the server and its two operator programs with their dependencies into a few compact ES modules:
 * dist/main.js, dist/cli/migrate.js, dist/cli/admin.js, and under dist/chunks/ the code they share and every part
 * the server loads only when first used (graphql-ws, the tracing SDK, the portal, the simulator…), since a dynamic
 * import stays a separate chunk. Loading some 1,800 files through Node's module system left the idle process about
 * 35 MB larger (docs/contributors/building.md has the measurements). Type checking is `npm run typecheck`'s.
 *
 * What stays in node_modules, loaded by Node at run time, is what package.json lists as `dependencies` (and
 * `optionalDependencies`): the SQLite drivers, native addons (src/access/sqlite-driver.ts picks one by Node's
 * version), pg and ioredis, loaded only with a PostgreSQL store or REDIS_URL. Every other package is a
 * devDependency, bundled, so a single copy of graphql serves the schema, yoga and graphql-ws alike, and the image's
 * production install (`npm prune --omit=dev --omit=optional`) holds 24 packages where it held 155.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/** The programs `dist/` holds, by their source: each is written to the same place under dist/. */
export const ENTRY_POINTS = ['src/main.ts', 'src/cli/migrate.ts', 'src/cli/admin.ts'];
const MANIFEST = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};
/**
 * Native addons that bundled packages try to load and do without when they are not installed (none is): pg's
 * pg-native, and ws's bufferutil and utf-8-validate.
 */
const OPTIONAL_ADDONS = ['pg-native', 'bufferutil', 'utf-8-validate'];
/** Loaded from node_modules at run time, if at all: everything else is in the bundle. */
export const RUNTIME_PACKAGES = [
  ...Object.keys(MANIFEST.dependencies ?? {}),
  ...Object.keys(MANIFEST.optionalDependencies ?? {}),
  ...OPTIONAL_ADDONS,
];

/**
 * Writes the build to `outdir` (emptied first), from the source in `root`; resolves with what it wrote. The test
 * suites build their own copy this way (test/helpers/transpiled-source.ts), so their server processes run the bundle.
 */
export async function buildProduction(
  root: string,
  outdir: string,
): Promise<{ files: number; codeBytes: number; externals: string[] }> {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRY_POINTS,
    outbase: 'src',
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: RUNTIME_PACKAGES,
    // A package with both builds is taken as its ES modules (its "module" entry) where Node would load its CommonJS
    // "main": a CommonJS module imported lazily stays a chunk whose only export is the default, so named imports
    // of it (the OpenTelemetry SDK's classes) would be undefined. Packages with "exports" are resolved by those.
    mainFields: ['module', 'main'],
    // Bundled CommonJS packages call require() for Node's built-in modules; an ES module has none of its own.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    // Whitespace and syntax minified, names left as they are: logs name an error by its class (`err.type`) and stack
    // traces name functions. Mangled names would save no measurable memory, and esbuild's keepNames, which restores
    // them, defines `name` on every function a request creates: about 30 % fewer misses a second, measured.
    minifyWhitespace: true,
    minifySyntax: true,
    // Stack traces name the source files and lines with NODE_OPTIONS=--enable-source-maps (docs/contributors/building.md).
    sourcemap: 'linked',
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  // The portal's browser code is served as it is, from beside the code (src/package-files.ts's CODE_ROOT).
  cpSync(resolve(root, 'src/portal/assets'), resolve(outdir, 'portal/assets'), { recursive: true });
  const outputs = Object.entries(result.metafile.outputs);
  return {
    files: outputs.length,
    codeBytes: outputs.filter(([path]) => path.endsWith('.js')).reduce((sum, [, output]) => sum + output.bytes, 0),
    // What the build's code imports or requires by name and did not bundle: Node's modules and RUNTIME_PACKAGES.
    externals: [
      ...new Set(outputs.flatMap(([, output]) => output.imports.filter((i) => i.external).map((i) => i.path))),
    ].sort(),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, codeBytes } = await buildProduction(ROOT, resolve(ROOT, 'dist'));
  process.stdout.write(`dist/: ${files} files, ${(codeBytes / 1e6).toFixed(1)} MB of code\n`);
}
