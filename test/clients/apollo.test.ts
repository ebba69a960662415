import { ApolloClient, CombinedGraphQLErrors, InMemoryCache, type NormalizedCacheObject } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { TEST_ADMIN_TOKEN, useListeningStack } from '../helpers/stack.js';
import {
  ClientCatalogue,
  ClientDeferred,
  ClientNode,
  ClientRecords,
  ClientRegister,
  ClientRequestUse,
  ClientReview,
  ClientSummary,
  ClientTwoPayloads,
} from './operations.js';
import { createApolloClient, recordingFetch, sha256, type SentRequest } from './setups.js';
import { sampled } from '../helpers/prometheus.js';
import { upstreamSummary } from '../helpers/upstream-answer.js';

const SUMMARY = { id: 85, input: { ACADEMIC_YEAR: '2566' } };

/** The normalised entries of a client's cache, by cache id (`Dataset:ds_…`). */
function entries(apollo: ReturnType<typeof createApolloClient>): NormalizedCacheObject {
  if (!(apollo.cache instanceof InMemoryCache)) throw new Error('the set-up uses InMemoryCache');
  return apollo.cache.extract();
}

describe('Apollo Client 4 (core, no React) against a listening server', () => {
  const listening = useListeningStack();
  const uri = () => `${listening().origin}/graphql`;

  function client(options: { headers?: Record<string, string> } = {}): {
    apollo: ReturnType<typeof createApolloClient>;
    sent: SentRequest[];
  } {
    const sent: SentRequest[] = [];
    return { apollo: createApolloClient(uri(), { ...options, fetch: recordingFetch(sent) }), sent };
  }

  it('normalises the catalogue: cache.identify finds each Dataset, and node(id:) lands on the same entry', async () => {
    const { apollo } = client();
    const { data, error } = await apollo.query({ query: ClientCatalogue });
    expect(error).toBeUndefined();
    expect(data?.datasets).toHaveLength(13);
    const stored = entries(apollo);
    for (const dataset of DATASETS) {
      const key = apollo.cache.identify({ __typename: 'Dataset', id: `ds_${dataset.code}` });
      expect(key).toBe(`Dataset:ds_${dataset.code}`);
      expect(stored[key ?? '']).toMatchObject({ code: dataset.code, title: dataset.title });
    }
    expect(stored['SummaryEndpoint:se_83']).toMatchObject({
      name: 'ods_count_school_by_jurisdiction',
      status: 'NOT_REQUESTED',
    });

    await apollo.query({ query: ClientNode, variables: { id: 'ds_V10_DUPWITH' } });
    expect(entries(apollo)['Dataset:ds_V10_DUPWITH']).toMatchObject({ code: 'V10_DUPWITH', titleEn: 'Duplicates' });
    expect(Object.keys(entries(apollo)).filter((key) => key.startsWith('Dataset:'))).toHaveLength(13);
  });

  it('pages records with fetchMore, merged into one list by relayStylePagination', async () => {
    const { apollo } = client();
    const watched = apollo.watchQuery({ query: ClientRecords });
    const subscription = watched.subscribe(() => undefined);
    try {
      const first = await watched.refetch();
      const firstPage = first.data?.dataset.records;
      expect(firstPage?.edges).toHaveLength(4);
      expect(firstPage?.pageInfo.hasNextPage).toBe(true);
      await watched.fetchMore({ variables: { after: firstPage?.pageInfo.endCursor } });
      // What the watched query shows once the cache broadcasts: both pages, as the field policy reads them.
      const merged = apollo.readQuery({ query: ClientRecords })?.dataset.records;
      expect(merged?.edges).toHaveLength(8);
      const totals = merged?.edges.map((edge) => Number((edge.node as { TOTAL: unknown }).TOTAL)) ?? [];
      expect(totals).toEqual([...totals].sort((a, b) => b - a));
      expect(new Set(merged?.edges.map((edge) => edge.cursor)).size).toBe(8);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('sends queries as APQ hashes over GET: one miss registers the document, the next client gets a cacheable GET', async () => {
    const query = `query ApolloApqOvec { datasets(agency: OVEC) { id code } }`;
    const first = client();
    const answer = await first.apollo.query({ query: parse(query) });
    expect(answer.data).toEqual({
      datasets: [
        {
          __typename: 'Dataset',
          id: 'ds_ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
          code: 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
        },
      ],
    });
    expect(first.sent.map((request) => [request.method, request.status])).toEqual([
      ['GET', 200],
      ['POST', 200],
    ]);
    expect(first.sent[0]?.url.searchParams.has('query')).toBe(false);
    expect(first.sent[0]?.headers.has('x-graphql-yoga-csrf')).toBe(false);

    const second = client();
    await second.apollo.query({ query: parse(query) });
    expect(second.sent.map((request) => [request.method, request.status])).toEqual([['GET', 200]]);
    const extensions = JSON.parse(second.sent[0]?.url.searchParams.get('extensions') ?? '{}') as {
      persistedQuery?: { sha256Hash?: string };
    };
    expect(extensions.persistedQuery?.sha256Hash).toBe(
      sha256(first.sent[1]?.body === undefined ? '' : (JSON.parse(first.sent[1].body) as { query: string }).query),
    );
  });

  it('receives @defer in parts through the incremental handler', async () => {
    const { apollo } = client();
    const emissions: { dataState: string; data: unknown }[] = [];
    await new Promise<void>((resolve, reject) => {
      const subscription = apollo.watchQuery({ query: ClientDeferred, fetchPolicy: 'network-only' }).subscribe({
        next: (result) => {
          emissions.push({ dataState: result.dataState, data: result.data });
          if (result.dataState === 'complete') {
            subscription.unsubscribe();
            resolve();
          }
        },
        error: reject,
      });
    });
    expect(emissions.length).toBeGreaterThanOrEqual(2);
    const streaming = emissions.find((emission) => emission.dataState === 'streaming');
    expect(streaming?.data).toMatchObject({ datasets: expect.any(Array) as unknown });
    expect((streaming?.data as { dataset?: unknown }).dataset).toBeUndefined();
    const complete = emissions.at(-1)?.data as { dataset: { payload: { data: { ACADEMIC_YEAR: string }[] } } };
    expect(complete.dataset.payload.data[0]?.ACADEMIC_YEAR).toBe('2565');
  });

  it("keeps partial data under errorPolicy 'all', with the failing payload's code", async () => {
    listening().stack.simulator.setFault('ODS_COUNT_GRADUATE_BY_YEAR', { status: 500 });
    try {
      const { apollo } = client();
      const { data, error } = await apollo.query({ query: ClientTwoPayloads });
      expect(data?.teachers?.payload).toMatchObject({ data: [{ ACADEMIC_YEAR: '2566' }] });
      expect(data?.graduates).toEqual({ __typename: 'Dataset', id: 'ds_ODS_COUNT_GRADUATE_BY_YEAR', payload: null });
      expect(CombinedGraphQLErrors.is(error)).toBe(true);
      const errors = CombinedGraphQLErrors.is(error) ? error.errors : [];
      expect(errors.map((one) => [one.path, one.extensions?.['code']])).toEqual([
        [['graduates', 'payload'], 'UPSTREAM_HTTP_ERROR'],
      ]);
    } finally {
      listening().stack.simulator.clearFaults();
    }
  });

  it('goes through request for use: register, ask, the operator approves, the payload is read', async () => {
    const anonymous = client();
    const registered = await anonymous.apollo.mutate({
      mutation: ClientRegister,
      variables: { input: { name: 'Apollo app', contactEmail: 'apollo@example.org' } },
    });
    const apiKey = registered.data?.registerClient.apiKey ?? '';
    expect(apiKey).not.toBe('');

    const app = client({ headers: { authorization: `Bearer ${apiKey}` } });
    const before = await app.apollo.query({ query: ClientSummary, variables: SUMMARY });
    expect(before.data?.summaryEndpoint).toMatchObject({ status: 'NOT_REQUESTED', payload: null });
    expect(CombinedGraphQLErrors.is(before.error) && before.error.errors[0]?.extensions?.['code']).toBe(
      'USE_NOT_APPROVED',
    );

    const asked = await app.apollo.mutate({
      mutation: ClientRequestUse,
      variables: { input: { endpointId: 85, purpose: 'a school dashboard' } },
    });
    const requestId = asked.data?.requestEndpointUse.useRequest.id ?? '';
    expect(asked.data?.requestEndpointUse.useRequest.status).toBe('PENDING');

    const operator = client({ headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    const reviewed = await operator.apollo.mutate({
      mutation: ClientReview,
      variables: { input: { id: requestId, decision: 'APPROVE', note: 'ok' } },
    });
    expect(reviewed.data?.reviewUseRequest.useRequest).toMatchObject({
      id: requestId,
      status: 'APPROVED',
      statusLabel: 'อนุมัติแล้ว',
    });

    const after = await app.apollo.query({ query: ClientSummary, variables: SUMMARY, fetchPolicy: 'network-only' });
    expect(after.error).toBeUndefined();
    expect(after.data?.summaryEndpoint?.status).toBe('APPROVED');
    expect(after.data?.summaryEndpoint?.payload).toEqual(
      await upstreamSummary(listening().stack.simulator, SUMMARY.id, SUMMARY.input),
    );
    // The same normalised entry, updated in place.
    expect(entries(app.apollo)['SummaryEndpoint:se_85']).toMatchObject({ status: 'APPROVED' });
  });
});

// Issue 32: the generated possibleTypes (client/cache-config.ts) name every Node, the summary endpoints included.
describe("Apollo Client's cache with the generated possibleTypes", () => {
  const listening = useListeningStack();

  it('reads a summary endpoint through node(id:) and a fragment on Node, whole', async () => {
    const client = createApolloClient(`${listening().origin}/graphql`);
    const { data, error } = await client.query({
      query: parse('{ node(id: "se_84") { ... on Node { id } ... on SummaryEndpoint { endpointId name } } }'),
    });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ node: { __typename: 'SummaryEndpoint', id: 'se_84', endpointId: 84 } });
    expect(client.cache.identify({ __typename: 'SummaryEndpoint', id: 'se_84' })).toBe('SummaryEndpoint:se_84');
  });
});

// Issue 32: a refused batch is answered one result per operation, so that BatchHttpLink hands each query its code
// (with one object it throws "server returned results with length 1, expected length of 2" for both).
describe("Apollo's BatchHttpLink, refused whole", () => {
  const listening = useListeningStack({ rateLimit: { points: 2, windowS: 600 } });

  async function batchedCodes(headers: Record<string, string>): Promise<string[]> {
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new BatchHttpLink({ uri: `${listening().origin}/graphql`, headers, batchMax: 2, batchInterval: 5 }),
      defaultOptions: {
        watchQuery: { errorPolicy: 'all' },
        query: { errorPolicy: 'all' },
        mutate: { errorPolicy: 'all' },
      },
    });
    const results = await Promise.all([
      client.query({ query: parse('{ datasets { code } }'), fetchPolicy: 'network-only' }),
      client.query({ query: parse('{ summaryEndpoints { endpointId } }'), fetchPolicy: 'network-only' }),
    ]);
    return results.map(({ error }) => {
      if (error === undefined) return 'OK';
      return CombinedGraphQLErrors.is(error)
        ? String(error.errors[0]?.extensions?.['code'])
        : `not a GraphQL error: ${error.message}`;
    });
  }

  it('gives each query the code of a 401 (unknown key)', async () => {
    expect(await batchedCodes({ authorization: 'Bearer tegk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).toEqual([
      'UNAUTHENTICATED',
      'UNAUTHENTICATED',
    ]);
  });

  it('gives each query the code of a 429 (the rate limit, spent first)', async () => {
    for (let spent = 0; spent < 3; spent++) await fetch(`${listening().origin}/graphql?query=%7B__typename%7D`);
    expect(await batchedCodes({})).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
  });
});

// Issue 32: usage by client library, from the `extensions.clientLibrary` Apollo's clients send.
describe('usage by client library', () => {
  const listening = useListeningStack();

  it('counts Apollo Kotlin by name, an unknown name as other, and none as none', async () => {
    const count = async (library: string) =>
      sampled(await (await fetch(`${listening().origin}/metrics`)).text(), 'graphql_client_library_operations_total', {
        library,
      });
    const post = (extensions: Record<string, unknown> | undefined) =>
      fetch(`${listening().origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // Apollo Kotlin 4's body (DefaultHttpRequestComposer): operationName, variables, query, extensions.
        body: JSON.stringify({ operationName: 'Q', variables: {}, query: 'query Q { __typename }', extensions }),
      }).then((response) => response.text());
    await post({ clientLibrary: { name: 'apollo-kotlin', version: '4.3.3' } });
    await post({ clientLibrary: { name: 'made-up-library-1', version: '1' } });
    await post(undefined);
    expect([await count('apollo-kotlin'), await count('other'), await count('none')]).toEqual([1, 1, 1]);
  });
});
