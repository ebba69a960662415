import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATASETS, SUMMARY_ENDPOINTS } from '../../src/catalogue.js';
import { DEFAULTS } from '../helpers/settings.js';
import { parsePrometheus } from '../helpers/prometheus.js';
import { listen, useStack } from '../helpers/stack.js';

describe('/metrics', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 } });

  async function scrape() {
    const response = await stack().app.fetch('http://localhost/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const samples = parsePrometheus(await response.text());
    return (name: string, labels: Record<string, string> = {}): number =>
      samples
        .filter(
          (sample) =>
            sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
        )
        .reduce((sum, sample) => sum + sample.value, 0);
  }

  it('parses as Prometheus text and moves when traffic flows', async () => {
    const before = await scrape();
    const query = 'query Teachers { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }';
    await stack().post({ query });
    await stack().post({ query });
    await stack().post({ query: '{ summaryEndpoint(endpointId: 83) { payload } }' });
    const after = await scrape();

    expect(
      after('graphql_envelop_request', { operationName: 'Teachers' }) -
        before('graphql_envelop_request', { operationName: 'Teachers' }),
    ).toBe(2);
    expect(after('graphql_envelop_request_time_summary_count', { operationName: 'Teachers' })).toBeGreaterThanOrEqual(
      2,
    );
    expect(after('graphql_envelop_request_duration_count', { operationType: 'query' })).toBeGreaterThanOrEqual(3);
    expect(after('graphql_envelop_error_result', { code: 'USE_NOT_APPROVED' })).toBe(1);
    expect(after('upstream_calls_total', { target: 'ODS_COUNT_TEACHER_BY_YEAR', outcome: 'ok', status: '200' })).toBe(
      1,
    );
    expect(after('upstream_call_duration_seconds_count', { target: 'ODS_COUNT_TEACHER_BY_YEAR' })).toBe(1);
    expect(after('upstream_cache_reads_total', { kind: 'dataset', result: 'miss' })).toBe(1);
    expect(after('upstream_cache_reads_total', { kind: 'dataset', result: 'hit' })).toBe(1);
    expect(after('upstream_breaker_state', { state: 'closed' })).toBe(1);
    expect(after('rate_limited_total')).toBe(0);
  });

  it('logs a failure while counting and answers the operation as if metrics were off', async () => {
    const label = vi.spyOn(stack().metrics.operationNames, 'label').mockImplementation(() => {
      throw new Error('metrics broke');
    });
    try {
      const response = await stack().post({ query: 'query StillAnswered { datasets { no } }' });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data?: { datasets: unknown[] } }).data?.datasets.length).toBeGreaterThan(0);
    } finally {
      label.mockRestore();
    }
    const failures = stack().logLines.filter(
      (line) => line['msg'] === 'metrics failed; the request goes on without them',
    );
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]?.['err']).toMatchObject({ message: 'metrics broke' });
    expect((await stack().app.fetch('http://localhost/metrics')).status).toBe(200);
  });
});

