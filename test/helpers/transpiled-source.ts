import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform, type TransformOptions } from 'esbuild';
import { buildProduction, ENTRY_POINTS } from '../../scripts/build.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the transpiled checkout is, for the processes the suites spawn (set by global-setup.ts). */
export const TRANSPILED_SOURCE_VARIABLE = 'TEG_TEST_TRANSPILED_SOURCE';

/** The test helpers, transpiled beside `src/`: some are entry points or loader hooks of the spawned processes. */
const HELPERS = 'test/helpers';

/** The run's transpiled checkout, as the global set-up made it (global-setup.ts). */
export function transpiledCheckout(): string {
  const directory = process.env[TRANSPILED_SOURCE_VARIABLE];
  if (directory === undefined) throw new Error(`${TRANSPILED_SOURCE_VARIABLE} is unset: run the suites with vitest`);
  return directory;
}

/** What the run's production build left for Node to load (scripts/build.ts), beside its dist/. */
export const BUILD_EXTERNALS = 'build-externals.json';

/** Where the run's production build writes server-kit-entry.ts (the in-process stack's way into it), under dist/. */
export const SERVER_KIT_BUNDLE = 'testing/server-kit.js';

/** The in-process stack's way into the bundle (server-kit.ts), built with it. */
const SERVER_KIT_ENTRY = `${HELPERS}/server-kit-entry.ts`;

/** The guard every spawned process imports first. */
export const EXIT_WITH_PARENT = `${HELPERS}/exit-with-parent`;

// What tsx gives esbuild for each file it loads (tsx's dist/index-*.mjs), so the code that runs is the code tsx runs.
const TSX_OPTIONS: TransformOptions = {
  loader: 'ts',
  format: 'esm',
  target: `node${process.versions.node}`,
  keepNames: true,
  sourcemap: 'inline',
  tsconfigRaw: readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'),
};

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(entry.parentPath, entry.name)) : [join(entry.parentPath, entry.name)],
  );
}

async function transpile(from: string, to: string): Promise<void> {
  const { code } = await transform(readFileSync(from, 'utf8'), { ...TSX_OPTIONS, sourcefile: from });
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, code);
}

/**
 * The checkout with `src/` transpiled to JavaScript once per run, file by file as tsx would, in a new directory
 * whose other entries (package.json, schema/, node_modules/, .git…) are links to this checkout's: paths that the code
 * finds relative to its own files resolve as they do from `src/`. A spawned `node src/main.js` there runs the same
 * code as `tsx src/main.ts` without tsx's loader, which resolves and loads every module of every dependency through
 * its hooks: about a second of CPU per process, and the suites start some twenty. Its `dist/` is the production
 * build of the same source (scripts/build.ts), which the suites' server and command-line processes run
 * (`runnableEntry`): a bundle starts on 0.5 s of CPU where the transpiled files take 1.4. It is also the build the
 * build suite ships and checks (built-package.ts), so a run builds once.
 */
export async function transpileSource(): Promise<{ directory: string; remove(): void }> {
  const directory = mkdtempSync(join(tmpdir(), 'teg-transpiled-'));
  for (const entry of readdirSync(ROOT))
    if (entry !== 'src' && entry !== 'test' && entry !== 'dist') symlinkSync(join(ROOT, entry), join(directory, entry));
  const sources = filesUnder(join(ROOT, 'src'));
  await Promise.all([
    buildProduction(ROOT, join(directory, 'dist'), {
      extraEntryPoints: [{ in: SERVER_KIT_ENTRY, out: SERVER_KIT_BUNDLE.replace(/\.js$/, '') }],
    }).then(({ externals }) => writeFileSync(join(directory, BUILD_EXTERNALS), JSON.stringify(externals))),
    ...sources.map(async (file) => {
      const path = relative(ROOT, file);
      if (file.endsWith('.ts') && !file.endsWith('.d.ts'))
        await transpile(file, join(directory, path.replace(/\.ts$/, '.js')));
      else {
        mkdirSync(dirname(join(directory, path)), { recursive: true });
        symlinkSync(file, join(directory, path));
      }
    }),
    ...readdirSync(join(ROOT, HELPERS))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => transpile(join(ROOT, HELPERS, name), join(directory, HELPERS, name.replace(/\.ts$/, '.js')))),
  ]);
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/**
 * What a spawned process runs for a TypeScript entry of this repository, in the transpiled checkout: a program the
 * production build holds (src/main.ts, src/cli/migrate.ts, src/cli/admin.ts) as the build has it, as operators run
 * it, unless `fromSource`; anything else (a test helper, the simulator) as its transpiled file.
 */
export function runnableEntry(transpiled: string, entry: string, fromSource = false): string {
  return ENTRY_POINTS.includes(entry) && !fromSource
    ? join(transpiled, 'dist', entry.replace(/^src\//, '').replace(/\.ts$/, '.js'))
    : join(transpiled, entry.replace(/\.ts$/, '.js'));
}
