import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client as GraphQLWsClient } from 'graphql-ws';
import {
  commitMutation,
  createOperationDescriptor,
  fetchQuery,
  getSelector,
  requestSubscription,
  type Environment,
  type ReaderFragment,
  type OperationType,
} from 'relay-runtime';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import { readPersistedManifest } from '../../src/server/operations/use-persisted-operations.js';
import { upstreamDataset } from '../helpers/upstream-answer.js';
import { TEST_ADMIN_TOKEN, useListeningStack } from '../helpers/stack.js';
import RelayRequestUseMutation, {
  type RelayRequestUseMutation as RequestUse,
} from './relay/__generated__/RelayRequestUseMutation.graphql.js';
import RelayRowsPaginationQuery, {
  type RelayRowsPaginationQuery as RowsPage,
} from './relay/__generated__/RelayRowsPaginationQuery.graphql.js';
import RelayRowsQuery, { type RelayRowsQuery as Rows } from './relay/__generated__/RelayRowsQuery.graphql.js';
import relayRowsDataset, { type relayRows_dataset$data } from './relay/__generated__/relayRows_dataset.graphql.js';
import RelaySummaryQuery, {
  type RelaySummaryQuery as Summary,
} from './relay/__generated__/RelaySummaryQuery.graphql.js';
import RelaySummaryRefetchQuery, {
  type RelaySummaryRefetchQuery as SummaryRefetch,
} from './relay/__generated__/RelaySummaryRefetchQuery.graphql.js';
import relaySummaryEndpoint, {
  type relaySummary_endpoint$data,
} from './relay/__generated__/relaySummary_endpoint.graphql.js';
import RelayUseRequestSubscription, {
  type RelayUseRequestSubscription as UseRequestChanged,
} from './relay/__generated__/RelayUseRequestSubscription.graphql.js';
import { createRelayEnvironment, createWebSocketClient, recordingFetch, request, type SentRequest } from './setups.js';

const RELAY_FOLDER = fileURLToPath(new URL('./relay/', import.meta.url));
/** Eight records (2560 to 2567): five on the first page of the fragment, three on the next. */
const DATASET: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';

/** What the store holds for a fragment spread on the record `ref` points at: what a component would render. */
function readFragment<Data>(environment: Environment, fragment: ReaderFragment, ref: unknown): Data {
  const selector = getSelector(fragment, ref);
  if (selector === null || selector.kind !== 'SingularReaderSelector') throw new Error('not a singular fragment ref');
  return environment.lookup(selector).data as Data;
}

/** The data of a query as the store holds it now (fragment spreads as refs). */
function readQuery<Operation extends OperationType>(
  environment: Environment,
  query: Parameters<typeof createOperationDescriptor>[0],
  variables: Operation['variables'],
): Operation['response'] {
  return environment.lookup(createOperationDescriptor(query, variables).fragment).data;
}

