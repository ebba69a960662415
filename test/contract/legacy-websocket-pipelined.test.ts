import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionClient } from 'subscriptions-transport-ws';
import WebSocket from 'ws';
import { RawSocket } from '../helpers/raw-socket.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

/**
 * The clients of subscriptions-transport-ws (Altair's default subscription handler, GraphQL Playground, Apollo Client
 * 2's `WebSocketLink`, python-graphql-client) send `start` right after `connection_init`, without waiting for
 * `connection_ack`: subscriptions-transport-ws's client flushes its queue as soon as init is sent
 * (client.ts, `connect()`: `sendMessage(GQL_CONNECTION_INIT)` then `flushUnsentMessagesQueue()`). These suites run the
 * real client, on a fresh server, and the same frames sent raw in one tick as the other clients write them.
 */
interface Message {
  type: string;
  id?: string;
  payload?: {
    message?: string;
    data?: Record<string, unknown>;
    errors?: { message: string; extensions?: { code?: string } }[];
    extensions?: { code?: string; detail?: string };
  };
}

const SUBSCRIPTION = 'subscription Changes { datasetChanged(codes: [ODS_COUNT_TEACHER_BY_YEAR]) { version } }';
const THAI = /[\u0E00-\u0E7F]/;
const UNKNOWN_KEY = 'tegk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('the older WebSocket protocol with start pipelined after connection_init, as its clients send it', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let url: string;
  let apiKey: string;
  let clientId: string;
  const sockets: WebSocket[] = [];

  /** The real client, as Apollo Client 2's WebSocketLink makes it: `ws` as its WebSocket, the upgrade's headers given. */
  const realClient = (connectionParams: Record<string, unknown>, headers: Record<string, string> = {}) =>
    new SubscriptionClient(
      url,
      { connectionParams, reconnect: false, lazy: false, wsOptionArguments: [{ headers }] },
      WebSocket,
    );

  /** Subscribes with the real client and resolves once the subscription is open on the server; then closes it. */
  const subscribeOnce = async (connectionParams: Record<string, unknown>, headers?: Record<string, string>) => {
    const client = realClient(connectionParams, headers);
    const errors: unknown[] = [];
    const subscription = client.request({ query: SUBSCRIPTION }).subscribe({ error: (error) => errors.push(error) });
    try {
      await expect.poll(() => stack.live.hub.openSubscriptions, { timeout: 5_000 }).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      subscription.unsubscribe();
      client.close();
    }
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  };

  /** The frames a client writes, sent in one tick on a socket of the older protocol (headers: the upgrade's). */
  const pipelined = async (frames: unknown[], headers: Record<string, string> = {}) => {
    const socket = await RawSocket.open<Message>(url, 'graphql-ws', headers);
    sockets.push(socket.ws);
    // In one TCP segment, so the server reads them all before it can decide init: the race the clients run, at its worst.
    const tcp = (socket.ws as unknown as { _socket: Socket })._socket;
    tcp.cork();
    for (const frame of frames) socket.send(frame);
    tcp.uncork();
    return socket;
  };

  beforeAll(async () => {
    stack = await startStack({ live: { subscriptions: { perCaller: 4, total: 8 } } });
    server = await listen(stack.app, { metrics: stack.metrics });
    url = `${server.origin.replace('http', 'ws')}/graphql`;
    const registered = (await (
      await stack.post({
        query:
          'mutation { registerClient(input: { name: "Altair", contactEmail: "altair@example.org" }) { apiKey client { id } } }',
      })
    ).json()) as { data: { registerClient: { apiKey: string; client: { id: string } } } };
    apiKey = registered.data.registerClient.apiKey;
    clientId = registered.data.registerClient.client.id;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await server.close();
    await stack.close();
  });

  it('subscribes with the real subscriptions-transport-ws client, anonymous, 12 times of 12 from a fresh server', async () => {
    for (let attempt = 0; attempt < 12; attempt += 1) await subscribeOnce({});
  });

  it('subscribes with the real client keyed, 12 times of 12: key in the payload in any case, Bearer or bearer, or on the upgrade', async () => {
    const ways: [Record<string, unknown>, Record<string, string>][] = [
      [{ Authorization: `Bearer ${apiKey}` }, {}],
      [{ authorization: `bearer ${apiKey}` }, {}],
      [{ AUTHORIZATION: `Bearer ${apiKey}` }, {}],
      [{}, { authorization: `Bearer ${apiKey}` }],
    ];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const [params, headers] = ways[attempt % ways.length] ?? [{}, {}];
      await subscribeOnce(params, headers);
    }
    // The key is the caller's: a query pipelined the same way answers as that client.
    const client = realClient({ authorization: `bearer ${apiKey}` });
    const me = await new Promise((resolve, reject) => {
      client.request({ query: '{ me { id } }' }).subscribe({ next: resolve, error: reject });
    });
    client.close();
    expect(me).toEqual({ data: { me: { id: clientId } } });
  });

  it.each([
    // Altair (its subscriptions-transport-ws handler) and GraphQL Playground: init with the headers as its payload, then start.
    [
      'Altair / GraphQL Playground',
      { type: 'connection_init', payload: {} },
      (id: string) => ({
        id,
        type: 'start',
        payload: { query: SUBSCRIPTION, variables: {}, operationName: 'Changes' },
      }),
    ],
    // python-graphql-client's `subscribe`: {"type": "connection_init", "payload": headers}, then {"id", "type": "start", "payload"}.
    [
      'python-graphql-client',
      { type: 'connection_init', payload: { Authorization: 'KEY' } },
      (id: string) => ({
        id,
        type: 'start',
        payload: { query: SUBSCRIPTION, variables: {} },
      }),
    ],
  ])('runs %s frames sent in one tick, in order: start, stop, connection_terminate', async (_client, init, start) => {
    const payload = init.payload as Record<string, unknown>;
    const initFrame = 'Authorization' in payload ? { ...init, payload: { Authorization: `Bearer ${apiKey}` } } : init;
    const socket = await pipelined([initFrame, start('1')]);
    await socket.received((message) => message.type === 'connection_ack');
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    expect(socket.messages.filter((message) => message.type === 'connection_error')).toEqual([]);
    socket.send({ id: '1', type: 'stop' });
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
    socket.send({ type: 'connection_terminate' });
    expect((await socket.closed).code).toBe(1000);
  });

  it('runs a pipelined query and stop in the order sent, and a burst of starts in order', async () => {
    const frames = [
      { type: 'connection_init', payload: {} },
      ...Array.from({ length: 5 }, (_, index) => ({
        id: `q${index}`,
        type: 'start',
        payload: { query: '{ __typename }' },
      })),
    ];
    const socket = await pipelined(frames);
    for (let index = 0; index < 5; index += 1)
      await socket.received((message) => message.id === `q${index}` && message.type === 'complete');
    const data = socket.messages.filter((message) => message.type === 'data').map((message) => message.id);
    expect(data).toEqual(['q0', 'q1', 'q2', 'q3', 'q4']);
    expect(socket.messages[0]?.type).toBe('connection_ack');
  });

  it('refuses what exceeds 16 held messages with the protocol error of that start, coded, in Thai', async () => {
    const frames = [
      { type: 'connection_init', payload: { authorization: `Bearer ${apiKey}` } },
      ...Array.from({ length: 18 }, (_, index) => ({
        id: `s${index}`,
        type: 'start',
        payload: { query: '{ __typename }' },
      })),
    ];
    const socket = await pipelined(frames);
    const refused = await socket.received((message) => message.id === 's16' && message.type === 'error');
    expect(refused.payload?.extensions?.code).toBe('SOCKET_MESSAGE_REFUSED');
    expect(refused.payload?.message).toMatch(THAI);
    await socket.received((message) => message.id === 's15' && message.type === 'complete');
    expect(socket.messages.some((message) => message.id === 's17' && message.type === 'error')).toBe(true);
  });

  it.each([
    ['in the payload', { Authorization: `Bearer ${UNKNOWN_KEY}` }, {}],
    ['in lower case in the payload', { authorization: `bearer ${UNKNOWN_KEY}` }, {}],
    ['on the upgrade', {}, { authorization: `Bearer ${UNKNOWN_KEY}` }],
  ])(
    'refuses an unknown key %s with UNAUTHENTICATED in Thai and 4401, start pipelined',
    async (_where, params, headers) => {
      const socket = await pipelined(
        [
          { type: 'connection_init', payload: params },
          { id: '1', type: 'start', payload: { query: SUBSCRIPTION } },
        ],
        headers,
      );
      const refused = await socket.received((message) => message.type === 'connection_error');
      expect(refused.payload?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(refused.payload?.message).toMatch(THAI);
      expect(refused.payload?.message).not.toMatch(/Unauthorized/);
      // The whole message, as HTTP says it, with its English detail: not the 123 bytes a close frame holds.
      expect(refused.payload?.message).toBe('ยืนยันตัวตนไม่สำเร็จ: ส่งคีย์ API ในส่วนหัว "Authorization: Bearer <คีย์>"');
      expect(refused.payload?.extensions?.detail).toBe('Unknown API key');
      const closed = await socket.closed;
      expect(closed.code).toBe(4401);
      expect(closed.reason).toMatch(/^UNAUTHENTICATED: ยืนยันตัวตนไม่สำเร็จ/);
      expect(stack.live.hub.openSubscriptions).toBe(0);
    },
  );

  it('refuses a stop past the 16 held messages with connection_error and a coded close, in Thai', async () => {
    const frames = [
      { type: 'connection_init', payload: { authorization: `Bearer ${apiKey}` } },
      ...Array.from({ length: 18 }, (_, index) => ({ id: `s${index}`, type: 'stop' })),
    ];
    const socket = await pipelined(frames);
    const refused = await socket.received((message) => message.type === 'connection_error');
    expect(refused.payload?.extensions?.code).toBe('SOCKET_MESSAGE_REFUSED');
    expect(refused.payload?.message).toMatch(THAI);
    expect(refused.payload?.extensions?.detail).toMatch(/^More than 16 messages were sent before connection_init/);
    const closed = await socket.closed;
    expect(closed.code).toBe(4400);
    expect(closed.reason).toMatch(/^SOCKET_MESSAGE_REFUSED: /);
    expect(closed.reason).toMatch(THAI);
  });

  it("names the older protocol's own messages when it refuses one it does not take", async () => {
    const socket = await RawSocket.open<Message>(url, 'graphql-ws', { 'accept-language': 'en' });
    sockets.push(socket.ws);
    socket.send({ type: 'connection_init', payload: {} });
    await socket.received((message) => message.type === 'connection_ack');
    socket.send({ type: 'query', id: '1', payload: { query: '{ __typename }' } });
    const refused = await socket.received((message) => message.type === 'connection_error');
    expect(refused.payload?.extensions?.code).toBe('SOCKET_MESSAGE_REFUSED');
    expect(refused.payload?.message).toMatch(/graphql-ws \(connection_init, start, stop, connection_terminate\)/);
    expect((await socket.closed).code).toBe(4400);
  });

  it.each([
    ['graphql-ws', true],
    ['graphql-transport-ws', false],
  ])(
    'refuses a %s message over the body limit with PAYLOAD_TOO_LARGE in Thai, not an uncoded 1009',
    async (protocol, legacy) => {
      const socket = await RawSocket.open<Message>(url, protocol);
      sockets.push(socket.ws);
      socket.send({ type: 'connection_init', payload: { padding: 'x'.repeat(200 * 1024) } });
      const closed = await socket.closed;
      expect(closed.code).toBe(1009);
      expect(closed.reason).toMatch(/^PAYLOAD_TOO_LARGE: /);
      expect(closed.reason).toMatch(THAI);
      if (legacy)
        expect(socket.messages).toEqual([
          {
            type: 'connection_error',
            payload: {
              message: expect.stringMatching(/^เนื้อหาของคำขอใหญ่เกิน/) as unknown,
              extensions: { code: 'PAYLOAD_TOO_LARGE', maxBytes: expect.any(Number) as unknown },
            },
          },
        ]);
    },
  );

  it('says the refusal in English when the upgrade asks for it', async () => {
    const socket = await pipelined(
      [
        { type: 'connection_init', payload: { authorization: `Bearer ${UNKNOWN_KEY}` } },
        { id: '1', type: 'start', payload: { query: SUBSCRIPTION } },
      ],
      { 'accept-language': 'en' },
    );
    const refused = await socket.received((message) => message.type === 'connection_error');
    expect(refused.payload?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(refused.payload?.message).not.toMatch(THAI);
  });

  it('gives graphql-ws refusals on the newer protocol a registered code and the language: subscribe before ack', async () => {
    const socket = await RawSocket.open<Message>(url, 'graphql-transport-ws');
    sockets.push(socket.ws);
    socket.send({ id: '1', type: 'subscribe', payload: { query: '{ __typename }' } });
    const closed = await socket.closed;
    expect(closed.code).toBe(4401);
    expect(closed.reason).toMatch(/^SOCKET_MESSAGE_REFUSED: /);
    expect(closed.reason).toMatch(THAI);
  });
});
