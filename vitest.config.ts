import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS for Node and an .mjs build for bundlers; Vite would pick the .mjs for our code
    // while Node loads the CommonJS one for Pothos and yoga, and graphql refuses types from "another realm".
    // Resolving it as Node does keeps a single instance, as in production.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file starts its own simulator and servers on port 0, so files can run side by side.
    pool: 'forks',
    // In CI a JSON report too, from which .ci/run prints the plain "N passed, N failed" line.
    reporters: process.env['CI'] === undefined ? ['default'] : ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
