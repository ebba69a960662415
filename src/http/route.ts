/**
 * What a door of the server is: a route of the table in front of yoga (front-door.ts). Each non-GraphQL route is a
 * `(request, state) => Response` handler in the folder of its feature (downloads/, harvest/, portal/, …); the front
 * door gives every one of them the same concerns (request id, security headers, CORS, the caller and its price,
 * the one refusal writer, compression); server/front-door.ts applies them, so a new door cannot forget one.
 */
import type { RequestState } from './request-state.js';

// A route's handler is given the request state (request-state.ts): what the front door knows of its request.
export type { RequestCaller, RequestState } from './request-state.js';

/**
 * What a request to a route pays from its caller's bucket (the one GraphQL operations pay from), before its handler
 * runs; its answer's bytes are priced as they are written (SENT_BYTES_PER_TOKEN), whatever the price here.
 * - `operation`: a token, as an executed GraphQL operation (an answer computed for it: a file, a feed);
 * - `stored`: an eighth, as a stored answer (bytes read from memory: a page, an asset);
 * - `free`: nothing (probes: /health and /ready must answer an orchestrator whatever an address spent).
 */
export type RoutePrice = 'operation' | 'stored' | 'free';

/** A request's method and headers, as a route's `matches` reads them, from node:http or the fetch API alike. */
export type RequestHead = Pick<Request, 'method'> & { readonly headers: Pick<Headers, 'get'> };

export type RouteHandler = (request: Request, state: RequestState) => Promise<Response> | Response;

export interface Route {
  /** The name the route table and its tests know it by. */
  readonly name: string;
  /**
   * The paths it answers: each an exact path, or every path that starts with a prefix written with a `*` after it
   * (`/datasets/*`).
   * The front door finds a request's route by these alone, so no route's code runs for another's request.
   */
  readonly paths: readonly string[];
  /**
   * Whether it takes a request on its paths, when not every one (GraphiQL's page shares the GraphQL path, for a GET
   * that asks for HTML): a request it does not take goes on to the next route, or to yoga.
   */
  readonly accepts?: (pathname: string, request: RequestHead) => boolean;
  readonly price: RoutePrice;
  readonly handle: RouteHandler;
  /**
   * The door's refusals of its requests (a bad key's 401, a spent budget's 429, a failure's 500) in the form the
   * route's clients read, made from the server's own error answer, whose status and headers (the challenge,
   * Retry-After) it keeps: CKAN's clients read CKAN's error envelope. Unset: the server's error answer as it is.
   */
  readonly refusal?: (refused: Response, request: Request, state: RequestState) => Promise<Response>;
  /**
   * The route chooses its answers' Content-Encoding itself, identity included (prebuilt bytes in the encodings it
   * keeps, and Vary): the front door never compresses them.
   */
  readonly encodesItself?: true;
}
