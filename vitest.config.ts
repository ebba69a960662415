import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// Files that replace modules with vi.mock: they need a module registry of their own.
const MOCKING_FILES = ['test/records-performance.test.ts', 'test/records-hardening.test.ts', 'test/graphiql-page.test.ts'];

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS for Node and an .mjs build for bundlers; Vite would pick the .mjs for our code
    // while Node loads the CommonJS one for Pothos and yoga, and graphql refuses types from "another realm".
    // Resolving it as Node does keeps a single instance, as in production.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file starts its own simulator and servers on port 0, so files can run side by side.
    pool: 'forks',
    // In CI a JSON report too, from which .ci/run prints the plain "N passed, N failed" line.
    reporters: process.env['CI'] === undefined ? ['default'] : ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...MOCKING_FILES],
          // One module registry per worker, not per file: the server's dependencies (yoga, Pothos, Kysely, undici,
          // zod…) load once per worker instead of once per file, which was most of the suite's time. Files leave
          // no global state behind: stacks, simulators, stores and metric registries are their own, and a file
          // that stubs a clock restores it.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-modules', include: MOCKING_FILES } },
    ],
  },
});
