import { createHash } from 'node:crypto';
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { ApolloLink, Observable } from '@apollo/client';
import { getMainDefinition } from '@apollo/client/utilities';
import { Kind, OperationTypeNode, print } from 'graphql';
import { createClient as createSseClient, type ClientOptions as SseClientOptions } from 'graphql-sse';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { relayStylePagination } from '@apollo/client/utilities';
// Apollo Client's block and urql's each import what they use (clients.md shows them apart).
import { possibleTypes } from '../../client/cache-config.js';
import { embeddedTypes } from '../../client/cache-config.js';
import { cacheExchange, type CacheExchangeOpts } from '@urql/exchange-graphcache';
import { persistedExchange } from '@urql/exchange-persisted';
import { Client, fetchExchange } from '@urql/core';
import { createClient as createGraphQLWsClient, type Client as GraphQLWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import {
  Environment,
  Network,
  Observable as RelayObservable,
  RecordSource,
  Store,
  type FetchFunction,
  type GraphQLResponse,
  type SubscribeFunction,
} from 'relay-runtime';

/*
 * The client set-ups docs/app-developers/clients.md shows, as the suites in this folder run them: when one of
 * these changes, that page changes with it.
 */

/** What one request looked like on the wire, for suites that assert how a client talks to the server. */
export interface SentRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly status: number;
}

/** `fetch`, recording every request it sends and the status it got into `sent`. */
export function recordingFetch(sent: SentRequest[]): typeof fetch {
  return async (input, init) => {
    // Without the client's abort signal: urql aborts every finished operation on teardown, and an abort that reaches
    // undici after the body was read can surface as an unhandled AbortError in a long test run. Recording is all this
    // wrapper is for; cancellation is not what these suites test.
    const request = new Request(input, { ...init, signal: null });
    const body = request.method === 'GET' ? undefined : await request.clone().text();
    const response = await fetch(request);
    sent.push({
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body,
      status: response.status,
    });
    return response;
  };
}

/** SHA-256 in hex, as APQ wants it (in a browser: crypto.subtle.digest). */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

// docs/app-developers/clients.md: Apollo Client
declare module '@apollo/client' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace ApolloClient {
    // Apollo 4 types results by the default errorPolicy, which must therefore be declared.
    // eslint-disable-next-line @typescript-eslint/no-namespace
    export namespace DeclareDefaultOptions {
      interface WatchQuery {
        errorPolicy: 'all';
      }
      interface Query {
        errorPolicy: 'all';
      }
      interface Mutate {
        errorPolicy: 'all';
      }
    }
  }
}

export function createApolloClient(
  uri: string,
  options: { fetch?: typeof fetch; headers?: Record<string, string> } = {},
) {
  return new ApolloClient({
    link: new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
      new HttpLink({ uri, headers: options.headers, fetch: options.fetch }),
    ),
    cache: new InMemoryCache({
      // Every Node (Dataset, SummaryEndpoint, Client, UseRequest) is normalised by its `id`, generated from the schema.
      possibleTypes,
      typePolicies: {
        // One list per (query, where, orderBy, select); `first` and `after` page through it.
        Dataset: { fields: { records: relayStylePagination(['query', 'where', 'orderBy', 'select']) } },
      },
    }),
    // yoga sends @defer in the format of graphql-js 17 alpha 2 (the 2022-08-24 spec draft).
    incrementalHandler: new Defer20220824Handler(),
    // A payload whose upstream fails is null with its own error: keep the rest of the answer.
    defaultOptions: {
      watchQuery: { errorPolicy: 'all' },
      query: { errorPolicy: 'all' },
      mutate: { errorPolicy: 'all' },
    },
  });
}

// The types without an id (connections, edges, rows, payloads…), kept inside their parent: generated from the schema.
export const URQL_EMBEDDED_TYPES: NonNullable<CacheExchangeOpts['keys']> = embeddedTypes;

// docs/app-developers/subscriptions.md: graphql-ws
export function createWebSocketClient(url: string, connectionParams?: Record<string, unknown>): GraphQLWsClient {
  return createGraphQLWsClient({
    url,
    // In a browser or React Native the global WebSocket serves; Node needs the `ws` package.
    webSocketImpl: WebSocket,
    // `{ authorization: "Bearer <key>" }` or `{ apiKey: "<key>" }`; none to read anonymously.
    connectionParams,
  });
}

