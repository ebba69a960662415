/**
 * `npm run build`: the production build in dist/, what `node dist/main.js` and the image run.
 *
 * esbuild bundles the server, its two operator programs and the MCP stdio command with their dependencies into a few
 * compact ES modules: dist/main.js, dist/cli/migrate.js, dist/cli/admin.js, dist/mcp/stdio.js, and under dist/chunks/ the code they share and every part
 * the server loads only when first used (graphql-ws, the tracing SDK, the portal, the simulator…), since a dynamic
 * import stays a separate chunk. Loading some 1,800 files through Node's module system left the idle process about
 * 35 MB larger (docs/contributors/building.md has the measurements). Type checking is `npm run typecheck`'s.
 *
 * What stays in node_modules, loaded by Node at run time, is what package.json lists as `dependencies` (and
 * `optionalDependencies`): the SQLite drivers, native addons (src/access/sqlite-driver.ts picks one by Node's
 * version), pg and ioredis, loaded only with a PostgreSQL store or REDIS_URL. Every other package is a
 * devDependency, bundled, so a single copy of graphql serves the schema, yoga and graphql-ws alike, and the image's
 * production install (`npm prune --omit=dev --omit=optional`) holds 24 packages where it held 155.
 *
 * "A single copy" is enforced, not assumed: graphql 16 ships each module twice (CommonJS `.js` and ES `.mjs`), and a
 * dependency importing `graphql/language/parser` by path got the CommonJS copy while yoga got the ES one, so every
 * syntax error failed yoga's `instanceof GraphQLError` and was answered 500. `oneGraphql` resolves every import of
 * graphql to its ES modules, and `duplicateModules` fails the build when any package's module is bundled twice.
 */
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import type { PageEncoding } from '../src/server/pages/graphiql-page.js';
import { buildGraphiQLPage } from './graphiql-page-build.js';

const ROOT = resolve(import.meta.dirname, '..');

/** The programs `dist/` holds, by their source: each is written to the same place under dist/. */
export const ENTRY_POINTS = ['src/main.ts', 'src/cli/migrate.ts', 'src/cli/admin.ts', 'src/mcp/stdio.ts'];
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
 * Packages bundled in more than one copy on purpose, each checked to compare nothing by identity across copies (no
 * class tested with instanceof, no Symbol() that is not Symbol.for): the versions npm could not merge.
 */
export const HARMLESS_DUPLICATES: Readonly<Record<string, string>> = {
  // 11 through graphql-yoga and its defer-stream plugin, 12 through @graphql-tools/executor and schema: functions over
  // graphql's types (the one graphql), and its GraphQLError is graphql's.
  '@graphql-tools/utils': 'versions 11 and 12; pure functions over the single graphql',
  // 1.x (ES and CommonJS builds) and 2.x: its fake promises are recognised by Symbol.for, shared by every copy.
  '@whatwg-node/promise-helpers': 'versions 1 and 2; fake promises marked by Symbol.for',
  // 0.0.6 (CommonJS, through @whatwg-node/node-fetch and server) and 0.1.0: disposal symbols are Symbol.for's.
  '@whatwg-node/disposablestack': 'versions 0.0 and 0.1; the disposal symbols come from Symbol.for',
  // 1.x inside tsyringe (the OpenTelemetry SDK's) and 2.x: helper functions, no classes or symbols.
  tslib: 'versions 1 and 2; helper functions only',
};

/** graphql's ES module for an import of `graphql` or `graphql/<path>` (with or without an extension). */
function graphqlModule(graphqlRoot: string, specifier: string): string {
  const path = specifier.replace(/^graphql\/?/, '').replace(/\.m?js$/, '');
  if (path === '') return join(graphqlRoot, 'index.mjs');
  const file = join(graphqlRoot, `${path}.mjs`);
  return existsSync(file) ? file : join(graphqlRoot, path, 'index.mjs');
}

/** Every import of graphql, from our code or any package's, resolves to the one installed package's ES modules. */
export function oneGraphql(root: string): Plugin {
  const graphqlRoot = dirname(createRequire(join(root, 'package.json')).resolve('graphql/package.json'));
  return {
    name: 'one-graphql',
    setup(plugin) {
      plugin.onResolve({ filter: /^graphql(\/.*)?$/ }, ({ path }) => ({ path: graphqlModule(graphqlRoot, path) }));
    },
  };
}

