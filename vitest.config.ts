import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// Files that replace modules with vi.mock need a module registry of their own: found by reading them, so a new one
// cannot be forgotten here.
const MOCKING_FILES = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts') && readFileSync(join('test', file), 'utf8').includes('vi.mock('))
  .map((file) => join('test', file));

// The suites that speak to the server as its clients do run on the production build (test/helpers/server-kit.ts):
// a defect of the bundle alone (two copies of a package, a module resolved otherwise) fails them. The others run
// `src/`, cheaper to load, and their processes (start-up, shutdown, migrations) run the build anyway
// (docs/contributors/testing.md says which and why).
const BUILD_SUITES = [
  'test/clients/**/*.test.ts',
  'test/graphql-over-http.test.ts',
  'test/fuzz.test.ts',
  'test/incremental-delivery.test.ts',
  'test/front-door.test.ts',
  'test/operation-limits.test.ts',
  'test/error-answers-not-cached.test.ts',
  'test/language.test.ts',
  'test/bad-documents.test.ts',
  'test/persisted-operations.test.ts',
  'test/key-life-cycle-http.test.ts',
  'test/websocket-attacks.test.ts',
  'test/federation-gateway.test.ts',
  'test/hardening-amplification.test.ts',
  'test/schema-attacks.test.ts',
  'test/erasure-files.test.ts',
  'test/transports-table.test.ts',
  'test/pipeline-order.test.ts',
  'test/downloads.test.ts',
  'test/catalogue-harvest.test.ts',
];

// The plugins tested alone: the `unit` project.
const UNIT_SUITES = 'test/plugins/**/*.test.ts';

// Once per run, for the projects whose suites start servers and processes: the source transpiled and built for the
// processes they spawn (test/helpers/transpiled-source.ts), and the end of any child process a test started that
// nothing else ended (test/helpers/child-process.ts).
const GLOBAL_SETUP = ['test/helpers/global-setup.ts'];

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS for Node and an .mjs build for bundlers; Vite would pick the .mjs for our code
    // while Node loads the CommonJS one for Pothos and yoga, and graphql refuses types from "another realm".
    // Resolving it as Node does keeps a single instance, as in production.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    testTimeout: 20_000,
    // The modules vitest transforms (src/ and test/ from TypeScript) are kept in node_modules/.experimental-vitest-cache,
    // keyed by content and configuration, so a run after the first transforms only what changed (about 7 s of CPU
    // less over the suite here). `vitest --clearCache` empties it; `npm ci` replaces node_modules and it with them.
    experimental: { fsModuleCache: true },
    hookTimeout: 30_000,
    // Each file starts its own simulator and servers on port 0, so files can run side by side.
    pool: 'forks',
    // Most of the suite waits on sockets, spawned processes and the simulator rather than computing: four workers
    // keep both cores of a CI machine busy (measured here: 70 s with vitest's default of two, 42 s with four).
    maxWorkers: 4,
    // In CI a JSON report too, from which .ci/run prints the plain "N passed, N failed" line.
    reporters: process.env['CI'] === undefined ? ['default'] : ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          // Each plugin alone on a small yoga (docs/contributors/testing.md): no server, no simulator, no spawned
          // process, so none of the global set-up's build either; `npx vitest run --project unit` runs them alone.
          name: 'unit',
          include: [UNIT_SUITES],
          exclude: [...configDefaults.exclude, ...MOCKING_FILES],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...MOCKING_FILES, ...BUILD_SUITES, UNIT_SUITES],
          globalSetup: GLOBAL_SETUP,
          // One module registry per worker, not per file: the server's dependencies (yoga, Pothos, Kysely, undici,
          // zod…) load once per worker instead of once per file, which was most of the suite's time. Files leave
          // no global state behind: stacks, simulators, stores and metric registries are their own, and a file
          // that stubs a clock restores it.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'build',
          include: BUILD_SUITES,
          globalSetup: GLOBAL_SETUP,
          isolate: false,
          env: { TEG_TEST_SERVER_BUILD: '1' },
          // The bundle is loaded by Node as `node dist/main.js` loads it, not transformed by vitest.
          server: { deps: { external: [/teg-transpiled-[^/]*\/dist\//] } },
        },
      },
      { extends: true, test: { name: 'own-modules', include: MOCKING_FILES, globalSetup: GLOBAL_SETUP } },
    ],
  },
});
