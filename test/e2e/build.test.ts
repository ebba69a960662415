import { existsSync, mkdtempSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { duplicateModules, oneGraphql, RUNTIME_PACKAGES } from '../../scripts/build.js';
import { createWebSocketClient } from '../clients/setups.js';
import { buildExternals, copyPackage } from '../helpers/built-package.js';
import { spawnBuilt, type SpawnedNode } from '../helpers/child-process.js';
import { slowPost } from '../helpers/slow-post.js';

const READY = /GraphQL server ready at (http:\/\/[^\s"]+)/;
const QUERY = '{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { recordCount } datasets { code } }';

/** The production environment an operator would give the image, with the simulator asked for by name. */
function productionEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    NODE_ENV: 'production',
    UPSTREAM: 'simulator',
    HOST: '127.0.0.1',
    PORT: '0',
    ...extra,
  };
}

async function endpointOf(server: SpawnedNode): Promise<URL> {
  for (;;) {
    const match = READY.exec(server.output());
    if (match?.[1] !== undefined) return new URL(match[1]);
    if (server.child.exitCode !== null) throw new Error(`exited before it was ready:\n${server.output()}`);
    await new Promise((resolve) => server.child.stdout.once('data', resolve));
  }
}

/** Posts QUERY and reads the whole answer, so no unread body is left on a connection the shutdown closes. */
async function query(endpoint: URL): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('the build (npm run build)', () => {
  // The image keeps only package.json's dependencies in node_modules (`npm prune --omit=dev`): anything else the
  // bundle left for Node to load would work here, where every package is installed, and fail there.
  it("loads from node_modules only what package.json lists as dependencies, and Node's own modules", () => {
    const externals = buildExternals();
    const builtin = (name: string): boolean => name.startsWith('node:') || builtinModules.includes(name);
    expect(externals.filter((name) => !builtin(name) && !RUNTIME_PACKAGES.includes(name))).toEqual([]);
    // The drivers it imports by name (the SQLite drivers are loaded through createRequire, which esbuild does not see).
    expect(externals).toEqual(expect.arrayContaining(['ioredis', 'pg']));
  });
});

describe('one copy of graphql in the bundle', () => {
  // What the production build did before oneGraphql: graphql-armor's ES build imports `graphql/language/parser` by
  // path, which is graphql's CommonJS file, while `graphql` itself resolves to the .mjs build.
  async function bundledInputs(plugins: Parameters<typeof build>[0]['plugins']): Promise<string[]> {
    const result = await build({
      absWorkingDir: join(import.meta.dirname, '../..'),
      stdin: {
        contents:
          "export { GraphQLError } from 'graphql'; export { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';",
        resolveDir: join(import.meta.dirname, '../..'),
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      mainFields: ['module', 'main'],
      metafile: true,
      logLevel: 'silent',
      plugins,
    });
    return duplicateModules(result.metafile.inputs).map(({ module }) => module);
  }

  it('is what the check finds missing when a package imports graphql by path', async () => {
    expect(await bundledInputs([])).toContain('graphql/error/GraphQLError');
  });

  it('holds once every import of graphql resolves through oneGraphql', async () => {
    expect(await bundledInputs([oneGraphql(join(import.meta.dirname, '../..'))])).toEqual([]);
  });

  it('names each module bundled from two files: two builds or two versions of one package', () => {
    const input = { bytes: 1, imports: [] };
    expect(
      duplicateModules({
        'node_modules/graphql/language/parser.mjs': input,
        'node_modules/graphql/language/parser.js': input,
        'node_modules/a/dist/esm/index.js': input,
        'node_modules/b/node_modules/a/dist/cjs/index.js': input,
        'node_modules/a/dist/esm/other.js': input,
        'node_modules/tslib/tslib.es6.mjs': input,
        'node_modules/x/node_modules/tslib/tslib.es6.js': input,
        'src/main.ts': input,
      }),
    ).toEqual([
      {
        module: 'graphql/language/parser',
        files: ['node_modules/graphql/language/parser.mjs', 'node_modules/graphql/language/parser.js'],
      },
      {
        module: 'a/index',
        files: ['node_modules/a/dist/esm/index.js', 'node_modules/b/node_modules/a/dist/cjs/index.js'],
      },
    ]);
  });
});

describe('the build (npm run build), run as the docs say', () => {
  let packageDirectory: string;
  beforeAll(() => {
    packageDirectory = copyPackage();
  });

  describe('from another working directory, with only what the package ships', () => {
    let server: SpawnedNode;
    let endpoint: URL;
    const elsewhere = mkdtempSync(join(tmpdir(), 'teg-cwd-'));
    beforeAll(async () => {
      server = spawnBuilt(join(packageDirectory, 'dist/main.js'), [], {
        cwd: elsewhere,
        env: productionEnv({ SHUTDOWN_READINESS_DELAY_S: '0' }),
      });
      endpoint = await endpointOf(server);
    }, 60_000);
    afterAll(async () => {
      await server.stop();
    });

    it('answers from its own files (the record shapes), and says the simulator serves', async () => {
      const response = await query(endpoint);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-upstream-simulated')).toBe('true');
      const body = response.body as { data: { datasets: unknown[] }; extensions: { upstream: string } };
      expect(body.data.datasets).toHaveLength(13);
      expect(body.extensions.upstream).toBe('simulated');
    });

    // The bundle keeps each part the server loads on first use in a chunk of its own (scripts/build.ts): a part
    // that found a second copy of graphql, or its files beside the wrong module, would fail only here.
    it('serves the parts it loads on first use: graphql-ws, and the portal with its files', async () => {
      const client = createWebSocketClient(`${endpoint.origin.replace('http', 'ws')}${endpoint.pathname}`);
      try {
        const codes: unknown[][] = [];
        for await (const result of client.iterate<{ datasets: { code: string }[] }>({
          query: '{ datasets { code } }',
        }))
          codes.push([result.errors, result.data?.datasets.length]);
        expect(codes).toEqual([[undefined, 13]]);
      } finally {
        await client.dispose();
      }
      const page = await fetch(new URL('/portal/', endpoint));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script type="module"');
      const script = await fetch(new URL('/portal/app.js', endpoint));
      expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
      expect((await fetch(new URL('/portal/shapes.json', endpoint))).status).toBe(200);
    });

    it('keeps its default SQLite store in the package directory, not the working directory', () => {
      expect(existsSync(join(packageDirectory, 'data/thai-edu-graphql.db'))).toBe(true);
      expect(existsSync(join(elsewhere, 'data'))).toBe(false);
    });

    it('runs the admin and migrate commands from the build', async () => {
      const env = productionEnv();
      const migrate = spawnBuilt(join(packageDirectory, 'dist/cli/migrate.js'), [], { cwd: elsewhere, env });
      expect(await migrate.exited(), migrate.output()).toBe(0);
      expect(migrate.stdout()).toContain('store schema already up to date');
      const admin = spawnBuilt(join(packageDirectory, 'dist/cli/admin.js'), ['list'], { cwd: elsewhere, env });
      expect(await admin.exited(), admin.output()).toBe(0);
      expect(admin.stderr()).toContain(`admin: store sqlite:${join(packageDirectory, 'data/thai-edu-graphql.db')}`);
    });
  });

  describe('`node dist/main.js` in the package directory, stopped with SIGTERM', () => {
    let server: SpawnedNode;
    let endpoint: URL;
    beforeAll(async () => {
      server = spawnBuilt('dist/main.js', [], {
        cwd: packageDirectory,
        env: productionEnv({
          DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-built-')), 'store.db')}`,
          SHUTDOWN_READINESS_DELAY_S: '2',
          SHUTDOWN_GRACE_S: '15',
        }),
      });
      endpoint = await endpointOf(server);
    }, 60_000);

    it('fails /ready first while still serving, then drains what is in flight and exits 0', async () => {
      const inFlight = slowPost(endpoint, QUERY, 'drained-request');
      expect((await query(endpoint)).status).toBe(200);
      server.child.kill('SIGTERM');
      for (;;) {
        const ready = await fetch(new URL('/ready', endpoint));
        const body = (await ready.json()) as { status: string };
        if (body.status === 'shutting_down') {
          expect(ready.status).toBe(503);
          expect(body).toEqual({ status: 'shutting_down', upstream: 'simulated', checks: {} });
          break;
        }
      }
      expect((await query(endpoint)).status).toBe(200);
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (server.output().includes('no new connections')) resolve();
          else server.child.stdout.once('data', check);
        };
        check();
      });
      const finished = await inFlight.finish();
      expect(finished.status).toBe(200);
      expect((JSON.parse(finished.body) as { data: { datasets: unknown[] } }).data.datasets).toHaveLength(13);
      expect(await server.exited()).toBe(0);
      expect(server.output()).toContain('"msg":"stopped"');
    }, 60_000);
  });
});
