import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { spawnNode, type SpawnedNode } from '../helpers/child-process.js';
import { transpiledCheckout } from '../helpers/transpiled-source.js';

const READY = /GraphQL server ready at (http:\/\/[^\s"]+)/;
const UPSTREAM_KEY = 'idle-modules-upstream-key';

/**
 * What a production start with SQLite, no Redis, no OTLP endpoint and no WebSocket client has no use for: each is
 * imported when its setting or its first use asks for it (assemble.ts, websocket.ts, use-portal.ts,
 * use-graphiql-page.ts), and each would cost the idle process its code.
 */
const UNUSED_AT_START = [
  '/node_modules/pg/',
  '/node_modules/ioredis/',
  '/node_modules/@opentelemetry/sdk-trace-base/',
  '/node_modules/@opentelemetry/exporter-trace-otlp-http/',
  '/node_modules/@envelop/opentelemetry/',
  '/node_modules/ws/',
  '/node_modules/graphql-ws/',
  '/node_modules/@graphql-yoga/render-graphiql/',
  '/src/portal/serve.',
  '/src/simulator/',
];

/** A server started with the modules it loads recorded: from the transpiled source, or the build's dist/main.js. */
function recordedStart(entry: 'source' | 'build') {
  const started = {} as { upstream: Simulator; server: SpawnedNode; endpoint: URL };
  const loadedFile = join(mkdtempSync(join(tmpdir(), 'teg-loaded-')), 'loaded.txt');
  const loaded = (): string[] => readFileSync(loadedFile, 'utf8').split('\n');
  const loadedUnder = (path: string): string[] => loaded().filter((url) => url.includes(path));

  beforeAll(async () => {
    started.upstream = await startSimulator({ apiKey: UPSTREAM_KEY });
    const { upstream } = started;
    writeFileSync(loadedFile, '');
    const server = (started.server = spawnNode('test/helpers/loaded-modules-main.ts', [], {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      UPSTREAM_BASE_URL: upstream.url,
      UPSTREAM_API_KEY: UPSTREAM_KEY,
      DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-idle-')), 'main.db')}`,
      SHUTDOWN_READINESS_DELAY_S: '0',
      LOADED_MODULES_FILE: loadedFile,
      LOADED_MODULES_ENTRY: entry,
    }));
    for (;;) {
      const match = READY.exec(server.output());
      if (match?.[1] !== undefined) {
        started.endpoint = new URL(match[1]);
        break;
      }
      if (server.child.exitCode !== null) throw new Error(`exited before it was ready:\n${server.output()}`);
      await new Promise((resolve) => server.child.stdout.once('data', resolve));
    }
  }, 60_000);
  afterAll(async () => {
    await started.server?.stop();
    await started.upstream?.close();
  });
  return { started, loadedUnder };
}

describe('a production start loads only what it uses', () => {
  const { started, loadedUnder } = recordedStart('source');

  it('has not loaded the drivers, tracing, WebSocket, GraphiQL, portal or simulator modules once it serves', async () => {
    const response = await fetch(new URL('/ready', started.endpoint));
    expect(response.status).toBe(200);
    // What it needs is recorded, so an empty record cannot pass for a lean start.
    expect(loadedUnder('/node_modules/graphql-yoga/').length).toBeGreaterThan(0);
    expect(loadedUnder('/node_modules/kysely/').length).toBeGreaterThan(0);
    expect(UNUSED_AT_START.flatMap(loadedUnder)).toEqual([]);
  });

  it('loads ws and graphql-ws with the first WebSocket, and serves it', async () => {
    const socket = new WebSocket(started.endpoint.href.replace(/^http/, 'ws'), 'graphql-transport-ws');
    const acknowledged = new Promise<unknown>((resolve, reject) => {
      socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8'))));
      socket.once('error', reject);
    });
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    expect(await acknowledged).toEqual({ type: 'connection_ack' });
    socket.close();
    expect(loadedUnder('/node_modules/ws/').length).toBeGreaterThan(0);
    expect(loadedUnder('/node_modules/graphql-ws/').length).toBeGreaterThan(0);
  });
});

describe("the build's GraphiQL page", () => {
  const { started, loadedUnder } = recordedStart('build');
  const built = (): string => join(transpiledCheckout(), 'dist');

  it('is in dist/ as HTML, brotli and gzip, with their ETags', () => {
    expect(readdirSync(join(built(), 'graphiql')).sort()).toEqual([
      'etags.json',
      'index.html',
      'index.html.br',
      'index.html.gz',
    ]);
  });

  it('is served from those bytes with their ETag, the renderer never loaded', async () => {
    const etags = JSON.parse(readFileSync(join(built(), 'graphiql', 'etags.json'), 'utf8')) as Record<string, string>;
    for (const [acceptEncoding, encoding, file] of [
      ['gzip, deflate, br', 'br', 'index.html.br'],
      ['gzip', 'gzip', 'index.html.gz'],
    ] as const) {
      const response = await fetch(new URL('/graphql', started.endpoint), {
        headers: { accept: 'text/html', 'accept-encoding': acceptEncoding },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe(etags[encoding]);
      // fetch decodes the body: its decoded length is the page's.
      expect((await response.arrayBuffer()).byteLength).toBe(
        readFileSync(join(built(), 'graphiql', 'index.html')).length,
      );
      expect(readFileSync(join(built(), 'graphiql', file)).length).toBe(Number(response.headers.get('content-length')));
    }
    // The renderer's chunk is in the build (for a dist/ without the page), so its absence here means something.
    const renderChunks = readdirSync(join(built(), 'chunks')).filter((name) => /^graphiql-render-.*\.js$/.test(name));
    expect(renderChunks).toHaveLength(1);
    expect(loadedUnder('/dist/main.js').length).toBe(1);
    expect(loadedUnder('/dist/chunks/graphiql-render-')).toEqual([]);
    expect(loadedUnder('/node_modules/@graphql-yoga/render-graphiql/')).toEqual([]);
  });
});