/** A module of a package, as `<package>/<path without extension or build folder>`, for a bundled input path. */
function moduleOf(input: string): { pkg: string; module: string } | undefined {
  const match = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(input);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  const module = match[2]
    .replace(/\.(mjs|cjs|js)$/, '')
    .replace(/^(?:dist\/|lib\/|build\/)?(?:esm|cjs|es|module)\//, '');
  return { pkg: match[1], module };
}

/**
 * The modules the build bundled from more than one file (two versions of a package, or the CommonJS and ES builds of
 * one), outside HARMLESS_DUPLICATES: each as the module and its files. Either copy's classes fail the other's
 * `instanceof`, as graphql's GraphQLError did.
 */
export function duplicateModules(inputs: Metafile['inputs']): { module: string; files: string[] }[] {
  const files = new Map<string, string[]>();
  for (const input of Object.keys(inputs)) {
    const of = moduleOf(input);
    if (of === undefined || of.pkg in HARMLESS_DUPLICATES) continue;
    const key = `${of.pkg}/${of.module}`;
    files.set(key, [...(files.get(key) ?? []), input]);
  }
  return [...files].filter(([, paths]) => paths.length > 1).map(([module, paths]) => ({ module, files: paths }));
}

/**
 * Writes the build to `outdir` (emptied first), from the source in `root`; resolves with what it wrote. The test
 * suites build their own copy this way (test/helpers/transpiled-source.ts), so their server processes run the bundle.
 */
export async function buildProduction(
  root: string,
  outdir: string,
  {
    extraEntryPoints = [],
  }: {
    /**
     * More modules to build as entries of the same bundle, each written to `out` (.js added): the test suites' way
     * into the bundle's server (test/helpers/server-kit.ts). They share its chunks and its resolution of packages.
     */
    extraEntryPoints?: readonly { in: string; out: string }[];
  } = {},
): Promise<{ files: number; codeBytes: number; externals: string[]; graphiqlPage: Record<PageEncoding, number> }> {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [
      ...ENTRY_POINTS.map((entry) => ({ in: entry, out: entry.replace(/^src\//, '').replace(/\.ts$/, '') })),
      ...extraEntryPoints,
    ],
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
    plugins: [oneGraphql(root)],
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
  const duplicates = duplicateModules(result.metafile.inputs);
  if (duplicates.length > 0)
    throw new Error(
      `the build holds ${duplicates.length} module(s) in more than one copy, whose classes and symbols would differ:\n` +
        duplicates.map(({ module, files }) => `  ${module}: ${files.join(', ')}`).join('\n'),
    );
  // The portal's browser code is served as it is, from beside the code (src/package-files.ts's CODE_ROOT).
  cpSync(resolve(root, 'src/portal/assets'), resolve(outdir, 'portal/assets'), { recursive: true });
  // GraphiQL's page, rendered and compressed here rather than by the server (src/server/pages/graphiql-page.ts).
  const graphiqlPage = await buildGraphiQLPage(outdir);
  const outputs = Object.entries(result.metafile.outputs);
  return {
    files: outputs.length,
    codeBytes: outputs.filter(([path]) => path.endsWith('.js')).reduce((sum, [, output]) => sum + output.bytes, 0),
    // What the build's code imports or requires by name and did not bundle: Node's modules and RUNTIME_PACKAGES.
    externals: [
      ...new Set(outputs.flatMap(([, output]) => output.imports.filter((i) => i.external).map((i) => i.path))),
    ].sort(),
    graphiqlPage,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, codeBytes, graphiqlPage } = await buildProduction(ROOT, resolve(ROOT, 'dist'));
  const page = Object.entries(graphiqlPage).map(([encoding, bytes]) => `${encoding} ${(bytes / 1e6).toFixed(2)} MB`);
  process.stdout.write(
    `dist/: ${files} files, ${(codeBytes / 1e6).toFixed(1)} MB of code; GraphiQL's page: ${page.join(', ')}\n`,
  );
}
