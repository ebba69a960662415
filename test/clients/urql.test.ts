import { Client, cacheExchange as documentCacheExchange, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { parse } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { TEST_ADMIN_TOKEN, useListeningStack } from '../helpers/stack.js';
import {
  ClientCatalogue,
  ClientDeferred,
  ClientOneDataset,
  ClientRecords,
  ClientRegister,
  ClientRequestUse,
  ClientReview,
  ClientSummary,
  ClientTwoPayloads,
} from './operations.js';
import { createUrqlClient, recordingFetch, URQL_EMBEDDED_TYPES, type SentRequest } from './setups.js';
import { responseCacheHits } from '../helpers/prometheus.js';
import { upstreamSummary } from '../helpers/upstream-answer.js';

describe('@urql/core 6 with graphcache and persisted queries against a listening server', () => {
  const listening = useListeningStack();
  const url = () => `${listening().origin}/graphql`;
  let warnings: MockInstance<typeof console.warn>;

  beforeEach(() => {
    warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warnings.mockRestore();
  });

  function client(options: { headers?: Record<string, string> } = {}): { urql: Client; sent: SentRequest[] } {
    const sent: SentRequest[] = [];
    return { urql: createUrqlClient(url(), { ...options, fetch: recordingFetch(sent) }), sent };
  }

  it('works on first contact with the defaults: a query as GET, without any CSRF header', async () => {
    const sent: SentRequest[] = [];
    const urql = new Client({
      url: url(),
      exchanges: [documentCacheExchange, fetchExchange],
      fetch: recordingFetch(sent),
    });
    const result = await urql.query(ClientCatalogue, {}).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.datasets).toHaveLength(13);
    expect(sent.map((request) => [request.method, request.status])).toEqual([['GET', 200]]);
    expect(sent[0]?.headers.has('x-graphql-yoga-csrf')).toBe(false);
  });

  it('normalises with graphcache and no warning, given keys for the embedded types', async () => {
    const { urql } = client();
    expect((await urql.query(ClientCatalogue, {}).toPromise()).data?.datasets).toHaveLength(13);
    const records = await urql.query(ClientRecords, {}).toPromise();
    expect(records.error).toBeUndefined();
    expect(records.data?.dataset.records?.edges).toHaveLength(4);
    expect(warnings).not.toHaveBeenCalled();

    // The control: without those keys graphcache warns, so the assertion above can fail.
    const bare = new Client({ url: url(), exchanges: [cacheExchange({}), fetchExchange] });
    await bare.query(ClientRecords, {}).toPromise();
    const warned = warnings.mock.calls.map((call) => String(call[0]));
    expect(warned.some((text) => /Invalid key.*\.fields\.0/.test(text))).toBe(true);
  });

  it("reads a client's own history and usage with the generated keys, and no warning", async () => {
    const registered = await client().urql.mutation(ClientRegister, {
      input: { name: 'Graphcache App', contactEmail: 'graphcache@example.org' },
    });
    const apiKey = registered.data?.registerClient.apiKey ?? '';
    const { urql } = client({ headers: { authorization: `Bearer ${apiKey}` } });
    const me = await urql
      .query(parse('{ me { id history { kind at } usage(days: 2) { day operations } } }'), {})
      .toPromise();
    expect(me.error).toBeUndefined();
    expect(me.data).toMatchObject({
      me: { history: expect.any(Array) as unknown, usage: expect.any(Array) as unknown },
    });
    expect(warnings).not.toHaveBeenCalled();
  });

  it('answers dataset(code:) from the normalised catalogue, with a resolver that says where it lives', async () => {
    const sent: SentRequest[] = [];
    const urql = new Client({
      url: url(),
      exchanges: [
        cacheExchange({
          keys: URQL_EMBEDDED_TYPES,
          resolvers: {
            Query: { dataset: (_parent, args) => ({ __typename: 'Dataset', id: `ds_${args['code'] as string}` }) },
          },
        }),
        fetchExchange,
      ],
      fetch: recordingFetch(sent),
    });
    await urql.query(ClientCatalogue, {}).toPromise();
    const one = await urql.query(ClientOneDataset, { code: 'ZVIEW_CPS_SUMMARY_DATA' }).toPromise();
    expect(one.data?.dataset).toEqual({
      id: 'ds_ZVIEW_CPS_SUMMARY_DATA',
      code: 'ZVIEW_CPS_SUMMARY_DATA',
      title: 'สถิติข้อมูลการศึกษา',
    });
    expect(one.operation.context.meta?.cacheOutcome).toBe('hit');
    expect(sent).toHaveLength(1);
    expect(warnings).not.toHaveBeenCalled();
  });

  it('sends queries by hash over GET with persistedExchange: a miss is sent again with its document, the next client hits', async () => {
    const first = client();
    await first.urql.query(ClientTwoPayloads, {}).toPromise();
    expect(
      first.sent.map((request) => [request.method, request.status, request.url.searchParams.has('query')]),
    ).toEqual([
      ['GET', 200, false],
      ['GET', 200, true],
    ]);
    const second = client();
    const hit = await second.urql.query(ClientTwoPayloads, {}).toPromise();
    expect(hit.error).toBeUndefined();
    expect(
      second.sent.map((request) => [request.method, request.status, request.url.searchParams.has('query')]),
    ).toEqual([['GET', 200, false]]);
    expect(second.sent.every((request) => !request.headers.has('x-graphql-yoga-csrf'))).toBe(true);
  });

  it("keeps partial data with the failing payload's code", async () => {
    listening().stack.simulator.setFault('ODS_COUNT_GRADUATE_BY_YEAR', { status: 502 });
    try {
      const { urql } = client();
      const result = await urql.query(ClientTwoPayloads, {}, { requestPolicy: 'network-only' }).toPromise();
      expect(result.data?.teachers.payload).toMatchObject({ data: [{ ACADEMIC_YEAR: '2566' }] });
      expect(result.data?.graduates.payload).toBeNull();
      expect(result.error?.graphQLErrors.map((error) => [error.path, error.extensions['code']])).toEqual([
        [['graduates', 'payload'], 'UPSTREAM_HTTP_ERROR'],
      ]);
    } finally {
      listening().stack.simulator.clearFaults();
    }
  });

  it('receives @defer in parts', async () => {
    const { urql } = client();
    const results = await new Promise<{ hasNext: boolean; data: unknown }[]>((resolve) => {
      const seen: { hasNext: boolean; data: unknown }[] = [];
      const subscription = urql.query(ClientDeferred, {}).subscribe((result) => {
        seen.push({ hasNext: result.hasNext, data: result.data });
        if (!result.hasNext) {
          subscription.unsubscribe();
          resolve(seen);
        }
      });
    });
    expect(results.length).toBeGreaterThanOrEqual(2);
    expect(results[0]).toMatchObject({
      hasNext: true,
      data: { datasets: [{ code: 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER' }] },
    });
    expect(results.at(-1)?.data).toMatchObject({ dataset: { payload: { data: [{ ACADEMIC_YEAR: '2565' }] } } });
    expect(warnings).not.toHaveBeenCalled();
  });

  it('goes through request for use to an approved summary payload', async () => {
    const registered = await client()
      .urql.mutation(ClientRegister, { input: { name: 'urql app', contactEmail: 'urql@example.org' } })
      .toPromise();
    const apiKey = registered.data?.registerClient.apiKey ?? '';
    const app = client({ headers: { authorization: `Bearer ${apiKey}` } });
    const asked = await app.urql
      .mutation(ClientRequestUse, { input: { endpointId: 86, purpose: 'graduation trends' } })
      .toPromise();
    const request = asked.data?.requestEndpointUse.useRequest;
    expect(request?.status).toBe('PENDING');
    expect(request?.history).toEqual([{ from: 'NOT_REQUESTED', to: 'PENDING' }]);

    const operator = client({ headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    const approved = await operator.urql
      .mutation(ClientReview, { input: { id: request?.id ?? '', decision: 'APPROVE' } })
      .toPromise();
    expect(approved.data?.reviewUseRequest.useRequest.status).toBe('APPROVED');

    const summary = await app.urql.query(ClientSummary, { id: 86 }).toPromise();
    expect(summary.error).toBeUndefined();
    expect(summary.data?.summaryEndpoint).toMatchObject({ id: 'se_86', status: 'APPROVED' });
    expect(summary.data?.summaryEndpoint?.payload).toEqual(await upstreamSummary(listening().stack.simulator, 86));
    expect(warnings).not.toHaveBeenCalled();
  });
});

// Issue 32: urql's fetch exchange sends `application/graphql-response+json, application/graphql+json,
// application/json, text/event-stream, multipart/mixed` on every operation; the answer to a query is JSON, so it is
// stored and served like any other.
describe("urql's default Accept and the response cache", () => {
  const listening = useListeningStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 } });

  it('is a response-cache hit once stored (on the second miss, RESPONSE_CACHE_MIN_USES 2), as urql sends it', async () => {
    const sent: SentRequest[] = [];
    const urql = new Client({
      url: `${listening().origin}/graphql`,
      exchanges: [fetchExchange],
      fetch: recordingFetch(sent),
      requestPolicy: 'network-only',
    });
    const before = await responseCacheHits(listening().origin);
    for (let round = 0; round < 3; round++) {
      const result = await urql.query(ClientOneDataset, { code: 'ODS_COUNT_TEACHER_BY_YEAR' }).toPromise();
      expect(result.data?.dataset?.code).toBe('ODS_COUNT_TEACHER_BY_YEAR');
    }
    expect(sent[0]?.headers.get('accept')).toContain('text/event-stream');
    expect(sent[0]?.headers.get('accept')).toContain('application/graphql-response+json');
    expect(await responseCacheHits(listening().origin)).toBe(before + 1);
  });

  it('still streams to an Accept that admits no JSON, and stores none of it', async () => {
    const before = await responseCacheHits(listening().origin);
    for (let round = 0; round < 2; round++) {
      const response = await fetch(
        `${listening().origin}/graphql?query=${encodeURIComponent('{ datasets { code } }')}`,
        {
          headers: { accept: 'text/event-stream' },
        },
      );
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      await response.text();
    }
    expect(await responseCacheHits(listening().origin)).toBe(before);
  });
});
