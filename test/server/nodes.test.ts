import { describe, expect, it, vi } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { DEFAULTS } from '../helpers/settings.js';
import { graphql } from '../gql/index.js';
import { useStack } from '../helpers/stack.js';
import { bearer, OPERATOR } from '../helpers/callers.js';

const DatasetIds = graphql(`
  query DatasetIds {
    datasets {
      id
      code
    }
  }
`);

const NodeById = graphql(`
  query NodeById($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on Dataset {
        code
        title
      }
      ... on Client {
        name
      }
      ... on UseRequest {
        status
        client {
          id
        }
      }
    }
  }
`);

const NodesByIds = graphql(`
  query NodesByIds($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      id
    }
  }
`);

const RegisterForNodes = graphql(`
  mutation RegisterForNodes($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
      client {
        id
      }
    }
  }
`);

const AskForNodes = graphql(`
  mutation AskForNodes($input: RequestEndpointUseInput!) {
    requestEndpointUse(input: $input) {
      useRequest {
        id
      }
    }
  }
`);

describe('Relay Node: ids, node(id:) and nodes(ids:)', () => {
  const stack = useStack();

  /** A registered client that asked for endpoint 84: its key, its id and its request's id. */
  async function clientWithRequest(
    name: string,
  ): Promise<{ headers: Record<string, string>; clientId: string; requestId: string }> {
    const registered = await stack().execute(RegisterForNodes, {
      input: { name, contactEmail: `${name}@example.org` },
    });
    const registration = registered.body.data?.registerClient;
    if (registration == null) throw new Error(registered.text);
    const headers = bearer(registration.apiKey);
    const asked = await stack().execute(AskForNodes, { input: { endpointId: 84, purpose: 'dashboards' } }, headers);
    const requestId = asked.body.data?.requestEndpointUse.useRequest.id;
    if (requestId == null) throw new Error(asked.text);
    return { headers, clientId: registration.client.id, requestId };
  }

  it('gives every dataset a stable id that node(id:) resolves back to it', async () => {
    const { body } = await stack().execute(DatasetIds);
    expect(body.data?.datasets.map((dataset) => dataset.id)).toEqual(DATASETS.map((dataset) => `ds_${dataset.code}`));

    const { body: found } = await stack().execute(NodeById, { id: 'ds_ODS_COUNT_TEACHER_BY_YEAR' });
    expect(found.errors).toBeUndefined();
    expect(found.data?.node).toMatchObject({
      __typename: 'Dataset',
      id: 'ds_ODS_COUNT_TEACHER_BY_YEAR',
      code: 'ODS_COUNT_TEACHER_BY_YEAR',
    });
  });

  it('answers nodes(ids:) in the order asked, null for a well-formed id of nothing', async () => {
    const { body } = await stack().execute(NodesByIds, {
      ids: ['ds_V10_DUPWITH', 'ds_NO_SUCH_CODE', 'cl_unknown', 'ds_MV_DWH_SCHOOL1'],
    });
    expect(body.errors).toBeUndefined();
    expect(body.data?.nodes).toEqual([
      { __typename: 'Dataset', id: 'ds_V10_DUPWITH' },
      null,
      null,
      { __typename: 'Dataset', id: 'ds_MV_DWH_SCHOOL1' },
    ]);
  });

  it('shows a client only itself and its own requests, the operator everyone, and nobody else anything', async () => {
    const alice = await clientWithRequest('alice');
    const bob = await clientWithRequest('bob');
    const asked = (id: string, headers?: Record<string, string>) => stack().execute(NodeById, { id }, headers);

    expect((await asked(alice.clientId, alice.headers)).body.data?.node).toMatchObject({
      __typename: 'Client',
      id: alice.clientId,
      name: 'alice',
    });
    expect((await asked(alice.requestId, alice.headers)).body.data?.node).toMatchObject({
      __typename: 'UseRequest',
      id: alice.requestId,
      status: 'PENDING',
      client: { id: alice.clientId },
    });
    expect((await asked(bob.requestId, OPERATOR)).body.data?.node).toMatchObject({
      __typename: 'UseRequest',
      client: { id: bob.clientId },
    });
    expect((await asked(bob.clientId, OPERATOR)).body.data?.node).toMatchObject({ __typename: 'Client', name: 'bob' });

    // Another client's existing ids answer exactly as ids that do not exist: null, no error.
    for (const [id, headers] of [
      [bob.clientId, alice.headers],
      [bob.requestId, alice.headers],
      [alice.clientId, undefined],
      [alice.requestId, undefined],
      ['ur_doesNotExist', alice.headers],
    ] as const) {
      const { body } = await asked(id, headers);
      expect(body).toEqual({ data: { node: null } });
    }
    const { body } = await stack().execute(
      NodesByIds,
      { ids: [alice.clientId, bob.clientId, bob.requestId, alice.requestId] },
      alice.headers,
    );
    expect(body.data?.nodes).toEqual([
      { __typename: 'Client', id: alice.clientId },
      null,
      null,
      { __typename: 'UseRequest', id: alice.requestId },
    ]);
  });

  it("looks up a client's nodes with one store query per nodes field, whatever ids it sends, and none for strangers", async () => {
    const dave = await clientWithRequest('dave');
    const ids = [dave.requestId, ...Array.from({ length: 99 }, (_, index) => `ur_guess${index}`)];
    const lists = vi.spyOn(stack().access, 'listUseRequests');
    const finds = vi.spyOn(stack().access, 'findUseRequest');
    const clients = vi.spyOn(stack().access, 'findClients');
    try {
      const { body } = await stack().execute(
        NodesByIds,
        { ids: [...ids.slice(0, 50), dave.clientId, ...ids.slice(50, 99)] },
        dave.headers,
      );
      expect(body.data?.nodes.filter((node) => node !== null)).toEqual([
        { __typename: 'UseRequest', id: dave.requestId },
        { __typename: 'Client', id: dave.clientId },
      ]);
      expect([lists.mock.calls.length, finds.mock.calls.length, clients.mock.calls.length]).toEqual([1, 0, 0]);

      await stack().execute(NodesByIds, { ids });
      expect([lists.mock.calls.length, finds.mock.calls.length, clients.mock.calls.length]).toEqual([1, 0, 0]);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('keeps answers about clients and requests out of shared caches, but not those about datasets', async () => {
    const alice = await clientWithRequest('carol');
    const get = (query: string) =>
      stack().app.fetch(`http://localhost/graphql?query=${encodeURIComponent(query)}`, {
        headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1' },
      });
    const dataset = await get('{ node(id: "ds_V10_DUPWITH") { id } }');
    expect(dataset.headers.get('cache-control')).toMatch(/^public/);
    // Anonymous, so null: but a client asking the same would be answered, so the null is not public either.
    const client = await get(`{ node(id: "${alice.clientId}") { id } }`);
    expect(await client.json()).toEqual({ data: { node: null } });
    expect(client.headers.get('cache-control')).toBe('private, no-store');
    const mixed = await get(`{ nodes(ids: ["ds_V10_DUPWITH", "${alice.requestId}"]) { id } }`);
    expect(mixed.headers.get('cache-control')).toBe('private, no-store');
  });

  it('refuses a string that is no Node id, and too many ids, with BAD_USER_INPUT', async () => {
    for (const id of [
      '',
      'ODS_COUNT_TEACHER_BY_YEAR',
      'xx_1',
      'ds_lower',
      'cl_',
      `cl_${'a'.repeat(65)}`,
      'ur_a b',
      'RGF0YXNldDox',
    ]) {
      const { body } = await stack().execute(NodeById, { id });
      expect(body.data).toEqual({ node: null });
      expect(body.errors?.[0]?.extensions?.['code'], id).toBe('BAD_USER_INPUT');
      expect(body.errors?.[0]?.extensions?.['detail']).toMatch(/is not a Node id/);
    }

    const max = DEFAULTS.limits.maxNodeIds;
    const fitting = await stack().execute(NodesByIds, { ids: Array.from({ length: max }, () => 'ds_V10_DUPWITH') });
    expect(fitting.body.data?.nodes).toHaveLength(max);
    const tooMany = await stack().execute(NodesByIds, { ids: Array.from({ length: max + 1 }, () => 'ds_V10_DUPWITH') });
    expect(tooMany.status).toBe(200);
    expect(tooMany.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'nodeIds', max });
    expect(tooMany.body.data).toBeNull();
  });
});
