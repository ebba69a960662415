import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;
if (POSTGRES_URL === undefined) console.warn('store-hung.test.ts skipped: set DATABASE_URL=postgres://… to run it');

const ADMIN_TOKEN = 'store-hung-admin-token-5c1e9a7d30';
const ANONYMOUS = '{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }';
const KEYED = '{ summaryEndpoints { status } }';
// The bounds issue 33 sets: a readiness probe allows 2 s, so /ready and open data must answer well within it, and a
// keyed request must learn that the store is away (a coded 503) rather than hang.
const READY_WITHIN_MS = 1_000;
const ANONYMOUS_WITHIN_MS = 1_000;
const KEYED_WITHIN_MS = 3_000;

/** A schema of this suite's own, reached through `proxy`: DATABASE_URL as the server is given it. */
function storeUrl(proxy: TcpProxy, schema: string): string {
  const url = new URL(POSTGRES_URL ?? '');
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return `${url.toString()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

function post(server: ServerProcess, query: string, authorization?: string): Promise<Response> {
  return fetch(server.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ query }),
  });
}

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function register(server: ServerProcess): Promise<string> {
  const response = await post(
    server,
    'mutation { registerClient(input: { name: "Hung store", contactEmail: "hung@example.org" }) { apiKey } }',
  );
  const answer = (await response.json()) as { data?: { registerClient: { apiKey: string } } };
  if (answer.data === undefined) throw new Error(JSON.stringify(answer));
  return answer.data.registerClient.apiKey;
}

async function readiness(server: ServerProcess): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL('/ready', server.endpoint));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const metricsText = async (server: ServerProcess): Promise<string> =>
  (await fetch(new URL('/metrics', server.endpoint))).text();

describe.runIf(POSTGRES_URL !== undefined)('PostgreSQL hung (every byte held, every connection open)', () => {
  const schema = `teg_hung_${randomBytes(5).toString('hex')}`;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let apiKey: string;
  let useRequestId: string;

  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    proxy = await tcpProxy(Number(new URL(POSTGRES_URL ?? '').port || 5432));
    server = await startServerProcess({ DATABASE_URL: storeUrl(proxy, schema), ADMIN_TOKEN });
    apiKey = await register(server);
    const asked = (await (
      await post(
        server,
        'mutation { requestEndpointUse(input: { endpointId: 85, purpose: "hung store" }) { useRequest { id } } }',
        `Bearer ${apiKey}`,
      )
    ).json()) as { data: { requestEndpointUse: { useRequest: { id: string } } } };
    useRequestId = asked.data.requestEndpointUse.useRequest.id;
    // The anonymous query's payload is read once, so that what is timed below is the server, not the simulator.
    expect((await post(server, ANONYMOUS)).status).toBe(200);
    expect((await post(server, KEYED, `Bearer ${apiKey}`)).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await proxy.close();
    await adminQuery(`drop schema if exists ${schema} cascade`);
  });

  it(
    `/ready and /metrics answer within ${READY_WITHIN_MS} ms (the store degraded), open data within ${ANONYMOUS_WITHIN_MS} ms, a key a coded 503 within ${KEYED_WITHIN_MS} ms`,
    { timeout: 60_000 },
    async () => {
      proxy.freeze();
      try {
        // The first probe after the freeze, then one while the store's own check is still held: neither waits on it.
        for (let probe = 0; probe < 2; probe += 1) {
          const ready = await timed(() => readiness(server));
          expect(ready.ms).toBeLessThan(READY_WITHIN_MS);
          expect(ready.value.status).toBe(200);
        }
        await vi.waitFor(async () => expect((await readiness(server)).body).toMatchObject({ status: 'degraded' }), {
          timeout: 20_000,
          interval: 200,
        });
        const ready = await timed(() => readiness(server));
        expect(ready.ms).toBeLessThan(READY_WITHIN_MS);
        expect(ready.value.body).toMatchObject({ status: 'degraded', checks: { store: { status: 'failing' } } });

        const metrics = await timed(() => metricsText(server));
        expect(metrics.ms).toBeLessThan(READY_WITHIN_MS);
        expect(metrics.value).toMatch(/^dependency_up\{dependency="store"\} 0$/m);
        expect(metrics.value).toMatch(/^instance_ready 1$/m);

        const anonymous = await timed(() => post(server, ANONYMOUS));
        expect(anonymous.ms).toBeLessThan(ANONYMOUS_WITHIN_MS);
        expect(anonymous.value.status).toBe(200);
        expect(((await anonymous.value.json()) as Answer).errors).toBeUndefined();

        // Several at once, more than the pool holds connections: each is bounded, not queued behind the others.
        const keyed = await Promise.all(
          Array.from({ length: 12 }, () =>
            timed(async () => {
              const response = await post(server, KEYED, `Bearer ${apiKey}`);
              return { response, answer: (await response.json()) as Answer };
            }),
          ),
        );
        for (const { value, ms } of keyed) {
          expect(ms).toBeLessThan(KEYED_WITHIN_MS);
          expect(value.response.status).toBe(503);
          expect(value.response.headers.get('retry-after')).toBe('5');
          expect(value.answer.errors?.[0]?.extensions?.code).toBe('STORE_UNAVAILABLE');
        }

        // An operator's token needs no store, so the decision itself meets the hung store: answered 503 in time,
        // and (below) never made behind the caller's back once the store answers again.
        const decision = await timed(() =>
          post(
            server,
            `mutation { reviewUseRequest(input: { id: "${useRequestId}", decision: APPROVE, note: "hung" }) { useRequest { status } } }`,
            `Bearer ${ADMIN_TOKEN}`,
          ),
        );
        expect(decision.ms).toBeLessThan(KEYED_WITHIN_MS);
        expect(decision.value.status).toBe(503);
        expect(((await decision.value.json()) as Answer).errors?.[0]?.extensions?.code).toBe('STORE_UNAVAILABLE');
      } finally {
        proxy.thaw();
      }
      // Back without a restart: the connections held through the freeze are dropped, new ones made.
      await vi.waitFor(async () => expect((await post(server, KEYED, `Bearer ${apiKey}`)).status).toBe(200), {
        timeout: 20_000,
        interval: 200,
      });
      await vi.waitFor(async () => expect((await readiness(server)).body).toMatchObject({ status: 'ready' }), {
        timeout: 20_000,
        interval: 200,
      });
      const after = (await (
        await post(server, '{ myUseRequests { id status } }', `Bearer ${apiKey}`)
      ).json()) as Answer;
      expect(after.data).toEqual({ myUseRequests: [{ id: useRequestId, status: 'PENDING' }] });
    },
  );
});

describe.runIf(POSTGRES_URL !== undefined)('started while PostgreSQL is unreachable', () => {
  const schema = `teg_hung_${randomBytes(5).toString('hex')}`;
  let proxy: TcpProxy;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    proxy = await tcpProxy(Number(new URL(POSTGRES_URL ?? '').port || 5432));
  });
  afterAll(async () => {
    await server?.stop();
    await proxy.close();
    await adminQuery(`drop schema if exists ${schema} cascade`);
  });

  it(
    'starts, serves open data, reports the store down and answers keys 503, then opens and migrates the store once it answers',
    { timeout: 90_000 },
    async () => {
      proxy.freeze();
      server = await startServerProcess({
        DATABASE_URL: storeUrl(proxy, schema),
        ADMIN_TOKEN,
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
      });
      const started = server;
      expect(started.output()).toContain('request-for-use store not open');

      const anonymous = await post(started, ANONYMOUS);
      expect(anonymous.status).toBe(200);
      const answer = (await anonymous.json()) as Answer;
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.['dataset']).toMatchObject({ payload: expect.anything() as unknown });

      const ready = await timed(() => readiness(started));
      expect(ready.ms).toBeLessThan(READY_WITHIN_MS);
      expect(ready.value).toMatchObject({
        status: 200,
        body: { status: 'degraded', checks: { store: { status: 'failing' } } },
      });
      expect(await metricsText(started)).toMatch(/^dependency_up\{dependency="store"\} 0$/m);

      const keyed = await timed(() => post(started, KEYED, `Bearer tegk_${'0'.repeat(43)}`));
      expect(keyed.ms).toBeLessThan(KEYED_WITHIN_MS);
      expect(keyed.value.status).toBe(503);
      expect(((await keyed.value.json()) as Answer).errors?.[0]?.extensions?.code).toBe('STORE_UNAVAILABLE');

      proxy.thaw();
      await started.outputContains('request-for-use store ready');
      expect(started.output()).toContain('store migrations applied');
      const apiKey = await register(started);
      expect((await post(started, KEYED, `Bearer ${apiKey}`)).status).toBe(200);
      await vi.waitFor(async () => expect((await readiness(started)).body).toMatchObject({ status: 'ready' }), {
        timeout: 20_000,
        interval: 200,
      });
    },
  );
});