// docs/app-developers/subscriptions.md: Apollo Client with an SSE link (graphql-sse's recipe)
export class SSELink extends ApolloLink {
  private readonly client: ReturnType<typeof createSseClient>;

  constructor(options: SseClientOptions) {
    super();
    this.client = createSseClient(options);
  }

  override request(operation: ApolloLink.Operation): Observable<ApolloLink.Result> {
    return new Observable((sink) =>
      // The operation goes whole, `operationType` and all: the server accepts and ignores what it does not use.
      this.client.subscribe(
        { ...operation, query: print(operation.query) },
        {
          next: (result) => sink.next(result as ApolloLink.Result),
          complete: () => sink.complete(),
          error: (error) => sink.error(error),
        },
      ),
    );
  }
}

/** Subscriptions over SSE, everything else over the HttpLink. */
export function createApolloSseClient(uri: string, headers: Record<string, string> = {}) {
  const isSubscription = ({ query }: ApolloLink.Operation): boolean => {
    const definition = getMainDefinition(query);
    return definition.kind === Kind.OPERATION_DEFINITION && definition.operation === OperationTypeNode.SUBSCRIPTION;
  };
  return new ApolloClient({
    link: ApolloLink.split(isSubscription, new SSELink({ url: uri, headers }), new HttpLink({ uri, headers })),
    cache: new InMemoryCache(),
    defaultOptions: {
      watchQuery: { errorPolicy: 'all' },
      query: { errorPolicy: 'all' },
      mutate: { errorPolicy: 'all' },
    },
  });
}

// docs/app-developers/clients.md: urql
export function createUrqlClient(
  url: string,
  options: { fetch?: typeof fetch; headers?: Record<string, string> } = {},
) {
  return new Client({
    url,
    exchanges: [
      cacheExchange({ keys: URQL_EMBEDDED_TYPES }),
      // Queries go as GET by hash (no CSRF header needed); an unknown hash is sent again with its document.
      persistedExchange({ preferGetForPersistedQueries: true }),
      fetchExchange,
    ],
    fetch: options.fetch,
    fetchOptions: { headers: options.headers ?? {} },
  });
}

// docs/app-developers/clients.md: Relay
export function createRelayEnvironment(
  url: string,
  options: { fetch?: typeof fetch; headers?: Record<string, string>; subscriptions?: GraphQLWsClient } = {},
): Environment {
  const fetchFn: FetchFunction = async (operation, variables) => {
    const response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...options.headers },
      body: JSON.stringify({ query: operation.text, variables }),
    });
    // Refusals (400, 401, 403, 429…) carry a GraphQL body with a code too: Relay reports its errors.
    return (await response.json()) as GraphQLResponse;
  };
  // Subscriptions over graphql-ws (createWebSocketClient, above), on the same key as the HTTP requests.
  const { subscriptions } = options;
  const subscribeFn: SubscribeFunction | undefined =
    subscriptions === undefined
      ? undefined
      : (operation, variables) =>
          RelayObservable.create<GraphQLResponse>((sink) =>
            subscriptions.subscribe(
              { operationName: operation.name, query: operation.text ?? '', variables },
              {
                next: (result) => sink.next(result as GraphQLResponse),
                error: (error) => sink.error(error instanceof Error ? error : new Error(JSON.stringify(error))),
                complete: () => sink.complete(),
              },
            ),
          );
  return new Environment({ network: Network.create(fetchFn, subscribeFn), store: new Store(new RecordSource()) });
}

// docs/app-developers/clients.md: plain fetch
/** An answer as the server sends it: `data` and `errors` may both be there (a payload failed, the rest did not). */
export interface GraphQLAnswer<Data> {
  data?: Data | null;
  errors?: { message: string; path?: (string | number)[]; extensions: { code: string } }[];
}

/** A query as GET (cacheable by HTTP caches, no CSRF header needed), anything else as a JSON POST. */
export async function request<Data>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  apiKey?: string,
): Promise<GraphQLAnswer<Data>> {
  const headers: Record<string, string> = { accept: 'application/graphql-response+json' };
  if (apiKey !== undefined) headers['authorization'] = `Bearer ${apiKey}`;
  const isQuery = !/^\s*mutation\b/.test(query);
  const response = isQuery
    ? await fetch(
        `${url}?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`,
        { headers },
      )
    : await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
  // Refusals (400, 401, 403, 429…) carry a GraphQL body with a code too: read it rather than throw on the status.
  return (await response.json()) as GraphQLAnswer<Data>;
}