describe('Relay (relay-runtime 21, artifacts of relay-compiler 21, no React) against a listening server', () => {
  const listening = useListeningStack();
  const url = () => `${listening().origin}/graphql`;
  const sockets: GraphQLWsClient[] = [];
  afterAll(async () => {
    for (const socket of sockets) await socket.dispose();
  });

  /** A registered client's key, over the wire as any app gets one. */
  async function registeredKey(name: string): Promise<string> {
    const answer = await request<{ registerClient: { apiKey: string } }>(
      url(),
      `mutation { registerClient(input: { name: "${name}", contactEmail: "relay@example.org" }) { apiKey } }`,
    );
    const apiKey = answer.data?.registerClient.apiKey;
    if (apiKey === undefined) throw new Error(JSON.stringify(answer.errors));
    return apiKey;
  }

  const approve = (useRequestId: string) =>
    request(
      url(),
      'mutation($id: ID!) { reviewUseRequest(input: { id: $id, decision: APPROVE }) { useRequest { status } } }',
      { id: useRequestId },
      TEST_ADMIN_TOKEN,
    );

  it('the committed artifacts are what relay-compiler makes of operations.ts and schema/schema.graphql', () => {
    // --validate writes nothing and exits non-zero when an artifact is missing, stale or left over.
    const compiler = spawnSync('npx', ['relay-compiler', '--validate'], { cwd: RELAY_FOLDER, encoding: 'utf8' });
    expect(
      compiler.status,
      `${compiler.stderr}\nrun 'npm run codegen' and commit test/clients/relay/__generated__`,
    ).toBe(0);
  });

  it("pages a dataset's records with @connection on Dataset.rows, the next page by the fragment's node(id:) query", async () => {
    const sent: SentRequest[] = [];
    const environment = createRelayEnvironment(url(), { fetch: recordingFetch(sent) });
    await fetchQuery<Rows>(environment, RelayRowsQuery, { code: DATASET }).toPromise();
    const dataset = readQuery<Rows>(environment, RelayRowsQuery, { code: DATASET }).dataset;
    const firstPage = readFragment<relayRows_dataset$data>(environment, relayRowsDataset, dataset);
    expect(firstPage.rows?.edges).toHaveLength(5);
    expect(firstPage.rows?.totalCount).toBe(8);

    // What usePaginationFragment's loadNext sends: the generated query, by the dataset's Node id, after endCursor.
    expect(firstPage.rows?.pageInfo.hasNextPage).toBe(true);
    const endCursor = firstPage.rows?.pageInfo.endCursor;
    if (endCursor === null || endCursor === undefined) throw new Error('the first page has no endCursor');
    await fetchQuery<RowsPage>(environment, RelayRowsPaginationQuery, {
      id: firstPage.id,
      count: 5,
      cursor: endCursor,
    }).toPromise();
    const nextPage = JSON.parse(sent[1]?.body ?? '{}') as { query: string; variables: unknown };
    expect(nextPage.query).toContain('node(id: $id) {');
    expect(nextPage.variables).toEqual({ id: `ds_${DATASET}`, count: 5, cursor: endCursor });

    // The store's connection, as the list component reads it: both pages, in order, equal to the upstream's records.
    const both = readFragment<relayRows_dataset$data>(environment, relayRowsDataset, dataset);
    const upstream = (await upstreamDataset(listening().stack.simulator, DATASET)) as { data: unknown[] };
    expect(upstream.data).toHaveLength(8);
    expect(both.rows?.edges.map((edge) => edge.node.values)).toEqual(upstream.data);
    expect(both.rows?.pageInfo.hasNextPage).toBe(false);
  });

  it('refetches a summary endpoint by its Node id and shows the status the client now has', async () => {
    const apiKey = await registeredKey('Relay refetch app');
    const sent: SentRequest[] = [];
    const environment = createRelayEnvironment(url(), {
      fetch: recordingFetch(sent),
      headers: { authorization: `Bearer ${apiKey}` },
    });
    await fetchQuery<Summary>(environment, RelaySummaryQuery, { endpointId: 85 }).toPromise();
    const ref = readQuery<Summary>(environment, RelaySummaryQuery, { endpointId: 85 }).summaryEndpoint;
    const before = readFragment<relaySummary_endpoint$data>(environment, relaySummaryEndpoint, ref);
    expect(before).toMatchObject({ id: 'se_85', endpointId: 85, status: 'NOT_REQUESTED' });

    const asked = await request<{ requestEndpointUse: { useRequest: { id: string } } }>(
      url(),
      'mutation { requestEndpointUse(input: { id: "se_85", purpose: "school maps" }) { useRequest { id } } }',
      {},
      apiKey,
    );
    expect((await approve(asked.data?.requestEndpointUse.useRequest.id ?? '')).errors).toBeUndefined();

    // What useRefetchableFragment's refetch sends: the generated node(id:) query.
    await fetchQuery<SummaryRefetch>(environment, RelaySummaryRefetchQuery, { id: before.id }).toPromise();
    const refetch = JSON.parse(sent.at(-1)?.body ?? '{}') as { query: string; variables: unknown };
    expect(refetch.query).toContain('node(id: $id) {');
    expect(refetch.variables).toEqual({ id: 'se_85' });
    expect(readFragment<relaySummary_endpoint$data>(environment, relaySummaryEndpoint, ref)).toMatchObject({
      id: 'se_85',
      status: 'APPROVED',
    });
  });

  it("normalises requestEndpointUse's endpoint by id: the record the screen reads turns PENDING", async () => {
    const environment = createRelayEnvironment(url(), {
      headers: { authorization: `Bearer ${await registeredKey('Relay mutation app')}` },
    });
    await fetchQuery<Summary>(environment, RelaySummaryQuery, { endpointId: 84 }).toPromise();
    const ref = readQuery<Summary>(environment, RelaySummaryQuery, { endpointId: 84 }).summaryEndpoint;
    expect(readFragment<relaySummary_endpoint$data>(environment, relaySummaryEndpoint, ref).status).toBe(
      'NOT_REQUESTED',
    );

    const response = await new Promise<RequestUse['response']>((resolve, reject) => {
      commitMutation<RequestUse>(environment, {
        mutation: RelayRequestUseMutation,
        variables: { id: 'se_84', purpose: 'district dashboards' },
        onCompleted: (data, errors) =>
          errors === null || errors === undefined ? resolve(data) : reject(new Error(JSON.stringify(errors))),
        onError: reject,
      });
    });
    expect(response.requestEndpointUse.useRequest).toMatchObject({
      status: 'PENDING',
      endpoint: { id: 'se_84', status: 'PENDING' },
    });
    // No updater: the payload's endpoint landed on the same store record the query's fragment reads.
    expect(readFragment<relaySummary_endpoint$data>(environment, relaySummaryEndpoint, ref)).toMatchObject({
      id: 'se_84',
      endpointId: 84,
      status: 'PENDING',
    });
  });

  it("receives a request for use's transitions through Relay's subscribe function over graphql-ws", async () => {
    const apiKey = await registeredKey('Relay live app');
    const socket = createWebSocketClient(`${url().replace('http', 'ws')}`, { authorization: `Bearer ${apiKey}` });
    sockets.push(socket);
    const environment = createRelayEnvironment(url(), {
      headers: { authorization: `Bearer ${apiKey}` },
      subscriptions: socket,
    });
    const received: UseRequestChanged['response'][] = [];
    const errors: Error[] = [];
    const subscription = requestSubscription<UseRequestChanged>(environment, {
      subscription: RelayUseRequestSubscription,
      variables: {},
      onNext: (response) => {
        if (response !== null && response !== undefined) received.push(response);
      },
      onError: (error) => errors.push(error),
    });
    try {
      await expect.poll(() => listening().stack.live.hub.openSubscriptions).toBe(1);
      const response = await new Promise<RequestUse['response']>((resolve, reject) => {
        commitMutation<RequestUse>(environment, {
          mutation: RelayRequestUseMutation,
          variables: { id: 'se_86', purpose: 'graduate trends' },
          onCompleted: resolve,
          onError: reject,
        });
      });
      const { id } = response.requestEndpointUse.useRequest;
      await expect.poll(() => received.length).toBe(1);
      expect((await approve(id)).errors).toBeUndefined();
      await expect.poll(() => received.length).toBe(2);
      expect(errors).toEqual([]);
      expect(received).toEqual([
        { useRequestChanged: { id, status: 'PENDING', endpoint: { id: 'se_86', status: 'PENDING' } } },
        { useRequestChanged: { id, status: 'APPROVED', endpoint: { id: 'se_86', status: 'APPROVED' } } },
      ]);
      // The event updated the normalised records, as a query's answer would.
      const source = environment.getStore().getSource();
      expect(source.get(id)?.['status']).toBe('APPROVED');
      expect(source.get('se_86')?.['status']).toBe('APPROVED');
    } finally {
      subscription.dispose();
    }
  });
});

