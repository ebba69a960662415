import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_CODES } from '../../src/catalogue.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { runToExit, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const QUERY = `{
  datasets { code apiUrl }
  dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload(query: { ACADEMIC_YEAR: "2566" }) }
  summaryEndpoints { endpointId apiUrl status }
}`;

interface QueryResult {
  data: {
    datasets: { code: string; apiUrl: string }[];
    dataset: { payload: { data: { ACADEMIC_YEAR: string }[] } };
    summaryEndpoints: { id: number; apiUrl: string; status: string }[];
  };
  errors?: unknown[];
}

async function query(endpoint: string): Promise<QueryResult> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as QueryResult;
}

describe('npm start (src/main.ts) with no configuration', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // The source, as `npm start` runs it; the other suites' server processes run the build.
    server = await startServerProcess({ UPSTREAM_API_KEY: 'process-secret-key-7d1e' }, { fromSource: true });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('starts the embedded simulator, says so, and answers the contract from it', async () => {
    expect(server.output()).toContain('started the embedded simulated upstream');
    const result = await query(server.endpoint);
    expect(result.errors).toBeUndefined();
    expect(result.data.datasets).toHaveLength(13);
    expect(result.data.datasets[0]?.apiUrl).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/services\/v1\/api\/ODS_COUNT_TEACHER_BY_YEAR$/,
    );
    expect(result.data.dataset.payload.data.every((row) => row.ACADEMIC_YEAR === '2566')).toBe(true);
  });

  it('serves /health and /ready', async () => {
    const base = new URL(server.endpoint);
    expect((await fetch(new URL('/health', base))).status).toBe(200);
    expect((await fetch(new URL('/ready', base))).status).toBe(200);
  });

  it('never writes the upstream key to its log', () => {
    expect(server.output()).not.toContain('process-secret-key-7d1e');
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const code = await server.stop('SIGTERM');
    expect(code).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
  });
});

describe('npm start pointed at another upstream (UPSTREAM_BASE_URL)', () => {
  let upstream: Simulator;
  let server: ServerProcess;
  beforeAll(async () => {
    upstream = await startSimulator({ apiKey: 'other-upstream-key', seed: 20_240_601 });
    server = await startServerProcess({
      UPSTREAM_BASE_URL: `${upstream.url}/`,
      UPSTREAM_API_KEY: 'other-upstream-key',
    });
  });
  afterAll(async () => {
    await server.stop();
    await upstream.close();
  });

  it('starts no simulator, reads that upstream, and builds apiUrl on its base', async () => {
    expect(server.output()).not.toContain('embedded simulated upstream');
    upstream.resetRequests();
    const result = await query(server.endpoint);
    expect(upstream.requestCount('ODS_COUNT_TEACHER_BY_YEAR')).toBe(1);
    expect(result.data.datasets.map((d) => d.apiUrl)).toContain(`${upstream.url}/services/v1/api/V10_DUPWITH`);
    expect(result.data.summaryEndpoints[0]?.apiUrl).toBe(
      `${upstream.url}/services/api/ods_count_school_by_jurisdiction/83`,
    );
  });
});

describe('npm start with a bad configuration', () => {
  it('lists every problem and exits 1 without listening', async () => {
    const { code, output } = await runToExit({
      PORT: 'abc',
      UPSTREAM_BASE_URL: 'not a url',
      UPSTREAM_TIMEOUT_MS: '-1',
    });
    expect(code).toBe(1);
    expect(output).toContain('invalid configuration');
    expect(output).toContain('PORT:');
    expect(output).toContain('UPSTREAM_BASE_URL:');
    expect(output).toContain('UPSTREAM_TIMEOUT_MS:');
    expect(output).not.toContain('ready at');
  });

  it.each(['Aa1/Bb2#Cc3?Dd4', 'Aa1?Bb2@Cc3/Dd4'])(
    'refuses a database URL whose password is not percent-encoded, without any part of it %j',
    async (password) => {
      const { code, output } = await runToExit({
        DATABASE_URL: `postgres://app:${password}@127.0.0.1:1/edu?sslmode=disable`,
      });
      expect(code).toBe(1);
      expect(output).toContain('DATABASE_URL: is not a URL every reader parses the same way: percent-encode');
      expect(output).not.toMatch(/Aa1|Bb2|Cc3|Dd4/);
    },
  );

  // Unreachable is not a wrong setting: the server starts without the store (test/e2e/store-hung.test.ts) and says why.
  it('logs a store it cannot reach without any part of its encoded password', async () => {
    const server = await startServerProcess({
      DATABASE_URL: `postgres://app:${encodeURIComponent('Aa1/Bb2#Cc3?Dd4')}@127.0.0.1:1/edu?sslmode=disable`,
    });
    await server.outputContains('request-for-use store not open');
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('Cannot open the request-for-use store postgres://app@127.0.0.1:1/edu');
    expect(server.output()).not.toMatch(/Aa1|Bb2|Cc3|Dd4/);
  });
});

describe('npm start with CACHE_WARM=true', () => {
  let upstream: Simulator;
  let server: ServerProcess;
  beforeAll(async () => {
    upstream = await startSimulator({ apiKey: 'warm-key' });
    server = await startServerProcess({
      UPSTREAM_BASE_URL: upstream.url,
      UPSTREAM_API_KEY: 'warm-key',
      CACHE_WARM: 'true',
    });
  });
  afterAll(async () => {
    await server.stop();
    await upstream.close();
  });

  it('fetches all 13 datasets in the background, so the first user never waits for the upstream', async () => {
    await upstream.whenReceived(13);
    for (const code of DATASET_CODES) expect(upstream.requestCount(code), code).toBe(1);
    await server.outputContains('warm');
    const response = await fetch(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ datasets { payload } }' }),
    });
    const body = (await response.json()) as { data: { datasets: { payload: unknown }[] }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data.datasets.every((dataset) => dataset.payload !== null)).toBe(true);
    expect(upstream.requestCount()).toBe(13);
  });

  it("takes the warm's downloads as a new deployment's first look: dates published, nothing fetched twice", async () => {
    const origin = new URL(server.endpoint).origin;
    // The first look (2 s after start, once the warm settled) has run when the watcher counts a pass.
    await expect
      .poll(
        async () => /watcher_runs_total\{outcome="done"\} [1-9]/.test(await (await fetch(`${origin}/metrics`)).text()),
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
    const found = (await (await fetch(`${origin}/api/3/action/package_search?rows=100`)).json()) as {
      result: { results: { metadata_modified: unknown }[] };
    };
    expect(found.result.results).toHaveLength(13);
    expect(found.result.results.every((pkg) => typeof pkg.metadata_modified === 'string')).toBe(true);
    expect(upstream.requestCount()).toBe(13);
  });
});
