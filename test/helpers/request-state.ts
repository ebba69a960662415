import type { IncomingMessage } from 'node:http';
import type { Caller } from '../../src/access/model.js';
import { RequestCallers } from '../../src/http/request-callers.js';
import { requestStates } from '../../src/server/front-door.js';
import type { PipelineRequestState } from '../../src/server/request-state.js';

/** Callers who are all anonymous (a plugin that asks who pays is tested without a store). */
export const anonymousCallers = new RequestCallers({
  access: { authenticate: () => Promise.resolve<Caller>({ kind: 'anonymous' }) },
  trustProxy: true,
});

/** The request state the app would make for `request` where it enters (src/server/request-state.ts). */
export function requestStateOf(request: Request, callers: RequestCallers = anonymousCallers): PipelineRequestState {
  return requestStates(callers)({ headers: request.headers, url: () => new URL(request.url), node: undefined });
}

/** The request state the app's node:http listener would make for `request` (routedListener, src/server/app.ts). */
export function nodeRequestStateOf(
  request: IncomingMessage,
  callers: RequestCallers = anonymousCallers,
): PipelineRequestState {
  const get = (name: string): string | null => {
    const value = request.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  const url = (): URL => new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  return requestStates(callers)({ headers: { get }, url, node: request });
}

/** What a small yoga in these tests takes: a URL, its init and the server context, as the app's fetch hands them. */
interface StatefulYoga {
  fetch(
    input: string,
    init: RequestInit,
    serverContext: { readonly state: PipelineRequestState },
  ): Promise<Response> | Response;
}

/** A request's init as yoga's fetch takes it: a body of bytes too (a compressed one), which the DOM's type refuses. */
type TestRequestInit = Omit<RequestInit, 'body'> & { readonly body?: RequestInit['body'] | Uint8Array };

/**
 * `yoga.fetch` as the app calls it (its routedFetch): each request with its own request state in the server
 * context, which every stage reads; a plugin on a small yoga is given its requests so.
 */
export function fetchWithState(
  yoga: StatefulYoga,
  callers: RequestCallers = anonymousCallers,
): (input: string, init?: TestRequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    // yoga makes its own Request (its fetch API's) from what it is given, as the app's fetch leaves it to.
    const headers = new Headers(init.headers);
    const state = requestStates(callers)({ headers, url: () => new URL(input), node: undefined });
    return yoga.fetch(input, init as RequestInit, { state });
  };
}
