import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// The suites are laid out by how they run (docs/contributors/testing.md): each folder of test/ is a vitest project.
//   test/unit/      plugins on a small yoga and pure engines: no server, no simulator, no spawned process
//   test/server/    the server in process, from src/, against the simulator
//   test/contract/  what a client sees on the wire, on the production bundle (with test/clients/)
//   test/e2e/       Chromium, spawned production processes and external tools: `npm run test:e2e`
// `npm test` runs the first three (and own-modules, below); `npm run test:e2e` the last.
const UNIT = 'test/unit/**/*.test.ts';
const SERVER = 'test/server/**/*.test.ts';
const CONTRACT = ['test/contract/**/*.test.ts', 'test/clients/**/*.test.ts'];
const E2E = 'test/e2e/**/*.test.ts';

// In unit/ and server/, a file that replaces modules with vi.mock needs a module registry of its own (the projects
// above share one per worker): found by reading those two folders, so a new one cannot be forgotten here.
const mockingFiles = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && readFileSync(join(folder, file), 'utf8').includes('vi.mock('))
    .map((file) => join(folder, file));
const OWN_MODULES = [...mockingFiles('test/unit'), ...mockingFiles('test/server')];

// Once per run, for the projects whose suites start servers and processes: the source transpiled and built for the
// processes they spawn and for the contract suites' in-process bundle (test/helpers/transpiled-source.ts), and the
// end of any child process a test started that nothing else ended (test/helpers/child-process.ts).
const GLOBAL_SETUP = ['test/helpers/global-setup.ts'];

// The contract suites load the server from the run's production build (test/helpers/server-kit.ts), as Node loads
// `node dist/main.js`, not transformed by vitest.
const ON_THE_BUILD = {
  env: { TEG_TEST_SERVER_BUILD: '1' },
  server: { deps: { external: [/teg-transpiled-[^/]*\/dist\//] } },
};

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
    // One module registry per worker, not per file, in every project but own-modules: the server's dependencies
    // (yoga, Pothos, Kysely, undici, zod…) load once per worker instead of once per file, which was most of the
    // suite's time. Files leave no global state behind: stacks, simulators, stores and metric registries are their
    // own, and a file that stubs a clock restores it.
    isolate: false,
    // `npm test` names the first four (`--project unit --project server …`), `npm run test:e2e` the last; a file
    // named on the command line runs whichever project holds it.
    projects: [
      {
        extends: true,
        // No server, no simulator, no spawned process, so none of the global set-up's build either:
        // `npx vitest run --project unit` runs them alone.
        test: { name: 'unit', include: [UNIT], exclude: [...configDefaults.exclude, ...OWN_MODULES] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: [SERVER],
          exclude: [...configDefaults.exclude, ...OWN_MODULES],
          globalSetup: GLOBAL_SETUP,
        },
      },
      { extends: true, test: { name: 'contract', include: CONTRACT, globalSetup: GLOBAL_SETUP, ...ON_THE_BUILD } },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES, globalSetup: GLOBAL_SETUP, isolate: true } },
      { extends: true, test: { name: 'e2e', include: [E2E], globalSetup: GLOBAL_SETUP } },
    ],
  },
});
