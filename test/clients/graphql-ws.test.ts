import { createHash } from 'node:crypto';
import type { Client, FormattedExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DatasetCode } from '../../src/catalogue.js';
import { listen, startStack, TEST_ADMIN_TOKEN, type Stack } from '../helpers/stack.js';
import { createWebSocketClient } from './setups.js';

type ExecutionResult = FormattedExecutionResult<Record<string, unknown>, unknown>;

const CODE: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';

/** One subscription over a graphql-ws client, read as a test reads it. */
function subscription(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const results: ExecutionResult[] = [];
  const waiters: ((result: ExecutionResult) => void)[] = [];
  let failure: unknown;
  const ended = new Promise<'complete' | 'error'>((resolve) => {
    client.subscribe(
      { query, variables },
      {
        next: (result) => {
          const waiter = waiters.shift();
          if (waiter === undefined) results.push(result);
          else waiter(result);
        },
        error: (error) => {
          failure = error;
          resolve('error');
        },
        complete: () => resolve('complete'),
      },
    );
  });
  return {
    next: (): Promise<ExecutionResult> =>
      results.length > 0
        ? Promise.resolve(results.shift() as ExecutionResult)
        : new Promise((resolve) => waiters.push(resolve)),
    ended,
    failure: () => failure,
  };
}

/** The close event of a socket whose `connection_init` is refused. */
function closeOf(client: Client): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    client.on('closed', (event) => {
      const { code, reason } = event as { code: number; reason: string };
      resolve({ code, reason });
    });
  });
}

