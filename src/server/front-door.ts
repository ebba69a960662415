/**
 * The front door: the route table in front of yoga, and what every route gets without asking. `/graphql` goes to
 * the hot path and then yoga's GraphQL-only pipeline; every other door (files, pages, feeds, probes, the metrics
 * page, GraphiQL's page) is a `Route` (http/route.ts) answered here, never by a yoga stage. For each, in order:
 *
 * 1. its request state (request-state.ts), made where the request entered: id, language, URL, and the caller,
 *    authenticated once when asked (a bad key is 401);
 * 2. a CORS preflight answered as yoga would (CORS_ORIGINS), without running the route;
 * 3. pay before work: the route's price (route.ts) from the caller's bucket, the one GraphQL operations pay from;
 *    an empty bucket is 429 with Retry-After;
 * 4. the route's answer, or its refusal written by the one refusal writer (error-answer.ts): a coded JSON error in
 *    the request's language; anything unexpected is logged and answered 500 with a code and nothing internal;
 * 5. the answer's headers: request id, security headers, RateLimit fields, CORS, the simulated-upstream mark;
 *    compressed when the client accepts it and the route did not encode it itself;
 * 6. its bytes priced as they are written: beyond what step 3 took, one token per SENT_BYTES_PER_TOKEN from the
 *    same bucket at the same size (at once for a body of known length, as it passes for a stream), into debt when
 *    the bucket is short, so no route is a way round the byte price GraphQL answers pay.
 */
import { STATUS_CODES } from 'node:http';
import { GraphQLError } from 'graphql';
import type { CORSOptions } from 'graphql-yoga';
import type { Logger } from 'pino';
import { CodedError } from '../errors/coded-error.js';
import { CODE, ERRORS, type ErrorCode, type ErrorDeclaration } from '../errors/registry.js';
import type { RequestCallers } from '../http/request-callers.js';
import { negotiateLanguage, type Language } from '../http/language.js';
import { REQUEST_ID_HEADER, requestIdFrom } from '../http/request-id.js';
import type { RequestCaller } from '../http/request-state.js';
import type { RequestHead, RequestState, Route, RoutePrice } from '../http/route.js';
import { rateLimitFields } from '../rate-limit/fields.js';
import { pricedBeforeSent, type ArrivalPayment } from '../rate-limit/byte-price.js';
import { OPERATION_COSTS, type RateLimiter } from '../rate-limit/limiter.js';
import { SpentBudgets } from '../rate-limit/spent-budgets.js';
import type { PipelineRequestState, RequestEntry } from './request-state.js';
import { corsHeaders, errorResponse, type Refusal } from './answers/error-answer.js';
import { SIMULATED_HEADER } from './answers/use-simulated-upstream.js';
import { spend } from './rate-limit/spend.js';
import { compressedResponse } from './transport/use-compression.js';
import { setSecurityHeaders } from './transport/use-security-headers.js';

export interface FrontDoorOptions {
  /** No price is taken when undefined (RATE_LIMIT_POINTS=0). */
  readonly rateLimit: { readonly limiter: RateLimiter; readonly onRefusal?: (callerKind: string) => void } | undefined;
  readonly cors: CORSOptions | false;
  readonly logger: Pick<Logger, 'error'>;
  /** The embedded simulator serves: every answer says so. */
  readonly simulatedUpstream: boolean;
}

export interface FrontDoor {
  /** The names of the routes, in the order they are matched. */
  readonly routes: readonly string[];
  /**
   * The route that answers a request on this path (`URL.pathname`), or undefined: it is GraphQL's (or nobody's),
   * and yoga answers it.
   */
  routeOf(pathname: string, request: RequestHead): Route | undefined;
  /** Answers `request` by `route`, through every concern of the door, with the request's state. */
  serve(route: Route, request: Request, state: RequestState): Promise<Response>;
}

const FETCH_API = { Headers, Response };

