import type { Server } from 'node:http';
import { once } from 'node:events';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionsPerPeer, loadConfig } from '../../src/config.js';
import { assemble, type Assembled } from '../../src/server/assemble.js';
import { createHttpServer } from '../../src/server/transport/http-server.js';
import { subscribe } from '../helpers/sse.js';
import { startStack, type Stack } from '../helpers/stack.js';

const QUERY = '{ datasets { code } }';

async function post(endpoint: string, body: unknown): Promise<Response> {
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify(body),
  });
}

describe('while the embedded simulator serves (no UPSTREAM_BASE_URL)', () => {
  let server: Assembled;
  let listener: Server;
  let base: string;
  beforeAll(async () => {
    const loaded = loadConfig({ DATABASE_URL: 'sqlite::memory:', WATCH_INTERVAL_S: '0' });
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    server = await assemble(loaded.config, { logger: pino({ level: 'silent' }) });
    listener = createHttpServer(
      server.app,
      { ...loaded.config.connections, maxConnectionsPerPeer: connectionsPerPeer(loaded.config) },
      server.metrics,
    );
    listener.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    const address = listener.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  afterAll(async () => {
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
    await server.close();
  });

  it('says so on every answer: header and extensions, from yoga and from the response cache alike', async () => {
    const url = `${base}/graphql?query=${encodeURIComponent(QUERY)}`;
    for (const attempt of ['miss', 'the miss that stores it', 'hit']) {
      const response = await fetch(url, { headers: { accept: 'application/graphql-response+json' } });
      expect(response.status, attempt).toBe(200);
      expect(response.headers.get('x-upstream-simulated'), attempt).toBe('true');
      expect(((await response.json()) as { extensions?: unknown }).extensions, attempt).toEqual({
        upstream: 'simulated',
      });
    }
    expect(await server.metrics.registry.getSingleMetricAsString('graphql_response_cache_total')).toMatch(
      /result="hit"[^\n]* [1-9]/,
    );
  });

  it('marks refusals, each result of a batch and each event of a stream', async () => {
    const refused = await post(`${base}/graphql`, { query: '{ nope }' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-upstream-simulated')).toBe('true');
    expect(((await refused.json()) as { extensions?: unknown }).extensions).toEqual({ upstream: 'simulated' });

    const batch = (await (await post(`${base}/graphql`, [{ query: QUERY }, { query: QUERY }])).json()) as {
      extensions?: unknown;
    }[];
    expect(batch.map((result) => result.extensions)).toEqual([{ upstream: 'simulated' }, { upstream: 'simulated' }]);

    const stream = await subscribe(
      `${base}/graphql`,
      '{ datasets { code } ... @defer { dataset(code: V10_DUPWITH) { code } } }',
    );
    expect((await stream.next()).extensions).toEqual({ upstream: 'simulated' });
    stream.close();
  });

  it('says so in /ready and in the metric upstream_simulated', async () => {
    const ready = await fetch(`${base}/ready`);
    expect(ready.headers.get('x-upstream-simulated')).toBe('true');
    expect(await ready.json()).toMatchObject({ status: 'ready', upstream: 'simulated' });
    expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^upstream_simulated 1$/m);
  });
});

describe('with a configured upstream', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  it('says nothing of a simulator, and upstream_simulated is 0', async () => {
    const response = await stack.post({ query: QUERY });
    expect(response.headers.has('x-upstream-simulated')).toBe(false);
    expect(((await response.json()) as { extensions?: unknown }).extensions).toBeUndefined();
    expect(await (await stack.app.fetch('http://localhost/metrics')).text()).toMatch(/^upstream_simulated 0$/m);
  });
});