describe('graphql-ws (graphql-ws createClient over ws) against a listening server', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let url: string;
  const clients: Client[] = [];
  const connect = (connectionParams?: Record<string, unknown>): Client => {
    const client = createWebSocketClient(url, connectionParams);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    stack = await startStack({ live: { subscriptions: { perCaller: 2, total: 4 } }, limits: { maxDepth: 6 } });
    server = await listen(stack.app, { metrics: stack.metrics });
    url = `${server.origin.replace('http', 'ws')}/graphql`;
    // The first pass only records what each dataset is.
    await stack.live.watcher.check();
  });
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await server.close();
    await stack.close();
  });

  it('answers queries over the socket, and pushes a dataset revision to a subscriber', async () => {
    const client = connect();
    const catalogue = subscription(client, '{ datasets { code } }');
    expect(((await catalogue.next()).data?.['datasets'] as unknown[]).length).toBe(13);
    expect(await catalogue.ended).toBe('complete');

    const changes = subscription(
      client,
      'subscription C($codes: [DatasetCode!]) { datasetChanged(codes: $codes) { dataset { code } version previousVersion } }',
      { codes: [CODE] },
    );
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    const revision = await fetch(`${stack.simulator.url}/__simulator/datasets/${CODE}/revisions`, { method: 'POST' });
    expect(revision.status).toBe(201);
    await stack.live.watcher.check();
    const event = (await changes.next()).data?.['datasetChanged'] as {
      dataset: { code: string };
      version: string;
      previousVersion: string;
    };
    expect(event.dataset.code).toBe(CODE);
    expect(event.version).not.toBe(event.previousVersion);
    await client.dispose();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('registers a client over the socket and brings its request for use through PENDING and APPROVED', async () => {
    const anonymous = connect();
    const registered = await subscription(
      anonymous,
      'mutation { registerClient(input: { name: "Socket app", contactEmail: "ws@example.org" }) { apiKey } }',
    ).next();
    const apiKey = (registered.data?.['registerClient'] as { apiKey: string }).apiKey;

    const client = connect({ authorization: `Bearer ${apiKey}` });
    const changes = subscription(client, 'subscription { useRequestChanged { id status history { to } } }');
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    const asked = await subscription(
      client,
      'mutation { requestEndpointUse(input: { endpointId: 84, purpose: "dashboards" }) { useRequest { id } } }',
    ).next();
    const id = (asked.data?.['requestEndpointUse'] as { useRequest: { id: string } }).useRequest.id;
    expect((await changes.next()).data).toEqual({
      useRequestChanged: { id, status: 'PENDING', history: [{ to: 'PENDING' }] },
    });

    // The operator decides over HTTP; `apiKey` in connectionParams works as well as `authorization`.
    const operator = connect({ apiKey: TEST_ADMIN_TOKEN });
    await subscription(
      operator,
      'mutation R($id: ID!) { reviewUseRequest(input: { id: $id, decision: APPROVE }) { useRequest { id } } }',
      { id },
    ).next();
    expect((await changes.next()).data).toEqual({
      useRequestChanged: { id, status: 'APPROVED', history: [{ to: 'PENDING' }, { to: 'APPROVED' }] },
    });
    await client.dispose();
  });

  it('closes the socket with 4401 and the code for an unknown key, never serving it anonymously', async () => {
    const client = connect({ authorization: 'Bearer not-a-key' });
    const closed = closeOf(client);
    const refused = subscription(client, '{ datasets { code } }');
    expect(await closed).toEqual({ code: 4401, reason: expect.stringMatching(/^UNAUTHENTICATED: /) as string });
    expect(await refused.ended).toBe('error');
  });

  it('answers UNAUTHENTICATED to an anonymous useRequestChanged, holding no slot', async () => {
    const refused = await subscription(connect(), 'subscription { useRequestChanged { id } }').next();
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(stack.live.hub.openSubscriptions).toBe(0);
  });

  it('holds a socket to the same per-caller subscription limit and operation limits as HTTP', async () => {
    const client = connect();
    const open = [
      subscription(client, 'subscription { datasetChanged { version } }'),
      subscription(client, 'subscription { datasetChanged { version } }'),
    ];
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(2);
    const third = subscription(client, 'subscription { datasetChanged { version } }');
    expect((await third.next()).errors?.[0]?.extensions).toMatchObject({
      code: 'SUBSCRIPTION_LIMIT',
      maxSubscriptions: 2,
    });
    const deep = subscription(
      client,
      '{ datasets { summaryEndpoints { dataset { summaryEndpoints { dataset { summaryEndpoints { id } } } } } } }',
    );
    expect(await deep.ended).toBe('error');
    expect(JSON.stringify(deep.failure())).toContain('depth');
    expect(open).toHaveLength(2);
    await client.dispose();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('refuses an upgrade outside the GraphQL path with a coded answer', async () => {
    const socket = new WebSocket(`${server.origin.replace('http', 'ws')}/elsewhere`, 'graphql-transport-ws');
    const status = await new Promise<number>((resolve) => {
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('error', () => undefined);
    });
    expect(status).toBe(404);
  });

  it('counts sockets and messages in /metrics', async () => {
    const client = connect();
    await subscription(client, '{ datasets { code } }').next();
    const metrics = await (await fetch(`${server.origin}/metrics`)).text();
    expect(metrics).toMatch(/^graphql_ws_connections_open [1-9]/m);
    expect(metrics).toMatch(/^graphql_ws_messages_total\{direction="received"\} [1-9]/m);
    await client.dispose();
  });
});

describe('graphql-ws: the rate limit and shutdown', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let url: string;
  beforeAll(async () => {
    stack = await startStack({ rateLimit: { points: 3, windowS: 60 } });
    server = await listen(stack.app);
    url = `${server.origin.replace('http', 'ws')}/graphql`;
  });
  afterAll(async () => {
    await server.close();
    await stack.close();
  });

  it('takes a token per operation message, a subscription included', async () => {
    const client = createWebSocketClient(url);
    const changes = subscription(client, 'subscription { datasetChanged { version } }');
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    const first = await subscription(client, '{ datasets { code } }').next();
    expect(first.errors).toBeUndefined();
    // A socket has no header fields: the result carries the RateLimit fields an HTTP answer would have had.
    expect(first.extensions).toEqual({
      rateLimit: {
        'ratelimit-policy': '"default";q=3;w=60',
        ratelimit: expect.stringMatching(/^"default";r=1;t=\d+$/) as string,
      },
    });
    expect((await subscription(client, '{ datasets { code } }').next()).errors).toBeUndefined();
    // Refused before any work (paid first, as over HTTP): an `error` message, whose error carries the RateLimit fields.
    const refused = subscription(client, '{ datasets { code } }');
    expect(await refused.ended).toBe('error');
    const [error] = refused.failure() as { extensions?: Record<string, unknown> }[];
    expect(error?.extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterS: expect.any(Number) as number,
      rateLimit: {
        'ratelimit-policy': '"default";q=3;w=60',
        ratelimit: expect.stringMatching(/^"default";r=0;t=\d+$/) as string,
      },
    });
    // What yoga turns into an HTTP status and headers is not shown on a socket.
    expect(error?.extensions).not.toHaveProperty('http');

    // Shutdown completes the stream (a `complete` message), then closes the socket with 1001.
    const closed = closeOf(client);
    stack.live.completeSubscriptions();
    expect(await changes.ended).toBe('complete');
    expect((await closed).code).toBe(1001);
    await client.dispose();
  });
});

describe('graphql-ws with trusted documents only', () => {
  const DOCUMENT = '{ datasets { code } }';
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let client: Client;
  beforeAll(async () => {
    stack = await startStack({
      trustedDocuments: new Map([[createHash('sha256').update(DOCUMENT).digest('hex'), DOCUMENT]]),
    });
    server = await listen(stack.app);
    client = createWebSocketClient(`${server.origin.replace('http', 'ws')}/graphql`);
  });
  afterAll(async () => {
    await client.dispose();
    await server.close();
    await stack.close();
  });

  it("runs the manifest's documents and refuses any other with PERSISTED_QUERY_ONLY", async () => {
    expect((await subscription(client, DOCUMENT).next()).errors).toBeUndefined();
    const other = subscription(client, '{ datasets { code title } }');
    expect(await other.ended).toBe('error');
    expect(JSON.stringify(other.failure())).toContain('PERSISTED_QUERY_ONLY');
  });
});
