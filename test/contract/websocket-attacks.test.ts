import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { RawSocket } from '../helpers/raw-socket.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

/**
 * What one anonymous address can make a socket do (issue 34), on the production build: every `subscribe` pays its
 * token before any work, other messages are metered per socket, ids cannot leak subscriptions, upgrades meet the
 * HTTP policies, and nothing a client sends reaches the log as a stack.
 */
interface Message {
  type: string;
  id?: string;
  payload?: { extensions?: { code?: string } }[] | { data?: unknown; errors?: unknown[] };
}

type Socket = RawSocket<Message>;

const errorCode = (message: Message): string | undefined =>
  Array.isArray(message.payload) ? message.payload[0]?.extensions?.code : undefined;

describe('a socket, attacked', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let url: string;
  const opened: Socket[] = [];
  const open = async (headers: Record<string, string> = {}): Promise<Socket> => {
    const socket = await RawSocket.open<Message>(url, 'graphql-transport-ws', headers);
    opened.push(socket);
    socket.send({ type: 'connection_init' });
    await socket.received((message) => message.type === 'connection_ack');
    return socket;
  };

  beforeAll(async () => {
    stack = await startStack({
      rateLimit: { points: 30, windowS: 600, trustProxy: true },
      live: { subscriptions: { perCaller: 3, total: 10 } },
      http: { corsOrigins: ['https://app.example.org'], graphiql: true, introspection: true, portal: true },
    });
    server = await listen(stack.app, { metrics: stack.metrics });
    url = `${server.origin.replace('http', 'ws')}/graphql`;
  });
  afterAll(async () => {
    for (const socket of opened) socket.ws.terminate();
    await server.close();
    await stack.close();
  });

  it('charges a refused document its token before any work, as HTTP does', async () => {
    const socket = await open({ 'x-forwarded-for': '198.51.100.1' });
    for (let n = 0; n < 30; n++) socket.send({ type: 'subscribe', id: `bad-${n}`, payload: { query: '{ nope }' } });
    for (let n = 0; n < 30; n++)
      expect(errorCode(await socket.received((message) => message.id === `bad-${n}`))).toBe(
        'GRAPHQL_VALIDATION_FAILED',
      );
    socket.send({ type: 'subscribe', id: 'good', payload: { query: '{ __typename }' } });
    expect(errorCode(await socket.received((message) => message.id === 'good'))).toBe('RATE_LIMITED');
  });

  it('lets no reused id leave a subscription open once the socket is gone', async () => {
    const before = stack.live.hub.openSubscriptions;
    const socket = await open({ 'x-forwarded-for': '198.51.100.2' });
    const subscribe = () =>
      socket.send({ type: 'subscribe', id: 'x', payload: { query: 'subscription { datasetChanged { version } }' } });
    // Completed while still starting, then the same id again at once: both would stream on under one id.
    for (let round = 0; round < 5; round++) {
      subscribe();
      socket.send({ type: 'complete', id: 'x' });
      subscribe();
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.send({ type: 'complete', id: 'x' });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stack.live.hub.openSubscriptions).toBe(before);
    // Once established, completed, and again.
    for (let round = 0; round < 3; round++) {
      subscribe();
      await expect.poll(() => stack.live.hub.openSubscriptions).toBeGreaterThan(before);
      socket.send({ type: 'complete', id: 'x' });
      await expect.poll(() => stack.live.hub.openSubscriptions).toBe(before);
    }
    subscribe();
    subscribe();
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.ws.close(1000);
    await socket.closed;
    await expect.poll(() => stack.live.hub.openSubscriptions, { timeout: 5_000 }).toBe(before);
  });

  it('closes a socket that floods it with pings (4429), and refuses a ping that carries 100 KB (4400)', async () => {
    const flooding = await open({ 'x-forwarded-for': '198.51.100.3' });
    for (let n = 0; n < 200; n++) flooding.send({ type: 'ping' });
    expect((await flooding.closed).code).toBe(4429);
    expect(flooding.messages.filter((message) => message.type === 'pong').length).toBeLessThan(60);

    const heavy = await open({ 'x-forwarded-for': '198.51.100.4' });
    heavy.send({ type: 'ping', payload: { padding: 'x'.repeat(100_000) } });
    expect((await heavy.closed).code).toBe(4400);
  });

  it('refuses a document nested 2,400 deep as a parse failure, the socket serving on, nothing logged as an error', async () => {
    const socket = await open({ 'x-forwarded-for': '198.51.100.5' });
    socket.send({ type: 'subscribe', id: 'deep', payload: { query: `{${'a{'.repeat(2_400)}${'}'.repeat(2_401)}` } });
    expect(errorCode(await socket.received((message) => message.id === 'deep'))).toBe('GRAPHQL_PARSE_FAILED');
    socket.send({ type: 'subscribe', id: 'after', payload: { query: '{ __typename }' } });
    await socket.received((message) => message.id === 'after' && message.type === 'complete');
    expect(stack.logLines.filter((line) => Number(line['level']) >= 50)).toEqual([]);
  });

  it('meets the HTTP policies on the upgrade: CORS_ORIGINS, and one Host header', async () => {
    const refused = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url, 'graphql-transport-ws', { headers });
        ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        ws.on('open', () => {
          resolve(101);
          ws.close(1000);
        });
        ws.on('error', () => undefined);
      });
    expect(await refused({ origin: 'https://evil.example' })).toBe(403);
    // Two Host fields, which a client library cannot send: written by hand.
    const twoHosts = await new Promise<string>((resolve) => {
      const raw = connect(server.port, '127.0.0.1', () =>
        raw.write(
          'GET /graphql HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
            'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n',
        ),
      );
      let answer = '';
      raw.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      raw.on('close', () => resolve(answer));
      raw.on('error', () => resolve(answer));
    });
    expect(twoHosts).toMatch(/^HTTP\/1\.1 400 /);
    expect(await refused({ origin: 'https://app.example.org' })).toBe(101);
    // A native app sends no Origin at all.
    expect(await refused({})).toBe(101);
  });

  it('answers an upgrade on another path 404 NOT_FOUND, naming the path sockets are served on', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve) => {
      const ws = new WebSocket(url.replace(/\/graphql$/, '/socket'), 'graphql-transport-ws');
      ws.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      ws.on('open', () => {
        resolve({ status: 101, body: '' });
        ws.close(1000);
      });
      ws.on('error', () => undefined);
    });
    expect(answer.status).toBe(404);
    const refusal = JSON.parse(answer.body) as { errors: { extensions: { code: string } }[] };
    expect(refusal.errors[0]?.extensions.code).toBe('NOT_FOUND');
    expect(answer.body).toContain('/graphql');
  });
});