describe('/metrics under traffic it does not choose', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 }, responseCacheMinUses: 1 });
  let server: { origin: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(stack().app);
  });
  afterAll(() => server.close());

  // Looks like what a caller would not want shown: it goes into query text, variables and URLs, never into /metrics.
  const SECRET = 'SeCrEt7f3a91c0';
  // Three quarters carry a new name: 225, over twice the names shown (100).
  const UNIQUE_REQUESTS = 300;
  // Names as long as a label may be (64 characters), the worst case for the page's size.
  const uniqueName = (i: number): string => `Unique${String(i).padStart(5, '0')}`.padEnd(64, 'x');
  const document = (name: string, i: number): string => `query ${name} { leak${SECRET}${i}: datasets { no } }`;

  async function get(query: string, variables: Record<string, unknown>, extra = ''): Promise<number> {
    const search = new URLSearchParams({ query, variables: JSON.stringify(variables) });
    const response = await fetch(`${server.origin}/graphql?${search.toString()}${extra}`, {
      headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1' },
    });
    await response.arrayBuffer();
    return response.status;
  }
  async function post(body: unknown): Promise<number> {
    const response = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  }
  async function scrape(): Promise<string> {
    const response = await fetch(`${server.origin}/metrics`);
    return response.text();
  }
  async function inParallel(count: number, send: (i: number) => Promise<unknown>): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) await send(next++);
      }),
    );
  }
  const total = (text: string, name: string, labels: Record<string, string>): number =>
    parsePrometheus(text)
      .filter(
        (sample) =>
          sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      )
      .reduce((sum, sample) => sum + sample.value, 0);

  it('shows the first operation names and `other` for the rest, whichever path answers, and nothing of the requests', async () => {
    // Served by yoga once, then twice from the response cache, before the names run out.
    const early = 'query CachedEarly { datasets { no } }';
    for (let i = 0; i < 3; i++) expect(await get(early, {})).toBe(200);
    // The rest of the names, one at a time so that which ones are shown is known.
    const shown = Array.from({ length: DEFAULTS.metricsOperationNames - 1 }, (_, i) => uniqueName(i));
    for (const [i, name] of shown.entries()) {
      expect(await post({ query: document(name, i), variables: { email: `p${i}@${SECRET}.example` } })).toBe(200);
      // The same name as a mutation too (refused, but executed): a name's series for both operation types.
      await post({
        query: `mutation ${name} { revokeUseRequest(input: { id: "${SECRET}${i}" }) { useRequest { id } } }`,
      });
    }

    // Then many requests, each unique: names, GET URLs, variables, operation names that name no operation. Unbounded,
    // their names alone would put several times the bound below on the page (a histogram per name).
    const statuses: number[] = [];
    await inParallel(UNIQUE_REQUESTS, async (i) => {
      const name = uniqueName(DEFAULTS.metricsOperationNames + i);
      const variables = { email: `p${i}@${SECRET}.example`, purpose: `${SECRET} ${i}` };
      const kind = i % 4;
      if (kind === 0) statuses.push(await post({ query: document(name, i), variables }));
      else if (kind === 1) statuses.push(await get(document(name, i), variables, `&utm=${SECRET}${i}`));
      else if (kind === 2) statuses.push(await get('{ datasets { no } }', variables));
      else statuses.push(await post({ query: document(name, i), operationName: `${SECRET}${i}` }));
    });
    expect(statuses.filter((status) => status !== 200 && status !== 400)).toEqual([]);
    // Documents that do not parse: syntax errors, and one nested 2,000 deep (the metrics must not fail on it).
    await post({ query: `query { ${SECRET}` });
    await post({ query: `query Deep ${'{ datasets '.repeat(2_000)}${'}'.repeat(2_000)}` });
    // Every upstream target once, errors, and other HTTP statuses: the series a busy day adds besides names. A count
    // fetches a dataset as its payload does, without serialising 8 MB of answer nobody reads here.
    const everything = [
      ...DATASETS.map((dataset) => `d${dataset.no}: dataset(code: ${dataset.code}) { recordCount }`),
      ...SUMMARY_ENDPOINTS.map(
        (endpoint) => `e${endpoint.id}: summaryEndpoint(endpointId: ${endpoint.id}) { payload }`,
      ),
    ];
    expect(await post({ query: `query Everything { ${everything.join(' ')} }` })).toBe(200);
    expect(
      await get(
        `mutation M${SECRET} { registerClient(input: { name: "x", contactEmail: "a@b.example" }) { apiKey } }`,
        {},
      ),
    ).toBe(405);
    expect(await post(Array.from({ length: 11 }, () => ({ query: '{ datasets { no } }' })))).toBe(413);

    // A cacheable query first seen now: its miss and its hits are both `other`.
    const before = await scrape();
    const late = 'query CachedLate { datasets { no title } }';
    for (let i = 0; i < 3; i++) expect(await get(late, {})).toBe(200);
    for (let i = 0; i < 2; i++) expect(await get(early, {})).toBe(200);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>): number =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('graphql_response_cache_total', { result: 'hit' })).toBe(4);
    expect(moved('graphql_envelop_request', { operationName: 'other' })).toBe(3);
    expect(moved('graphql_envelop_request', { operationName: 'CachedLate' })).toBe(0);
    expect(moved('graphql_envelop_request', { operationName: 'CachedEarly' })).toBe(2);
    expect(moved('graphql_yoga_http_duration_count', { method: 'GET', statusCode: '200' })).toBe(5);
    expect(total(after, 'graphql_envelop_request', { operationName: 'CachedEarly' })).toBe(5);

    // The worst case: 100 names of 64 characters, each a query and a mutation, so 200 series of the latency
    // histogram by operation (11 lines each) and of the summary (2 lines each); measured at 466 KB.
    expect(after.length).toBeLessThan(520_000);
    expect(after).not.toContain(SECRET);
    expect(after).not.toContain('datasets {');
    expect(after).not.toContain('127.0.0.1');
    expect(after).not.toContain('/graphql');
    const samples = parsePrometheus(after);
    expect(samples.filter((sample) => 'url' in sample.labels)).toEqual([]);
    const names = new Set(samples.flatMap((sample) => sample.labels['operationName'] ?? []));
    expect(names).toEqual(new Set(['CachedEarly', ...shown, 'other', 'Anonymous']));
    expect(total(after, 'upstream_calls_total', {})).toBeGreaterThanOrEqual(DATASETS.length);
    expect(total(after, 'graphql_envelop_request', { operationName: 'other' })).toBeGreaterThanOrEqual(
      UNIQUE_REQUESTS / 2,
    );
    // The syntax error; the document nested 2,000 deep is refused before the parser (use-request-shape.ts).
    expect(total(after, 'graphql_envelop_error_result', { phase: 'parse' })).toBe(1);
    expect(stack().logText()).not.toContain('metrics failed');
  }, 120_000);
});