// Issue 32: relay-compiler's persisted queries (`persistConfig`) as the trusted-documents manifest, and Relay's
// network layer sending `doc_id` with the variables, as Relay's docs write it.
describe("relay-compiler's persisted queries as the trusted documents", () => {
  // What relay-compiler writes with persistConfig { file, algorithm: "MD5" } (its default): { "<md5 of the text>":
  // "<text>" }, the id each artifact carries as `params.id` (and, unpersisted, as `params.cacheID`).
  const persisted = (): ReadonlyMap<string, string> => {
    const directory = mkdtempSync(join(tmpdir(), 'teg-relay-persist-'));
    cpSync(RELAY_FOLDER, directory, { recursive: true });
    rmSync(join(directory, '__generated__'), { recursive: true });
    mkdirSync(join(directory, '__generated__'));
    const config = JSON.parse(readFileSync(join(directory, 'relay.config.json'), 'utf8')) as Record<string, unknown>;
    config['schema'] = fileURLToPath(new URL('../../schema/schema.graphql', import.meta.url));
    config['persistConfig'] = { file: './persisted_queries.json', algorithm: 'MD5' };
    writeFileSync(join(directory, 'relay.config.json'), JSON.stringify(config));
    writeFileSync(join(directory, 'persisted_queries.json'), '{}');
    const relayCompiler = fileURLToPath(new URL('../../node_modules/.bin/relay-compiler', import.meta.url));
    const compiler = spawnSync(relayCompiler, ['--output', 'quiet-with-errors'], { cwd: directory, encoding: 'utf8' });
    expect(compiler.status, compiler.stderr).toBe(0);
    return readPersistedManifest(join(directory, 'persisted_queries.json'));
  };
  const manifest = persisted();
  const listening = useListeningStack({ trustedDocuments: manifest });

  it('runs an operation sent as { doc_id, variables }, and refuses its text and an unknown id', async () => {
    const { params } = RelayRowsQuery;
    if (!('cacheID' in params) || params.text === null) throw new Error('the committed artifacts hold their text');
    const id = params.cacheID;
    expect(manifest.get(id)).toBe(params.text);
    const post = async (body: unknown) => {
      const response = await fetch(`${listening().origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as {
        data?: { dataset?: { code?: string } };
        errors?: { extensions?: { code?: string } }[];
      };
    };
    const answer = await post({ doc_id: id, variables: { code: DATASET } });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.dataset?.code).toBe(DATASET);
    expect(
      (await post({ query: RelayRowsQuery.params.text, variables: { code: DATASET } })).errors?.[0]?.extensions?.code,
    ).toBe('PERSISTED_QUERY_ONLY');
    expect((await post({ doc_id: '0'.repeat(32), variables: {} })).errors?.[0]?.extensions?.code).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
  });
});