describe('a socket that runs nothing', () => {
  const IDLE_MS = 600;
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let url: string;
  const opened: Socket[] = [];
  const open = async (): Promise<Socket> => {
    const socket = await RawSocket.open<Message>(url, 'graphql-transport-ws');
    opened.push(socket);
    socket.send({ type: 'connection_init' });
    await socket.received((message) => message.type === 'connection_ack');
    return socket;
  };

  beforeAll(async () => {
    stack = await startStack({ connections: { webSocketIdleTimeoutMs: IDLE_MS } });
    server = await listen(stack.app, { metrics: stack.metrics });
    url = `${server.origin.replace('http', 'ws')}/graphql`;
  });
  afterAll(async () => {
    for (const socket of opened) socket.ws.terminate();
    await server.close();
    await stack.close();
  });

  it('is closed (1000) once WEBSOCKET_IDLE_TIMEOUT_MS passes after connection_init, pings or not', async () => {
    const started = performance.now();
    const [quiet, pinging] = await Promise.all([open(), open()]);
    const pings = setInterval(() => pinging.send({ type: 'ping' }), IDLE_MS / 4);
    try {
      const [quietClose, pingingClose] = await Promise.all([quiet.closed, pinging.closed]);
      expect(quietClose.code).toBe(1000);
      expect(pingingClose.code).toBe(1000);
      expect(performance.now() - started).toBeGreaterThanOrEqual(IDLE_MS);
    } finally {
      clearInterval(pings);
    }
  });

  it('stays open while an operation runs, and is closed once it has run nothing for the idle time', async () => {
    const socket = await open();
    socket.send({ type: 'subscribe', id: 'live', payload: { query: 'subscription { datasetChanged { version } }' } });
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.send({ type: 'complete', id: 'live' });
    // Idleness is checked every quarter of the idle time: the socket has some of it left half-way.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 2));
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    expect((await socket.closed).code).toBe(1000);
  });
});
