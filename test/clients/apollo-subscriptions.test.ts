import { constants, gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { gql } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import { listen, startStack, TEST_ADMIN_TOKEN, type Stack } from '../helpers/stack.js';
import { createApolloClient, createApolloSseClient } from './setups.js';

const CODE: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';
const CHANGED =
  'subscription Changed { datasetChanged(codes: [ODS_COUNT_TEACHER_BY_YEAR]) { dataset { code } version } }';

/** The exact request headers each Apollo SDK sends for a subscription over HTTP (their sources, 4.x and 1.x). */
const APOLLO_KOTLIN = {
  accept: 'multipart/mixed;subscriptionSpec=1.0, application/graphql-response+json, application/json',
  'content-type': 'application/json',
  'x-apollo-operation-id': 'b1a2c3',
  'x-apollo-operation-name': 'Changed',
};
const APOLLO_IOS = {
  accept: 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json',
  'content-type': 'application/json',
  'x-apollo-operation-type': 'subscription',
  'x-apollo-operation-name': 'Changed',
  'apollographql-client-name': 'edu-ios',
  'apollographql-client-version': '1.0-1',
};

const DELIMITER = '\r\n--graphql';

/** A multipart answer read part by part, as Apollo's clients split it on `\r\n--graphql`. */
interface MultipartStream {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The next part's JSON body (heartbeats `{}` included); rejects once the closing boundary has come. */
  next(): Promise<unknown>;
  /** The next part that is not a heartbeat. */
  nextPayload(): Promise<unknown>;
  /** Resolves when the closing boundary `--graphql--` arrived. */
  readonly closed: Promise<void>;
  abort(): void;
}

/** POSTs a subscription with node:http (so gzip is left to the test) and splits the parts as they arrive. */
function multipart(
  origin: string,
  headers: Record<string, string>,
  body: unknown,
  options: { gzip?: boolean } = {},
): Promise<MultipartStream> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${origin}/graphql`, { method: 'POST', headers }, (response) => {
      // Everything decoded so far, and how much of it has been split into parts.
      let received = '';
      let consumed = 0;
      const compressed: Buffer[] = [];
      const parts: unknown[] = [];
      const waiters: ((part: unknown) => void)[] = [];
      let finish!: () => void;
      const closed = new Promise<void>((done) => (finish = done));
      response.on('data', (chunk: Buffer) => {
        if (options.gzip === true) {
          // Each part is flushed whole: what has arrived so far decodes on its own (Z_SYNC_FLUSH).
          compressed.push(chunk);
          received = gunzipSync(Buffer.concat(compressed), { finishFlush: constants.Z_SYNC_FLUSH }).toString();
        } else {
          received += chunk.toString();
        }
        for (
          let at = received.indexOf(DELIMITER, consumed + 1);
          at !== -1;
          at = received.indexOf(DELIMITER, consumed + 1)
        ) {
          const message = received.slice(consumed, at);
          consumed = at;
          const bodyStart = message.indexOf('\r\n\r\n');
          if (bodyStart === -1) continue;
          const part: unknown = JSON.parse(message.slice(bodyStart + 4));
          const waiter = waiters.shift();
          if (waiter === undefined) parts.push(part);
          else waiter(part);
        }
        if (received.startsWith(`${DELIMITER}--`, consumed)) finish();
      });
      const next = (): Promise<unknown> =>
        parts.length > 0 ? Promise.resolve(parts.shift()) : new Promise((resolvePart) => waiters.push(resolvePart));
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        next,
        async nextPayload() {
          for (;;) {
            const part = await next();
            if (JSON.stringify(part) !== '{}') return part;
          }
        },
        closed,
        abort: () => {
          response.on('error', () => undefined);
          request.destroy();
        },
      });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.end(JSON.stringify(body));
  });
}

async function revise(stack: Stack): Promise<void> {
  const revision = await fetch(`${stack.simulator.url}/__simulator/datasets/${CODE}/revisions`, { method: 'POST' });
  expect(revision.status).toBe(201);
  await stack.live.watcher.check();
}

describe("Apollo's multipart HTTP subscriptions and an SSE link, against a listening server", () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    stack = await startStack({ live: { subscriptions: { perCaller: 2, total: 10 } } });
    server = await listen(stack.app);
    await stack.live.watcher.check();
  });
  afterAll(async () => {
    await server.close();
    await stack.close();
  });

  it.each([
    ['Apollo Kotlin', APOLLO_KOTLIN],
    ['Apollo iOS', APOLLO_IOS],
  ])('serves %s its wire: a heartbeat part, then each event as {"payload": …}', async (_client, headers) => {
    const stream = await multipart(server.origin, headers, {
      operationName: 'Changed',
      variables: {},
      query: CHANGED,
      extensions: { clientLibrary: { name: 'apollo-kotlin', version: '4.3.3' } },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('multipart/mixed;boundary="graphql";subscriptionSpec=1.0');
    // The first part says the subscription is open, before any event.
    expect(await stream.next()).toEqual({});
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    await revise(stack);
    const event = (await stream.nextPayload()) as { payload: { data: { datasetChanged: { dataset: unknown } } } };
    expect(event.payload.data.datasetChanged.dataset).toEqual({ code: CODE });

    // A client that goes away gives its slot back.
    stream.abort();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('compresses the parts when the client accepts gzip, each one decodable as it arrives', async () => {
    const stream = await multipart(
      server.origin,
      { ...APOLLO_KOTLIN, 'accept-encoding': 'gzip' },
      { query: CHANGED },
      { gzip: true },
    );
    expect(stream.headers['content-encoding']).toBe('gzip');
    expect(await stream.next()).toEqual({});
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    await revise(stack);
    expect(await stream.nextPayload()).toMatchObject({
      payload: { data: { datasetChanged: { dataset: { code: CODE } } } },
    });
    stream.abort();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('brings a request for use through PENDING and APPROVED to Apollo Client 4 (HttpLink, multipart)', async () => {
    const anonymous = createApolloClient(`${server.origin}/graphql`);
    const registered = await anonymous.mutate({
      mutation: gql`
        mutation {
          registerClient(input: { name: "Multipart app", contactEmail: "mp@example.org" }) {
            apiKey
          }
        }
      `,
    });
    const apiKey = (registered.data as { registerClient: { apiKey: string } }).registerClient.apiKey;
    const apollo = createApolloClient(`${server.origin}/graphql`, { headers: { authorization: `Bearer ${apiKey}` } });
    const events: unknown[] = [];
    const subscription = apollo
      .subscribe({ query: gql('subscription { useRequestChanged { id status } }') })
      .subscribe({ next: (result) => events.push(result.data) });
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    const asked = await apollo.mutate({
      mutation: gql`
        mutation {
          requestEndpointUse(input: { endpointId: 84, purpose: "dashboards" }) {
            useRequest {
              id
            }
          }
        }
      `,
    });
    const id = (asked.data as { requestEndpointUse: { useRequest: { id: string } } }).requestEndpointUse.useRequest.id;
    await expect.poll(() => events).toHaveLength(1);
    const operator = createApolloClient(`${server.origin}/graphql`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    await operator.mutate({
      mutation: gql`
        mutation R($id: ID!) {
          reviewUseRequest(input: { id: $id, decision: APPROVE }) {
            useRequest {
              id
            }
          }
        }
      `,
      variables: { id },
    });
    await expect.poll(() => events).toHaveLength(2);
    expect(events).toEqual([
      { useRequestChanged: { __typename: 'UseRequest', id, status: 'PENDING' } },
      { useRequestChanged: { __typename: 'UseRequest', id, status: 'APPROVED' } },
    ]);
    subscription.unsubscribe();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('refuses a bad key with 401 and a subscription over the limit with SUBSCRIPTION_LIMIT, as JSON', async () => {
    const refused = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { ...APOLLO_KOTLIN, authorization: 'Bearer not-a-key' },
      body: JSON.stringify({ query: CHANGED }),
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { errors: { extensions: unknown }[] }).errors[0]?.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
    });

    const open = [
      await multipart(server.origin, APOLLO_IOS, { query: CHANGED }),
      await multipart(server.origin, APOLLO_IOS, { query: CHANGED }),
    ];
    const third = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: APOLLO_IOS,
      body: JSON.stringify({ query: CHANGED }),
    });
    expect(third.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await third.json()) as { errors: { extensions: unknown }[] }).errors[0]?.extensions).toMatchObject({
      code: 'SUBSCRIPTION_LIMIT',
    });
    for (const stream of open) stream.abort();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('answers a 406 with NOT_ACCEPTABLE and the Accept values that work', async () => {
    const refused = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/xml' },
      body: JSON.stringify({ query: '{ datasets { code } }' }),
    });
    expect(refused.status).toBe(406);
    const body = (await refused.json()) as { errors: { extensions: { code: string; accept: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('NOT_ACCEPTABLE');
    expect(body.errors[0]?.extensions.accept).toContain('multipart/mixed;subscriptionSpec=1.0');
    expect(body.errors[0]?.extensions.accept).toContain('text/event-stream');
  });

  it("serves Apollo Client with graphql-sse's link, whose body carries operationType", async () => {
    const apollo = createApolloSseClient(`${server.origin}/graphql`);
    const events: unknown[] = [];
    const errors: unknown[] = [];
    const subscription = apollo
      .subscribe({ query: gql(CHANGED) })
      .subscribe({ next: (result) => events.push(result.data), error: (error) => errors.push(error) });
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    await revise(stack);
    await expect.poll(() => events).toHaveLength(1);
    expect(events[0]).toMatchObject({ datasetChanged: { dataset: { code: CODE } } });
    expect(errors).toEqual([]);
    subscription.unsubscribe();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('ends every stream with the closing boundary on shutdown (last: the hub refuses new subscriptions after)', async () => {
    const stream = await multipart(server.origin, APOLLO_KOTLIN, { query: CHANGED });
    expect(await stream.next()).toEqual({});
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
    stack.live.completeSubscriptions();
    await stream.closed;
    expect(stack.live.hub.openSubscriptions).toBe(0);
  });
});
