import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { print } from 'graphql';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GRAPHQL_PATH } from '../../src/server/app.js';
import type { DatasetCode } from '../../src/catalogue.js';
import { graphql } from '../gql/index.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';
import { flatHeaders } from '../helpers/headers.js';
import { bearer, OPERATOR } from '../helpers/callers.js';

const WarmPayload = graphql(`
  query WarmPayload($code: DatasetCode!) {
    dataset(code: $code) {
      code
      payload
    }
  }
`);

const PayloadWithQuery = graphql(`
  query PayloadWithQuery($code: DatasetCode!, $query: JSONObject) {
    dataset(code: $code) {
      payload(query: $query)
    }
  }
`);

const CatalogueStatus = graphql(`
  query CatalogueStatus {
    summaryEndpoints {
      endpointId
      status
    }
  }
`);

const AnonymousSummary = graphql(`
  query AnonymousSummary {
    summaryEndpoint(endpointId: 85) {
      payload(input: { ACADEMIC_YEAR: "2566" })
    }
  }
`);

const StaleCursor = graphql(`
  query StaleCursor {
    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {
      records(first: 1, after: "not-a-cursor") {
        totalCount
      }
    }
  }
`);

const RegisterForCacheTest = graphql(`
  mutation RegisterForCacheTest($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
    }
  }
`);

const CountOtherMajors = graphql(`
  query CountOtherMajors($other: JSON) {
    dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) {
      recordCount(where: [{ field: "MAJOR", ne: $other }])
    }
  }
`);

const TTL_S = 60;
const CODE: DatasetCode = 'ODS_COUNT_STUDENT_BY_MAJOR';

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

// Set per request and by node:http itself: the only headers a hit may not repeat. Framing too: yoga streams a
// compressed body (chunked) where a stored one is sent with its Content-Length (checked separately). The rate-limit
// fields describe the caller's bucket at that moment (and the reference app has no limit): see rate-limit-fields.test.ts.
const PER_REQUEST = new Set([
  'date',
  'x-request-id',
  'keep-alive',
  'connection',
  'content-length',
  'transfer-encoding',
  'ratelimit',
  'ratelimit-policy',
]);

function comparable(answer: RawAnswer): { status: number; headers: Record<string, string>; body: string } {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_REQUEST.has(name)));
  return { status: answer.status, headers, body: answer.body.toString('base64') };
}

const firstStatus = (answer: RawAnswer): unknown =>
  (JSON.parse(answer.body.toString('utf8')) as { data: { summaryEndpoints: { id: number; status: string }[] } }).data
    .summaryEndpoints[0];

/** One request over a real socket, body and headers exactly as sent (undici does not decompress). */
async function raw(
  origin: string,
  init: { method?: 'GET' | 'POST'; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  const answer = await undiciRequest(origin + (init.path ?? GRAPHQL_PATH), {
    method: init.method ?? 'POST',
    headers: init.headers,
    body: init.body,
  });
  return {
    status: answer.statusCode,
    headers: flatHeaders(answer.headers),
    body: Buffer.from(await answer.body.arrayBuffer()),
  };
}

function postOf(
  document: Parameters<typeof print>[0],
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query: print(document), variables }),
  };
}

