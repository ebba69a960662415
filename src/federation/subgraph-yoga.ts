import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createYoga, type Plugin, type YogaServerInstance, type YogaServerOptions } from 'graphql-yoga';
import type { Context } from '../graphql/context.js';
import { buildSubgraphSchema } from '../graphql/schema.js';
import { CODE, type ErrorCode } from '../errors/registry.js';
import type { RequestState } from '../http/request-state.js';

/** Where the Federation v2 subgraph answers: POST for every operation, GET for queries, as on /graphql. */
export const SUBGRAPH_PATH = '/subgraph';
/** The header that carries SUBGRAPH_TOKEN from the router. */
export const SUBGRAPH_TOKEN_HEADER = 'x-subgraph-token';

type YogaOptions = YogaServerOptions<Record<string, unknown>, Context>;
type Yoga = YogaServerInstance<Record<string, unknown>, Context>;

/** How a refusal is written (server/answers/error-answer.ts's `errorResponse`, handed in by the app). */
export type Refuse = (
  fetchAPI: { Response: typeof Response },
  request: Request,
  requestId: string,
  refusal: { status: number; code: ErrorCode; message: string },
) => Response;

export interface SubgraphOptions {
  /** The /graphql yoga's own options: the same context factory, masking, limits and pipeline of stages. */
  readonly yoga: YogaOptions;
  /** SUBGRAPH_TOKEN: when given, requests without it in X-Subgraph-Token are refused with 403. */
  readonly token: string | undefined;
  readonly refuse: Refuse;
}

/**
 * The subgraph: a second yoga over the subgraph schema (schema.ts's `buildSubgraphSchema`) with every stage of the
 * /graphql pipeline, in the same order, behind the token guard. So an `_entities` call is priced, depth-limited,
 * rate-limited, authorized and bounded by the answer budget exactly as a query on /graphql is: no side door.
 */
export function createSubgraphYoga(options: SubgraphOptions): Pick<Yoga, 'fetch' | 'requestListener'> {
  const { yoga, token, refuse } = options;
  // Made at the first request to /subgraph: the subgraph schema's build is not paid by a server nobody federates.
  let subgraph: Yoga | undefined;
  const instance = (): Yoga =>
    (subgraph ??= createYoga<Record<string, unknown>, Context>({
      ...yoga,
      schema: buildSubgraphSchema(),
      graphqlEndpoint: SUBGRAPH_PATH,
      plugins: [...(token === undefined ? [] : [useSubgraphToken(token, refuse)]), ...(yoga.plugins ?? [])],
    }));
  const fetch = (...args: unknown[]): unknown => (instance().fetch as (...args: unknown[]) => unknown)(...args);
  return {
    fetch: fetch as Yoga['fetch'],
    // With the server context it is given beside them (the request state, server/request-state.ts).
    requestListener: (request, response, ...serverContext) =>
      instance().requestListener(request, response, ...serverContext),
  };
}

/**
 * Refuses a request whose X-Subgraph-Token is not SUBGRAPH_TOKEN (403, FORBIDDEN), before any stage parses it. The
 * comparison takes the same time whatever the header holds (both sides hashed to equal lengths first).
 */
export function useSubgraphToken(token: string, refuse: Refuse): Plugin<object, { readonly state: RequestState }> {
  const expected = digest(token);
  return {
    onRequest(payload) {
      const { request, fetchAPI, serverContext } = payload;
      const given = request.headers.get(SUBGRAPH_TOKEN_HEADER);
      if (given !== null && timingSafeEqual(digest(given), expected)) return;
      payload.endResponse(
        refuse(fetchAPI, request, serverContext.state.id, {
          status: 403,
          code: CODE.FORBIDDEN,
          message: `Only the federation router may call ${SUBGRAPH_PATH}: it sends the X-Subgraph-Token header. Clients call /graphql.`,
        }),
      );
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Whether a request's path (of a URL or node:http's `url`) is the subgraph's. */
export function isSubgraphPath(url: string): boolean {
  const path = url.startsWith('/') ? url : new URL(url).pathname;
  return path === SUBGRAPH_PATH || path.startsWith(`${SUBGRAPH_PATH}?`);
}

/** A fetch handler that sends /subgraph to the subgraph and everything else to `main`. */
export function routeSubgraphFetch<Fetch extends Yoga['fetch']>(main: Fetch, subgraph: Fetch): Fetch {
  const route = (input: Request | URL | string, ...rest: unknown[]): unknown => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const target = (isSubgraphPath(url) ? subgraph : main) as (...args: unknown[]) => unknown;
    return target(input, ...rest);
  };
  return route as Fetch;
}

/** The same for node:http, whatever a listener is given beside the request. */
export function routeSubgraphListener<Rest extends unknown[]>(
  main: (request: IncomingMessage, ...rest: Rest) => unknown,
  subgraph: (request: IncomingMessage, ...rest: Rest) => unknown,
): (request: IncomingMessage, ...rest: Rest) => unknown {
  return (request, ...rest) => (isSubgraphPath(request.url ?? '/') ? subgraph : main)(request, ...rest);
}
