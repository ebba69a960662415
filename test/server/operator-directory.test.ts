import { describe, expect, it } from 'vitest';
import { bearer, codesOf, OPERATOR } from '../helpers/callers.js';
import { TEST_STORES, useStack, type Stack } from '../helpers/stack.js';

interface Answer {
  readonly status: number;
  readonly body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}

const SOMCHAI = { name: 'somchai', token: 'somchai-operator-token-7d1e2f3a4b5c' };
const MALEE = { name: 'malee', token: 'malee-operator-token-9a8b7c6d5e4f3a2b' };

async function send(
  stack: Stack,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await stack.post({ query, variables }, headers);
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const REGISTER = 'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey client { id } } }';
const ASK =
  'mutation ($id: Int!) { requestEndpointUse(input: { endpointId: $id, purpose: "research" }) { useRequest { id } } }';
const QUEUE = `query ($order: UseRequestOrder, $first: Int, $after: String) {
  useRequestsPage(status: PENDING, order: $order, first: $first, after: $after) {
    totalCount
    edges { cursor node { id client { name } } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const DIRECTORY = `query ($search: String, $disabled: Boolean, $first: Int, $after: String) {
  clients(search: $search, disabled: $disabled, first: $first, after: $after) {
    totalCount
    edges { node { id name contactEmail useRequests { status endpoint { id } } } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const as = (token: string) => bearer(token);

describe.each(TEST_STORES)('the operator pages (%s)', (store) => {
  let clock = Date.parse('2032-03-01T08:00:00Z');
  // Every store write a second apart, so that the order of the queue is the order of the asks.
  const stack = useStack({
    store,
    access: { now: () => new Date((clock += 1_000)) },
    adminTokens: [SOMCHAI, MALEE],
  });

  const clients: { id: string; apiKey: string; name: string }[] = [];
  async function newClient(name: string, contactEmail: string): Promise<{ id: string; apiKey: string; name: string }> {
    const answer = await send(stack(), REGISTER, { input: { name, contactEmail } });
    const payload = answer.body.data?.['registerClient'] as { apiKey: string; client: { id: string } };
    const client = { id: payload.client.id, apiKey: payload.apiKey, name };
    clients.push(client);
    return client;
  }

  it('names the caller in viewer, and each named operator in the audit trail', async () => {
    const client = await newClient('แอปทดสอบผู้ดูแล', 'viewer@example.org');
    const viewer = async (headers: Record<string, string>) =>
      (await send(stack(), '{ viewer { kind name } }', {}, headers)).body.data?.['viewer'];
    expect(await viewer({})).toEqual({ kind: 'ANONYMOUS', name: null });
    expect(await viewer(as(client.apiKey))).toEqual({ kind: 'CLIENT', name: 'แอปทดสอบผู้ดูแล' });
    expect(await viewer(OPERATOR)).toEqual({ kind: 'OPERATOR', name: null });
    expect(await viewer(as(SOMCHAI.token))).toEqual({ kind: 'OPERATOR', name: 'somchai' });
    expect(await viewer(as(MALEE.token))).toEqual({ kind: 'OPERATOR', name: 'malee' });

    const asked = await send(stack(), ASK, { id: 84 }, as(client.apiKey));
    const requestId = (asked.body.data?.['requestEndpointUse'] as { useRequest: { id: string } }).useRequest.id;
    const review = await send(
      stack(),
      'mutation ($id: ID!) { reviewUseRequest(input: { id: $id, decision: REJECT, note: "ไม่ครบ" }) { useRequest { history { actor } } } }',
      { id: requestId },
      as(MALEE.token),
    );
    expect(review.body.data).toEqual({
      reviewUseRequest: { useRequest: { history: [{ actor: `client:${client.id}` }, { actor: 'operator:malee' }] } },
    });
  });

  it('pages the review queue oldest first with its whole count, and newest first on request', async () => {
    const asking = [];
    for (let index = 0; index < 5; index += 1)
      asking.push(await newClient(`Queue App ${index}`, `q${index}@example.org`));
    for (const client of asking) await send(stack(), ASK, { id: 83 }, as(client.apiKey));

    const names: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const answer = await send(stack(), QUEUE, { order: 'OLDEST_FIRST', first: 2, after }, OPERATOR);
      const page = answer.body.data?.['useRequestsPage'] as {
        totalCount: number;
        edges: { node: { client: { name: string } } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
      expect(page.totalCount).toBe(5);
      names.push(...page.edges.map((edge) => edge.node.client.name));
      pages += 1;
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(names).toEqual(asking.map((client) => client.name));

    const newest = await send(stack(), QUEUE, { order: 'NEWEST_FIRST', first: 5 }, OPERATOR);
    const newestNames = (
      newest.body.data?.['useRequestsPage'] as { edges: { node: { client: { name: string } } }[] }
    ).edges.map((edge) => edge.node.client.name);
    expect(newestNames).toEqual(asking.map((client) => client.name).reverse());
  });

  it('refuses a cursor it did not give out, a page size out of bounds, and anyone but the operator', async () => {
    expect(codesOf((await send(stack(), QUEUE, { after: 'not-a-cursor' }, OPERATOR)).body)).toEqual(['BAD_USER_INPUT']);
    expect(codesOf((await send(stack(), QUEUE, { first: 101 }, OPERATOR)).body)).toEqual(['BAD_USER_INPUT']);
    expect(codesOf((await send(stack(), QUEUE)).body)).toEqual(['UNAUTHENTICATED']);
    const client = clients[0];
    if (client === undefined) throw new Error('the first test registers a client');
    expect(codesOf((await send(stack(), QUEUE, {}, as(client.apiKey))).body)).toEqual(['FORBIDDEN']);
    expect(codesOf((await send(stack(), DIRECTORY, {}, as(client.apiKey))).body)).toEqual(['FORBIDDEN']);
  });

  it('finds clients by a part of the name or address, whatever the case, with their requests', async () => {
    await newClient('Percent 100% App', 'percent@example.org');
    const search = async (variables: Record<string, unknown>) => {
      const answer = await send(stack(), DIRECTORY, variables, OPERATOR);
      return answer.body.data?.['clients'] as {
        totalCount: number;
        edges: { node: { name: string; contactEmail: string; useRequests: { status: string }[] } }[];
      };
    };
    const byName = await search({ search: 'queue app' });
    expect(byName.totalCount).toBe(5);
    // Newest first.
    expect(byName.edges.map((edge) => edge.node.name)).toEqual([
      'Queue App 4',
      'Queue App 3',
      'Queue App 2',
      'Queue App 1',
      'Queue App 0',
    ]);
    expect(byName.edges[0]?.node.useRequests).toEqual([{ status: 'PENDING', endpoint: { id: 'se_83' } }]);
    expect((await search({ search: 'Q3@EXAMPLE' })).edges.map((edge) => edge.node.name)).toEqual(['Queue App 3']);
    // % is a character like any other, not a wildcard.
    expect((await search({ search: '100%' })).edges.map((edge) => edge.node.name)).toEqual(['Percent 100% App']);
    expect((await search({ search: 'nothing like it' })).totalCount).toBe(0);
  });

  it('erases a disabled client on the operator’s word, recording who and on what grounds', async () => {
    const client = await newClient('Erase Me App', 'erase-me@example.org');
    await send(
      stack(),
      'mutation ($id: ID!) { disableClient(input: { id: $id, note: "Abuse report 7 about Erase Me App" }) { client { id } } }',
      { id: client.id },
      OPERATOR,
    );
    // The note is the operator's why, in the client's audit trail (and erased with the client, below).
    const history = await send(
      stack(),
      'query ($id: ID!) { node(id: $id) { ... on Client { history { kind note } } } }',
      { id: client.id },
      OPERATOR,
    );
    expect(history.body.data).toMatchObject({
      node: {
        history: [
          { kind: 'REGISTERED', note: null },
          { kind: 'DISABLED', note: 'Abuse report 7 about Erase Me App' },
        ],
      },
    });
    expect((await send(stack(), DIRECTORY, { disabled: true }, OPERATOR)).body.data).toMatchObject({
      clients: { totalCount: 1, edges: [{ node: { name: 'Erase Me App' } }] },
    });
    const ERASE =
      'mutation ($id: ID!) { eraseClient(input: { id: $id, note: "PDPA ticket 42" }) { clientId deletedAt } }';
    expect(codesOf((await send(stack(), ERASE, { id: client.id }, as(client.apiKey))).body)).toEqual([
      'CLIENT_DISABLED',
    ]);
    const erased = await send(stack(), ERASE, { id: client.id }, as(SOMCHAI.token));
    expect(erased.body.data).toMatchObject({ eraseClient: { clientId: client.id } });

    expect((await send(stack(), '{ me { id } }', {}, as(client.apiKey))).status).toBe(401);
    expect((await send(stack(), DIRECTORY, { search: 'erase me' }, OPERATOR)).body.data).toMatchObject({
      clients: { totalCount: 0 },
    });
    const access = stack().access;
    const events = await access.clientEvents([client.id]);
    expect(events.at(-1)).toMatchObject({ kind: 'DELETED', actor: 'operator:somchai', detail: 'PDPA ticket 42' });
    expect(events.find((event) => event.kind === 'DISABLED')).toMatchObject({ note: null });
    expect(codesOf((await send(stack(), ERASE, { id: client.id }, OPERATOR)).body)).toEqual(['NOT_FOUND']);
  });

  it('counts operations per client per day and records each read of a gated summary', async () => {
    const client = await newClient('Usage App', 'usage@example.org');
    const asked = await send(stack(), ASK, { id: 85 }, as(client.apiKey));
    const requestId = (asked.body.data?.['requestEndpointUse'] as { useRequest: { id: string } }).useRequest.id;
    await send(
      stack(),
      'mutation ($id: ID!) { reviewUseRequest(input: { id: $id, decision: APPROVE }) { useRequest { status } } }',
      { id: requestId },
      OPERATOR,
    );
    const read = await send(stack(), '{ summaryEndpoint(endpointId: 85) { payload } }', {}, as(client.apiKey));
    expect(read.body.errors).toBeUndefined();
    await send(stack(), '{ summaryEndpoint(endpointId: 85) { payload } }', {}, as(client.apiKey));
    // Not approved: no read to record.
    await send(stack(), '{ summaryEndpoint(endpointId: 86) { payload } }', {}, as(client.apiKey));

    const USAGE = `query ($id: ID!) { node(id: $id) { ... on Client {
      usage(days: 7) { day operations }
      summaryReads(first: 1) { totalCount edges { node { endpoint { id } at } } pageInfo { hasNextPage } }
    } } }`;
    const answer = await send(stack(), USAGE, { id: client.id }, OPERATOR);
    const node = answer.body.data?.['node'] as {
      usage: { day: string; operations: number }[];
      summaryReads: {
        totalCount: number;
        edges: { node: { endpoint: { id: number } } }[];
        pageInfo: { hasNextPage: boolean };
      };
    };
    // ask, three summary reads (the refused one too): four operations of this client, all today.
    expect(node.usage).toEqual([{ day: new Date(clock).toISOString().slice(0, 10), operations: 4 }]);
    expect(node.summaryReads).toMatchObject({
      totalCount: 2,
      edges: [{ node: { endpoint: { id: 'se_85' } } }],
      pageInfo: { hasNextPage: true },
    });
    // Another client sees no other client, so none of its usage.
    const other = await send(stack(), USAGE, { id: client.id }, as(clients[0]?.apiKey ?? ''));
    expect(other.body.data).toEqual({ node: null });
  });
});