/** The sum of a metric's series that carry every one of `labels` (e.g. 'result="hit"'). */
function counter(metricsText: string, name: string, ...labels: string[]): number {
  return metricsText
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && labels.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describe('response cache: stored answers to anonymous queries, served before yoga', () => {
  let clock = Date.parse('2026-11-22T00:00:00Z');
  let stack: Stack;
  let cached: { origin: string; close(): Promise<void> };
  // The same app with the response cache off, on the same upstream cache: what every answer must equal.
  let reference: { origin: string; close(): Promise<void> };
  let referenceStack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      cache: { ttlS: TTL_S, swrS: 0, staleIfErrorS: 0, now: () => clock },
      rateLimit: { points: 1_000, windowS: 60 },
    });
    cached = await listen(stack.app);
    referenceStack = await startStack({
      cache: { ttlS: TTL_S, swrS: 0, staleIfErrorS: 0, now: () => clock },
      sharedUpstream: stack,
      sharedAccess: stack.access,
      responseCacheMaxMb: 0,
    });
    reference = await listen(referenceStack.app);
  });

  afterAll(async () => {
    await cached.close();
    await reference.close();
    await referenceStack.close();
    await stack.close();
  });

  const metricsText = async (): Promise<string> =>
    (await raw(cached.origin, { method: 'GET', path: '/metrics' })).body.toString('utf8');

  it.each([
    ['identity', undefined, '2563'],
    ['gzip', 'gzip', '2564'],
    ['br', 'br, gzip', '2567'],
  ])(
    'a hit sends the same bytes and headers as the miss before it and as yoga without the cache (%s, POST)',
    async (_name, acceptEncoding, year) => {
      // A year per case, so each case starts with a miss.
      const request = postOf(
        PayloadWithQuery,
        { code: CODE, query: { ACADEMIC_YEAR: year } },
        acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      );
      const expected = await raw(reference.origin, request);
      expect(expected.status).toBe(200);
      stack.simulator.resetRequests();
      const hitsBefore = counter(await metricsText(), 'graphql_response_cache_total', 'result="hit"');

      // The first miss is yoga's answer as it is; the second (RESPONSE_CACHE_MIN_USES 2) is stored and answered
      // from the entry, as the hits after it are.
      const miss = await raw(cached.origin, request);
      const storingMiss = await raw(cached.origin, request);
      const hit = await raw(cached.origin, request);
      const secondHit = await raw(cached.origin, request);

      expect(comparable(miss)).toEqual(comparable(expected));
      expect(comparable(storingMiss)).toEqual(comparable(miss));
      expect(comparable(hit)).toEqual(comparable(miss));
      expect(comparable(secondHit)).toEqual(comparable(miss));
      if (acceptEncoding !== undefined) expect(hit.headers['content-encoding']).toBe(acceptEncoding.split(',')[0]);
      expect(Number(hit.headers['content-length'])).toBe(hit.body.length);
      expect(hit.headers['vary']).toContain('accept-encoding');
      // Every answer has its own request id; an acceptable one offered by the caller is kept.
      expect(new Set([miss, storingMiss, hit, secondHit].map((answer) => answer.headers['x-request-id'])).size).toBe(4);
      const offered = await raw(cached.origin, {
        ...request,
        headers: { ...request.headers, 'x-request-id': 'trace-42' },
      });
      expect(offered.headers['x-request-id']).toBe('trace-42');
      // The upstream entry was already cached by the reference request; the hits did not even enter GraphQL.
      expect(stack.simulator.requestCount()).toBe(0);
      expect(counter(await metricsText(), 'graphql_response_cache_total', 'result="hit"') - hitsBefore).toBe(3);
    },
  );

  it('answers a burst of one payload query in gzip, the misses among them compressed together, each as yoga alone would', async () => {
    // A cold burst: the first miss is yoga's answer, the later ones are stored and rendered (RESPONSE_CACHE_MIN_USES 2),
    // and all of them carry the payload's one shared text, compressed once for those under way together.
    const request = postOf(
      PayloadWithQuery,
      { code: CODE, query: { ACADEMIC_YEAR: '2569' } },
      { 'accept-encoding': 'gzip' },
    );
    const identity = await raw(reference.origin, {
      ...request,
      headers: { ...request.headers, 'accept-encoding': 'identity' },
    });
    expect(identity.status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 6 }, () => raw(cached.origin, request)));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(answer.body).equals(identity.body)).toBe(true);
    }
  });

  it('answers persisted GET queries (APQ) from the cache, with the ETag, Cache-Control and 304 yoga gives', async () => {
    const query = print(WarmPayload);
    const hash = createHash('sha256').update(query).digest('hex');
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });
    const variables = JSON.stringify({ code: CODE });
    const headers = { accept: 'application/json', 'x-graphql-yoga-csrf': '1' };
    const byHash = `${GRAPHQL_PATH}?extensions=${encodeURIComponent(extensions)}&variables=${encodeURIComponent(variables)}`;
    // Registration: the full query once, on each server.
    for (const origin of [cached.origin, reference.origin]) {
      const registered = await raw(origin, {
        method: 'GET',
        path: `${byHash}&query=${encodeURIComponent(query)}`,
        headers,
      });
      expect(registered.status).toBe(200);
    }

    const expected = await raw(reference.origin, { method: 'GET', path: byHash, headers });
    const miss = await raw(cached.origin, { method: 'GET', path: byHash, headers });
    const hit = await raw(cached.origin, { method: 'GET', path: byHash, headers });
    expect(comparable(miss)).toEqual(comparable(expected));
    expect(comparable(hit)).toEqual(comparable(expected));
    expect(hit.headers['cache-control']).toMatch(/^public, max-age=\d+, stale-while-revalidate=0$/);
    const etag = hit.headers['etag'] ?? '';
    expect(etag).toMatch(/^".+"$/);

    const conditional = { ...headers, 'if-none-match': etag };
    const expected304 = await raw(reference.origin, { method: 'GET', path: byHash, headers: conditional });
    const hit304 = await raw(cached.origin, { method: 'GET', path: byHash, headers: conditional });
    expect(expected304.status).toBe(304);
    expect(comparable(hit304)).toEqual(comparable(expected304));
    expect(hit304.body.length).toBe(0);
  });

  it('keys by variables (in any key order) and operation: different questions get their own answers', async () => {
    const years = ['2565', '2566'];
    const answers = await Promise.all(
      years.map((year) => raw(cached.origin, postOf(PayloadWithQuery, { code: CODE, query: { ACADEMIC_YEAR: year } }))),
    );
    const again = await Promise.all(
      years.map((year) => raw(cached.origin, postOf(PayloadWithQuery, { query: { ACADEMIC_YEAR: year }, code: CODE }))),
    );
    for (const [index, year] of years.entries()) {
      const body = JSON.parse(answers[index]?.body.toString('utf8') ?? '') as {
        data: { dataset: { payload: { data: { ACADEMIC_YEAR: string }[] } } };
      };
      expect(new Set(body.data.dataset.payload.data.map((row) => row.ACADEMIC_YEAR))).toEqual(new Set([year]));
      expect(again[index]?.body.equals(answers[index]?.body ?? Buffer.alloc(0))).toBe(true);
    }
    expect(answers[0]?.body.equals(answers[1]?.body ?? Buffer.alloc(0))).toBe(false);
  });

  it('never stores an answer that selected a caller-dependent field: an approved client sees its own status', async () => {
    const anonymous = await raw(cached.origin, postOf(CatalogueStatus));
    expect(firstStatus(anonymous)).toEqual({ endpointId: 83, status: 'NOT_REQUESTED' });
    const hitsBefore = counter(await metricsText(), 'graphql_response_cache_total', 'result="hit"');
    const storedBefore = counter(await metricsText(), 'graphql_response_cache_total', 'result="stored"');
    expect(comparable(await raw(cached.origin, postOf(CatalogueStatus)))).toEqual(comparable(anonymous));
    // `status` is declared CALLER_DEPENDENT: even the anonymous answer is executed each time, never stored.
    expect(counter(await metricsText(), 'graphql_response_cache_total', 'result="hit"')).toBe(hitsBefore);
    expect(counter(await metricsText(), 'graphql_response_cache_total', 'result="stored"')).toBe(storedBefore);

    const { client, apiKey } = await stack.access.registerClient({
      name: 'Cache Test Org',
      contactEmail: 'cache@example.org',
    });
    const asked = await stack.access.requestEndpointUse({ client, endpointId: 83, purpose: 'dashboards' });
    await stack.access.reviewUseRequest({ id: asked.id, decision: 'APPROVE', note: null, actor: 'operator' });
    const authenticated = await raw(cached.origin, postOf(CatalogueStatus, undefined, bearer(apiKey)));
    expect(firstStatus(authenticated)).toEqual({ endpointId: 83, status: 'APPROVED' });
    // The operator's token is a credential too.
    await raw(cached.origin, postOf(CatalogueStatus, undefined, OPERATOR));
    expect(counter(await metricsText(), 'graphql_response_cache_total', 'result="hit"')).toBe(hitsBefore);
  });

  it('never stores summary payloads or answers with errors: each one is executed again', async () => {
    const before = counter(await metricsText(), 'graphql_response_cache_total', 'result="stored"');
    for (const document of [AnonymousSummary, StaleCursor]) {
      const first = await raw(cached.origin, postOf(document));
      const second = await raw(cached.origin, postOf(document));
      expect(JSON.parse(first.body.toString('utf8'))).toHaveProperty('errors');
      expect(second.body.equals(first.body)).toBe(true);
    }
    const text = await metricsText();
    expect(counter(text, 'graphql_response_cache_total', 'result="stored"')).toBe(before);
    expect(counter(text, 'graphql_envelop_request', 'operationName="AnonymousSummary"')).toBe(2);
  });

  it('hands mutations, batches and malformed bodies to yoga every time, as yoga alone would answer them', async () => {
    const stored = async (): Promise<number> =>
      counter(await metricsText(), 'graphql_response_cache_total', 'result="stored"');
    const before = await stored();
    // The same mutation twice registers two clients: never replayed from a stored answer.
    const register = postOf(RegisterForCacheTest, { input: { name: 'Twice Org', contactEmail: 'twice@example.org' } });
    const keys = await Promise.all([raw(cached.origin, register), raw(cached.origin, register)]).then((answers) =>
      answers.map(
        (answer) =>
          (JSON.parse(answer.body.toString('utf8')) as { data: { registerClient: { apiKey: string } } }).data
            .registerClient.apiKey,
      ),
    );
    expect(new Set(keys).size).toBe(2);

    const headers = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };
    const batch = JSON.stringify([{ query: print(CatalogueStatus) }, { query: print(CatalogueStatus) }]);
    for (const body of [batch, '{"query": "{ datasets { no } ', '{"query": "{ datasetz { no } }"}']) {
      const expected = await raw(reference.origin, { headers, body });
      const first = await raw(cached.origin, { headers, body });
      const second = await raw(cached.origin, { headers, body });
      expect(comparable(first)).toEqual(comparable(expected));
      expect(comparable(second)).toEqual(comparable(expected));
    }
    expect(await stored()).toBe(before);
  });

  it('counts and logs a hit as the operation it answers', async () => {
    const request = postOf(WarmPayload, { code: 'ODS_COUNT_TEACHER_BY_YEAR' satisfies DatasetCode });
    const before = await metricsText();
    // Two misses, the second stored (RESPONSE_CACHE_MIN_USES 2), then a hit.
    await raw(cached.origin, request);
    await raw(cached.origin, request);
    const hit = await raw(cached.origin, request);
    const after = await metricsText();
    const moved = (name: string, ...labels: string[]): number =>
      counter(after, name, ...labels) - counter(before, name, ...labels);
    expect(moved('graphql_response_cache_total', 'result="hit"')).toBe(1);
    expect(moved('graphql_envelop_request', 'operationName="WarmPayload"')).toBe(3);
    expect(moved('graphql_yoga_http_duration_count', 'method="POST"', 'statusCode="200"')).toBe(3);
    expect(moved('graphql_operation_duration_seconds_count', 'operation="WarmPayload"', 'kind="query"')).toBe(3);
    expect(moved('http_requests_total', 'method="POST"', 'status="200"')).toBe(3);
    // One line per request, the access line, whichever path answered it.
    const lines = await vi.waitFor(() => {
      const found = stack.logLines.filter((candidate) => candidate['requestId'] === hit.headers['x-request-id']);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(lines[0]).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/graphql',
      status: 200,
      operationName: 'WarmPayload',
      responseCache: 'hit',
    });
    expect(lines[0]).not.toHaveProperty('errorCodes');
  });

  it('stores an answer on its second miss: a query sent once (a nonce, variables of its own) is never stored', async () => {
    const count = async (result: string): Promise<number> =>
      counter(await metricsText(), 'graphql_response_cache_total', `result="${result}"`);
    const storedBefore = await count('stored');
    const once = Array.from({ length: 20 }, (_, index) => postOf(CountOtherMajors, { other: `sent-once-${index}` }));
    for (const request of once) expect((await raw(cached.origin, request)).status).toBe(200);
    expect(await count('stored')).toBe(storedBefore);
    // The same query again: its second miss is stored, and the third request is a hit.
    const [again] = once;
    if (again === undefined) throw new Error('no request');
    const hitsBefore = await count('hit');
    await raw(cached.origin, again);
    expect(await count('stored')).toBe(storedBefore + 1);
    await raw(cached.origin, again);
    expect(await count('hit')).toBe(hitsBefore + 1);
  });

  it('stops serving an answer once its upstream payload may have changed, and serves the revised data', async () => {
    const code: DatasetCode = 'ODS_COUNT_SCHOOL_BY_JURISDICTION';
    const request = postOf(WarmPayload, { code });
    const before = await raw(cached.origin, request);
    expect(comparable(await raw(cached.origin, request))).toEqual(comparable(before));

    stack.simulator.publish(code, [{ ACADEMIC_YEAR: '2568', TOTAL: 1 }]);
    // Still fresh: the upstream may not be asked, so the stored answer stands (as the upstream cache's does).
    expect(comparable(await raw(cached.origin, request))).toEqual(comparable(before));
    clock += TTL_S * 1_000;
    const after = await raw(cached.origin, request);
    expect(JSON.parse(after.body.toString('utf8'))).toEqual({
      data: { dataset: { code, payload: { status: 200, data: [{ ACADEMIC_YEAR: '2568', TOTAL: 1 }], total: 1 } } },
    });
    // The revised answer is stored in turn.
    expect(comparable(await raw(cached.origin, request))).toEqual(comparable(after));
  });

  it('applies the rate limit to hits as well', async () => {
    const limited = await startStack({
      cache: { ttlS: TTL_S, swrS: 0, staleIfErrorS: 0 },
      rateLimit: { points: 3, windowS: 60 },
    });
    const server = await listen(limited.app);
    try {
      const request = postOf(CatalogueStatus);
      const statuses = [];
      for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await raw(server.origin, request)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await server.close();
      await limited.close();
    }
  });
});

