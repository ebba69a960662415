import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RawSocket } from '../helpers/raw-socket.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

/**
 * The WebSocket defaults of the mobile clients, message for message as their sources write them:
 *
 * - Apollo Kotlin 4's `SubscriptionWsProtocol` (its default `WebSocketNetworkTransport` protocol): subprotocol
 *   `graphql-ws`; `{"type":"connection_init","payload":{…}}`; `{"type":"start","id":…,"payload":{"variables",
 *   "operationName","query"}}`; `{"type":"stop","id":…}`; it reads `connection_ack`, `connection_error`, `data`,
 *   `error`, `complete` and `ka`.
 * - graphql_flutter's and ferry's `WebSocketLink` (gql_websocket_link, `GraphQLProtocol.graphqlWs`): the same
 *   messages, `connection_terminate` when it closes, and a reconnect after 30 s without a `ka` (inactivityTimeout).
 * - Apollo Kotlin, Apollo iOS and Flutter apps that put the key on the upgrade request's `Authorization` header.
 */
interface Message {
  type: string;
  id?: string;
  payload?: { data?: Record<string, unknown>; errors?: { message: string; extensions?: { code?: string } }[] };
}

type LegacyClient = RawSocket<Message>;

/** Apollo Kotlin's start message for `query`. */
function start(
  client: LegacyClient,
  id: string,
  query: string,
  variables: Record<string, unknown> = {},
  operationName: string | null = null,
): void {
  client.send({ type: 'start', id, payload: { variables, operationName, query } });
}

describe('the older WebSocket protocol (subscriptions-transport-ws), as Apollo Kotlin and Flutter speak it', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let url: string;
  const clients: LegacyClient[] = [];
  const open = async (headers: Record<string, string> = {}): Promise<LegacyClient> => {
    const client = await RawSocket.open<Message>(url, 'graphql-ws', headers);
    expect(client.ws.protocol).toBe('graphql-ws');
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    stack = await startStack({ live: { subscriptions: { perCaller: 4, total: 8 } } });
    server = await listen(stack.app, { metrics: stack.metrics });
    url = `${server.origin.replace('http', 'ws')}/graphql`;
    await stack.live.watcher.check();
  });
  afterAll(async () => {
    for (const client of clients) client.ws.terminate();
    await server.close();
    await stack.close();
  });

  it('acknowledges, keeps alive, answers a query with data then complete, and streams a subscription until stop', async () => {
    const client = await open();
    client.send({ type: 'connection_init', payload: {} });
    await client.received((message) => message.type === 'connection_ack');
    await client.received((message) => message.type === 'ka');

    start(client, '1', 'query Catalogue { datasets { code } }', {}, 'Catalogue');
    const data = await client.received((message) => message.id === '1' && message.type === 'data');
    expect(data.payload?.data?.['datasets']).toHaveLength(13);
    await client.received((message) => message.id === '1' && message.type === 'complete');

    const code = 'ODS_COUNT_TEACHER_BY_YEAR';
    start(client, '2', 'subscription C($codes: [DatasetCode!]) { datasetChanged(codes: $codes) { version } }', {
      codes: [code],
    });
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    expect(
      (await fetch(`${stack.simulator.url}/__simulator/datasets/${code}/revisions`, { method: 'POST' })).status,
    ).toBe(201);
    await stack.live.watcher.check();
    const event = await client.received((message) => message.id === '2' && message.type === 'data');
    expect(event.payload?.data?.['datasetChanged']).toMatchObject({ version: expect.any(String) as unknown });
    client.send({ type: 'stop', id: '2' });
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('answers a bad document with its errors, in Thai by default, and the socket serves on', async () => {
    const client = await open();
    client.send({ type: 'connection_init', payload: {} });
    await client.received((message) => message.type === 'connection_ack');
    start(client, 'bad', '{ dataset(code: NOT_A_DATASET) { code } }');
    const answer = await client.received((message) => message.id === 'bad' && message.type === 'data');
    expect(answer.payload?.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(answer.payload?.errors?.[0]?.message).toMatch(/^คำสั่ง GraphQL ไม่ผ่านการตรวจสอบกับสคีมา/);
    await client.received((message) => message.id === 'bad' && message.type === 'complete');
    start(client, 'ok', '{ __typename }');
    await client.received((message) => message.id === 'ok' && message.type === 'complete');
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("reads the key from the upgrade's Authorization header, and refuses an unknown one with connection_error and 4401", async () => {
    // A registration over HTTP, as the app did once.
    const registered = (await (
      await stack.post({
        query:
          'mutation { registerClient(input: { name: "Kotlin app", contactEmail: "kt@example.org" }) { apiKey client { id } } }',
      })
    ).json()) as { data: { registerClient: { apiKey: string; client: { id: string } } } };
    const { apiKey, client: registeredClient } = registered.data.registerClient;
    const keyed = await open({ authorization: `Bearer ${apiKey}` });
    keyed.send({ type: 'connection_init', payload: {} });
    await keyed.received((message) => message.type === 'connection_ack');
    start(keyed, 'me', '{ me { id } }');
    const me = await keyed.received((message) => message.id === 'me' && message.type === 'data');
    expect(me.payload?.data?.['me']).toEqual({ id: registeredClient.id });

    const unknown = await open({ authorization: 'Bearer tegk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    unknown.send({ type: 'connection_init', payload: {} });
    const refused = await unknown.received((message) => message.type === 'connection_error');
    expect(refused.payload).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    expect((await unknown.closed).code).toBe(4401);
  });

  it('closes on connection_terminate (Flutter, when the app closes the link)', async () => {
    const client = await open();
    client.send({ type: 'connection_init', payload: {} });
    await client.received((message) => message.type === 'connection_ack');
    client.send({ type: 'connection_terminate' });
    expect((await client.closed).code).toBe(1000);
  });
});