/** Tokens a route's request pays when it arrives. */
const ARRIVAL_COSTS: Readonly<Record<RoutePrice, number>> = {
  operation: OPERATION_COSTS.executed,
  stored: OPERATION_COSTS.stored,
  free: 0,
};

export function createFrontDoor(routes: readonly Route[], options: FrontDoorOptions): FrontDoor {
  const { cors } = options;
  const table = routeTable(routes);

  /** Takes the route's price from the caller's own bucket (spend.ts); returns the bucket and what it took, for the byte price. */
  const pay = async (price: RoutePrice, state: RequestState): Promise<ArrivalPayment | undefined> => {
    const { rateLimit } = options;
    if (rateLimit === undefined || price === 'free') return undefined;
    return spend(rateLimit, state.budgets, await state.caller(), ARRIVAL_COSTS[price]);
  };

  const finish = async (
    request: Request,
    state: RequestState,
    response: Response,
    payment: ArrivalPayment | undefined,
    encodesItself = false,
  ): Promise<Response> => {
    const compressed = encodesItself ? response : compressedResponse(request, response, FETCH_API);
    // A body of known length is priced before its headers are written, so its RateLimit fields say what it cost.
    const answered =
      payment === undefined ? compressed : await pricedBeforeSent(state.budgets, compressed, payment, options.logger);
    const { headers } = answered;
    headers.set(REQUEST_ID_HEADER, state.id);
    setSecurityHeaders(headers);
    for (const [name, value] of Object.entries(rateLimitFields(state.budgets.list()))) headers.set(name, value);
    // Only a browser's request names its Origin; the others (most) have no CORS headers to get.
    const origin = request.headers.get('origin');
    if (origin !== null && !headers.has('access-control-allow-origin'))
      for (const [name, value] of Object.entries(corsHeaders(origin, cors))) headers.set(name, value);
    if (options.simulatedUpstream) headers.set(SIMULATED_HEADER, 'true');
    // node:http's adapter writes the status line from statusText, which a Response made with none leaves empty.
    if (answered.statusText !== '') return answered;
    const statusText = STATUS_CODES[answered.status] ?? '';
    return new Response(answered.body, { status: answered.status, statusText, headers });
  };

  return {
    routes: routes.map((route) => route.name),
    routeOf: (pathname, request) =>
      table(pathname).find((route) => route.accepts === undefined || route.accepts(pathname, request)),
    async serve(route, request, state) {
      if (request.method === 'OPTIONS') return finish(request, state, preflight(request, cors), undefined);
      let payment: ArrivalPayment | undefined;
      try {
        payment = await pay(route.price, state);
        return await finish(request, state, await route.handle(request, state), payment, route.encodesItself);
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal === undefined)
          options.logger.error({ err: error, requestId: state.id, route: route.name }, 'route failed');
        const refused = errorResponse(
          FETCH_API,
          request,
          state.id,
          refusal ?? { status: 500, code: CODE.INTERNAL_SERVER_ERROR },
        );
        return finish(
          request,
          state,
          route.refusal === undefined ? refused : await route.refusal(refused, request, state),
          payment,
        );
      }
    },
  };
}

/**
 * Makes each request's state (its fields are declared in http/, graphql/ and server/request-state.ts), where the
 * request enters: app.ts's routedListener and routedFetch, and the WebSocket server for each operation. `callers`
 * authenticates its caller, once, when first asked. Here beside the front door, which every request's way starts
 * with, so a request runs no module more for it (test/contract/files-per-request.test.ts).
 */