describe('response cache: the byte bound counts what each entry holds, not just its body', () => {
  it('keeps about RESPONSE_CACHE_MAX_MB of small answers (variables varied per request), evicting the oldest', async () => {
    // Each answer is a few dozen bytes, but each entry holds about a kilobyte (see ENTRY_OVERHEAD_BYTES): counted by
    // bodies alone, a quarter of a megabyte would keep over 5,000 of them and hold several MB. (A quarter, not a
    // whole one, so that filling it takes a few hundred requests rather than a thousand.)
    // Stored on the first miss, so that each request stores one.
    const stack = await startStack({
      cache: { ttlS: TTL_S, swrS: 0, staleIfErrorS: 0 },
      responseCacheMaxMb: 0.25,
      responseCacheMinUses: 1,
    });
    const server = await listen(stack.app);
    try {
      // About 190 entries fit; ten at a time, so the order of storing (and of eviction) is the order of asking.
      const asked = Array.from({ length: 300 }, (_, index) =>
        postOf(CountOtherMajors, { other: `not-a-major-${index}` }),
      );
      for (let start = 0; start < asked.length; start += 10) {
        const answers = await Promise.all(asked.slice(start, start + 10).map((request) => raw(server.origin, request)));
        expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
      }
      const hits = async (requests: typeof asked): Promise<number> => {
        const metrics = async (): Promise<string> =>
          (await raw(server.origin, { method: 'GET', path: '/metrics' })).body.toString('utf8');
        const before = counter(await metrics(), 'graphql_response_cache_total', 'result="hit"');
        for (const request of requests) await raw(server.origin, request);
        return counter(await metrics(), 'graphql_response_cache_total', 'result="hit"') - before;
      };
      // The newest are still stored; the oldest were evicted to stay within the bound.
      expect(await hits(asked.slice(-50))).toBe(50);
      expect(await hits(asked.slice(0, 50))).toBe(0);
    } finally {
      await server.close();
      await stack.close();
    }
  });
});
