import { Client, cacheExchange as documentCacheExchange, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { parse } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { graphql } from '../gql/index.js';
import { TEST_ADMIN_TOKEN, useListeningStack } from '../helpers/stack.js';
import { createUrqlClient, recordingFetch, URQL_EMBEDDED_TYPES, type SentRequest } from './setups.js';
import { upstreamSummary } from '../helpers/upstream-answer.js';

const UrqlCatalogue = graphql(`
  query UrqlCatalogue {
    datasets {
      id
      code
      title
    }
    summaryEndpoints {
      id
      status
    }
  }
`);

const UrqlOneDataset = graphql(`
  query UrqlOneDataset($code: DatasetCode!) {
    dataset(code: $code) {
      id
      code
      title
    }
  }
`);

const UrqlRecords = graphql(`
  query UrqlRecords($after: String) {
    dataset(code: ODS_COUNT_TEACHER_BY_JURISDICTION) {
      id
      records(first: 3, after: $after, where: [{ field: "ACADEMIC_YEAR", eq: "2566" }]) {
        totalCount
        edges {
          cursor
          node
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      fields {
        name
        types
      }
    }
  }
`);

const UrqlTwoPayloads = graphql(`
  query UrqlTwoPayloads {
    teachers: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      id
      payload(query: { ACADEMIC_YEAR: "2566" })
    }
    schools: dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {
      id
      payload
    }
  }
`);

const UrqlRegister = graphql(`
  mutation UrqlRegister($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
      client {
        id
      }
    }
  }
`);

const UrqlRequestUse = graphql(`
  mutation UrqlRequestUse($input: RequestEndpointUseInput!) {
    requestEndpointUse(input: $input) {
      useRequest {
        id
        status
        history {
          from
          to
        }
      }
    }
  }
`);

const UrqlApprove = graphql(`
  mutation UrqlApprove($input: ReviewUseRequestInput!) {
    reviewUseRequest(input: $input) {
      useRequest {
        id
        status
      }
    }
  }
`);

const UrqlSummary = graphql(`
  query UrqlSummary {
    summaryEndpoint(id: 86) {
      id
      status
      payload
    }
  }
`);

// Not typed by codegen: @defer is added to the served schema by yoga's plugin, not printed in ours.
const UrqlDeferred = parse(`
  query UrqlDeferred {
    datasets(agency: OVEC) { id code }
    ... @defer { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { id payload(query: { ACADEMIC_YEAR: "2564" }) } }
  }
`);

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
    const result = await urql.query(UrqlCatalogue, {}).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.datasets).toHaveLength(13);
    expect(sent.map((request) => [request.method, request.status])).toEqual([['GET', 200]]);
    expect(sent[0]?.headers.has('x-graphql-yoga-csrf')).toBe(false);
  });

  it('normalises with graphcache and no warning, given keys for the embedded types', async () => {
    const { urql } = client();
    expect((await urql.query(UrqlCatalogue, {}).toPromise()).data?.datasets).toHaveLength(13);
    const records = await urql.query(UrqlRecords, {}).toPromise();
    expect(records.error).toBeUndefined();
    expect(records.data?.dataset.records?.edges).toHaveLength(3);
    expect(warnings).not.toHaveBeenCalled();

    // The control: without those keys graphcache warns, so the assertion above can fail.
    const bare = new Client({ url: url(), exchanges: [cacheExchange({}), fetchExchange] });
    await bare.query(UrqlRecords, {}).toPromise();
    const warned = warnings.mock.calls.map((call) => String(call[0]));
    expect(warned.some((text) => /Invalid key.*\.fields\.0/.test(text))).toBe(true);
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
    await urql.query(UrqlCatalogue, {}).toPromise();
    const one = await urql.query(UrqlOneDataset, { code: 'ZVIEW_CPS_SUMMARY_DATA' }).toPromise();
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
    await first.urql.query(UrqlTwoPayloads, {}).toPromise();
    expect(
      first.sent.map((request) => [request.method, request.status, request.url.searchParams.has('query')]),
    ).toEqual([
      ['GET', 404, false],
      ['GET', 200, true],
    ]);
    const second = client();
    const hit = await second.urql.query(UrqlTwoPayloads, {}).toPromise();
    expect(hit.error).toBeUndefined();
    expect(
      second.sent.map((request) => [request.method, request.status, request.url.searchParams.has('query')]),
    ).toEqual([['GET', 200, false]]);
    expect(second.sent.every((request) => !request.headers.has('x-graphql-yoga-csrf'))).toBe(true);
  });

  it("keeps partial data with the failing payload's code", async () => {
    listening().stack.simulator.setFault('ODS_COUNT_SCHOOL_BY_JURISDICTION', { status: 502 });
    try {
      const { urql } = client();
      const result = await urql.query(UrqlTwoPayloads, {}, { requestPolicy: 'network-only' }).toPromise();
      expect(result.data?.teachers.payload).toMatchObject({ data: [{ ACADEMIC_YEAR: '2566' }] });
      expect(result.data?.schools.payload).toBeNull();
      expect(result.error?.graphQLErrors.map((error) => [error.path, error.extensions['code']])).toEqual([
        [['schools', 'payload'], 'UPSTREAM_HTTP_ERROR'],
      ]);
    } finally {
      listening().stack.simulator.clearFaults();
    }
  });

  it('receives @defer in parts', async () => {
    const { urql } = client();
    const results = await new Promise<{ hasNext: boolean; data: unknown }[]>((resolve) => {
      const seen: { hasNext: boolean; data: unknown }[] = [];
      const subscription = urql.query(UrqlDeferred, {}).subscribe((result) => {
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
    expect(results.at(-1)?.data).toMatchObject({ dataset: { payload: { data: [{ ACADEMIC_YEAR: '2564' }] } } });
    expect(warnings).not.toHaveBeenCalled();
  });

  it('goes through request for use to an approved summary payload', async () => {
    const registered = await client()
      .urql.mutation(UrqlRegister, { input: { name: 'urql app', contactEmail: 'urql@example.org' } })
      .toPromise();
    const apiKey = registered.data?.registerClient.apiKey ?? '';
    const app = client({ headers: { authorization: `Bearer ${apiKey}` } });
    const asked = await app.urql
      .mutation(UrqlRequestUse, { input: { endpointId: 86, purpose: 'graduation trends' } })
      .toPromise();
    const request = asked.data?.requestEndpointUse.useRequest;
    expect(request?.status).toBe('PENDING');
    expect(request?.history).toEqual([{ from: 'NOT_REQUESTED', to: 'PENDING' }]);

    const operator = client({ headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    const approved = await operator.urql
      .mutation(UrqlApprove, { input: { id: request?.id ?? '', decision: 'APPROVE' } })
      .toPromise();
    expect(approved.data?.reviewUseRequest.useRequest.status).toBe('APPROVED');

    const summary = await app.urql.query(UrqlSummary, {}).toPromise();
    expect(summary.error).toBeUndefined();
    expect(summary.data?.summaryEndpoint).toMatchObject({ id: 86, status: 'APPROVED' });
    expect(summary.data?.summaryEndpoint?.payload).toEqual(await upstreamSummary(listening().stack.simulator, 86));
    expect(warnings).not.toHaveBeenCalled();
  });
});