export function requestStates(callers: RequestCallers): (entry: RequestEntry) => PipelineRequestState {
  return (entry) => {
    const { headers, node } = entry;
    const budgets = new SpentBudgets();
    let url: URL | undefined;
    let language: Language | undefined;
    let caller: Promise<RequestCaller> | undefined;
    return {
      // Settled on the node request's headers by the access line already (access-log.ts): the same id here.
      id: requestIdFrom(headers.get(REQUEST_ID_HEADER)),
      // Read by refusals and pages; an answer that writes no words (a file, a GraphQL result) never negotiates it.
      get language() {
        return (language ??= negotiateLanguage(headers.get('accept-language')));
      },
      get url() {
        return (url ??= entry.url());
      },
      node,
      caller: () => (caller ??= callers.of({ headers, node, budgets })),
      budgets,
      ledger: undefined,
      accessNotes: entry.accessNotes,
      responseCache: { candidate: undefined, executedKey: undefined, reusable: undefined },
      rateLimit: { payment: undefined, chargedAtParse: false },
      metrics: { arrivedAt: undefined, parsed: false },
      answer: { hasErrors: false, hasWarnings: false, tooLargeReported: false, pendingChunks: undefined },
      transport: {
        batchSize: undefined,
        batched: false,
        openedStreams: undefined,
        subscribed: false,
        rateLimitReported: false,
      },
    };
  };
}

/**
 * The routes of a path, in the order given: by its exact paths (a map), else by the longest prefix that starts it.
 * Nothing of a route runs for a request on another route's path.
 */
function routeTable(routes: readonly Route[]): (pathname: string) => readonly Route[] {
  const exact = new Map<string, Route[]>();
  const prefixes: { prefix: string; route: Route }[] = [];
  for (const route of routes)
    for (const path of route.paths) {
      if (path.endsWith('*')) prefixes.push({ prefix: path.slice(0, -1), route });
      else exact.set(path, [...(exact.get(path) ?? []), route]);
    }
  prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  return (pathname) =>
    exact.get(pathname) ?? prefixes.filter(({ prefix }) => pathname.startsWith(prefix)).map(({ route }) => route);
}

/** A CORS preflight as yoga answers one: the allowed origin, methods and headers, or none of them. */
function preflight(request: Request, cors: CORSOptions | false): Response {
  const allowed = corsHeaders(request.headers.get('origin'), cors);
  if (cors === false || Object.keys(allowed).length === 0) return new Response(null, { status: 204 });
  return new Response(null, {
    status: 204,
    headers: {
      ...allowed,
      'access-control-allow-methods': [cors.methods ?? ['GET', 'POST']].flat().join(', '),
      'access-control-allow-headers': [cors.allowedHeaders ?? []].flat().join(', '),
      ...(cors.maxAge === undefined ? {} : { 'access-control-max-age': String(cors.maxAge) }),
      'content-length': '0',
    },
  });
}

/** The HTTP status of a refusal whose code declares none and that did not give its own. */
const STATUS: Partial<Record<ErrorCode, number>> = {
  BAD_USER_INPUT: 400,
  NOT_FOUND: 404,
  UNAUTHENTICATED: 401,
  RESPONSE_TOO_LARGE: 413,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_HTTP_ERROR: 502,
  UPSTREAM_BAD_RESPONSE: 502,
  NOT_TABULAR: 502,
  SERVER_BUSY: 503,
};

/** The refusal of an expected failure (a coded error of any layer, or the rate limit's and the key check's). */
export function refusalOf(error: unknown): Refusal | undefined {
  if (error instanceof CodedError) {
    const { code, details, httpStatus } = error as CodedError;
    return { status: httpStatus ?? STATUS[code] ?? 400, code, message: error.message, details };
  }
  if (error instanceof GraphQLError) {
    const code = error.extensions['code'];
    if (typeof code !== 'string' || !Object.hasOwn(ERRORS, code)) return undefined;
    const known = code as ErrorCode;
    const http = error.extensions['http'];
    const retryAfterS = error.extensions['retryAfterS'];
    return {
      status: http?.status ?? (ERRORS[known] as ErrorDeclaration).status ?? STATUS[known] ?? 400,
      code: known,
      message: error.message,
      details: typeof retryAfterS === 'number' ? { retryAfterS } : {},
    };
  }
  return undefined;
}
