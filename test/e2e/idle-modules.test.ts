import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { spawnNode, type SpawnedNode } from '../helpers/child-process.js';

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

describe('a production start loads only what it uses', () => {
  let upstream: Simulator;
  let server: SpawnedNode;
  let endpoint: URL;
  const loadedFile = join(mkdtempSync(join(tmpdir(), 'teg-loaded-')), 'loaded.txt');
  const loaded = (): string[] => readFileSync(loadedFile, 'utf8').split('\n');
  const loadedUnder = (path: string): string[] => loaded().filter((url) => url.includes(path));

  beforeAll(async () => {
    upstream = await startSimulator({ apiKey: UPSTREAM_KEY });
    writeFileSync(loadedFile, '');
    server = spawnNode('test/helpers/loaded-modules-main.ts', [], {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      UPSTREAM_BASE_URL: upstream.url,
      UPSTREAM_API_KEY: UPSTREAM_KEY,
      DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-idle-')), 'main.db')}`,
      SHUTDOWN_READINESS_DELAY_S: '0',
      LOADED_MODULES_FILE: loadedFile,
    });
    for (;;) {
      const match = READY.exec(server.output());
      if (match?.[1] !== undefined) {
        endpoint = new URL(match[1]);
        break;
      }
      if (server.child.exitCode !== null) throw new Error(`exited before it was ready:\n${server.output()}`);
      await new Promise((resolve) => server.child.stdout.once('data', resolve));
    }
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await upstream.close();
  });

  it('has not loaded the drivers, tracing, WebSocket, GraphiQL, portal or simulator modules once it serves', async () => {
    const response = await fetch(new URL('/ready', endpoint));
    expect(response.status).toBe(200);
    // What it needs is recorded, so an empty record cannot pass for a lean start.
    expect(loadedUnder('/node_modules/graphql-yoga/').length).toBeGreaterThan(0);
    expect(loadedUnder('/node_modules/kysely/').length).toBeGreaterThan(0);
    expect(UNUSED_AT_START.flatMap(loadedUnder)).toEqual([]);
  });

  it('loads ws and graphql-ws with the first WebSocket, and serves it', async () => {
    const socket = new WebSocket(endpoint.href.replace(/^http/, 'ws'), 'graphql-transport-ws');
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
