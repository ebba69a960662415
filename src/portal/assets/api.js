// The portal's only way to the server: the public GraphQL endpoint, as any client calls it. Credentials go in the
// Authorization header, never in a URL.
import { language, t } from './i18n.js';

export const GRAPHQL_PATH = '/graphql';

/** The GraphQL endpoint as the browser reaches it: the server's real address, whatever proxy is in front. */
export function graphqlUrl() {
  return new URL(GRAPHQL_PATH, location.origin).href;
}

/** A GraphQL error answer, with the first error's code. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {string | undefined} code
   */
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

/** @typedef {{ message: string, path?: (string | number)[], extensions?: { code?: string } }} GraphQLError */

/**
 * @param {string | undefined} token
 * @param {string} accept
 */
function headers(token, accept) {
  /** @type {Record<string, string>} */
  const result = { 'content-type': 'application/json', accept, 'accept-language': language };
  if (token) result['authorization'] = `Bearer ${token}`;
  return result;
}

/** Whether the last answer said it came from the embedded simulator. */
export let simulated = false;

/**
 * A GraphQL document as the portal sends it (plain text, marked with a GraphQL comment so `npm run codegen` finds
 * it) and, for the type check only, the types of its answer and its variables, which codegen writes to
 * gql/operations.d.ts from schema/schema.graphql. A module declares each document with both, for example
 * `@type Operation<Ops.PortalCatalogueQuery, Ops.PortalCatalogueQueryVariables>` on
 * `const CATALOGUE = operation(...)`, so a schema change that breaks a document fails codegen, and one that
 * changes its types fails `npm run typecheck`, not the page.
 * @template Data
 * @template Variables
 * @typedef {string & { readonly __answer?: Data, readonly __variables?: Variables }} Operation
 */

/**
 * Marks a document's text as an Operation; its types come from the declaration it is assigned to.
 * @param {string} text
 * @returns {Operation<any, any>}
 */
export function operation(text) {
  return text;
}

/** What the browser's fetch says when the network failed ("Failed to fetch"), in the reader's language. */
export class NetworkError extends ApiError {
  constructor() {
    super(t('networkFailed'), 'NETWORK_ERROR');
  }
}

/** `onResponse` sees the answer's headers (its RateLimit fields, for one) before its body is read. */
/** @typedef {{ onResponse?: (response: Response) => void }} AnswerOptions */

/**
 * Runs one operation; resolves with its data, rejects with an ApiError carrying the first error's code (a
 * NetworkError when no answer came).
 * @template Data
 * @template Variables
 * @param {Operation<Data, Variables>} query
 * @param {Variables} [variables]
 * @param {string} [token]
 * @param {AnswerOptions} [options]
 * @returns {Promise<Data>}
 */
export async function graphql(query, variables, token, options) {
  const { data, errors } = await graphqlPartial(query, variables, token, options);
  const [first] = errors;
  if (first !== undefined) throw first;
  return data;
}

/**
 * Runs one operation and keeps what it answered beside its errors, so a page shows the fields that worked when
 * one failed (GraphQL nulls a failed field and names its path). Rejects only when nothing came back.
 * @template Data
 * @template Variables
 * @param {Operation<Data, Variables>} query
 * @param {Variables} [variables]
 * @param {string} [token]
 * @param {AnswerOptions} [options]
 * @returns {Promise<{ data: Data, errors: (ApiError & { path?: readonly (string | number)[] })[] }>}
 */
export async function graphqlPartial(query, variables, token, options = {}) {
  /** @type {Response} */
  let response;
  try {
    response = await fetch(GRAPHQL_PATH, {
      method: 'POST',
      headers: headers(token, 'application/graphql-response+json, application/json'),
      body: JSON.stringify({ query, variables: variables ?? {} }),
    });
  } catch {
    throw new NetworkError();
  }
  options.onResponse?.(response);
  if (response.headers.get('x-upstream-simulated') === 'true') simulated = true;
  /** @type {{ data?: Data | null, errors?: GraphQLError[], extensions?: { upstream?: string } }} */
  let body;
  try {
    /** @type {unknown} */
    const json = await response.json();
    body = /** @type {typeof body} */ (json);
  } catch {
    throw new ApiError(t('httpFailed', { status: response.status }), undefined);
  }
  if (body.extensions?.upstream === 'simulated') simulated = true;
  const errors = (body.errors ?? []).map((error) =>
    Object.assign(new ApiError(error.message, error.extensions?.code), { path: error.path }),
  );
  if (body.data === undefined || body.data === null) {
    throw errors[0] ?? new ApiError(t('httpFailed', { status: response.status }), undefined);
  }
  return { data: body.data, errors };
}

/**
 * A subscription over GraphQL over SSE (one POST stream, "distinct connections"), reconnected after a drop with
 * a growing pause. `onState` hears 'live' and 'down'. Returns a function that ends it.
 * @template Data
 * @template Variables
 * @param {Operation<Data, Variables>} query
 * @param {{ token?: string, variables?: Variables, onNext: (data: Data) => void, onState?: (state: 'live' | 'down') => void }} options
 * @returns {() => void}
 */
export function subscribe(query, options) {
  let stopped = false;
  let pause = 1_000;
  /** @type {AbortController | undefined} */
  let abort;
  const run = async () => {
    while (!stopped) {
      abort = new AbortController();
      try {
        const response = await fetch(GRAPHQL_PATH, {
          method: 'POST',
          headers: headers(options.token, 'text/event-stream'),
          body: JSON.stringify({ query, variables: options.variables ?? {} }),
          signal: abort.signal,
        });
        // A refusal (a key that stopped working, a limit) would be refused again: give up rather than hammer.
        if (!response.ok || response.body === null) {
          options.onState?.('down');
          if (response.status >= 400 && response.status < 500 && response.status !== 429) return;
        } else {
          options.onState?.('live');
          pause = 1_000;
          await readEvents(response.body, options.onNext);
        }
      } catch {
        // Aborted, or the connection dropped.
      }
      if (stopped) return;
      options.onState?.('down');
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 30_000);
    }
  };
  void run();
  return () => {
    stopped = true;
    abort?.abort();
  };
}

/**
 * @template Data
 * @param {ReadableStream<Uint8Array>} body
 * @param {(data: Data) => void} onNext
 */
async function readEvents(body, onNext) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const lines = buffer.slice(0, boundary).split('\n');
      buffer = buffer.slice(boundary + 2);
      const event = lines
        .find((line) => line.startsWith('event:'))
        ?.slice(6)
        .trim();
      const data = lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (event === 'complete') return;
      if ((event === 'next' || event === undefined) && data !== '') {
        /** @type {unknown} */
        const parsed = JSON.parse(data);
        const result = /** @type {{ data?: Data }} */ (parsed);
        if (result.data !== undefined) onNext(result.data);
      }
      boundary = buffer.indexOf('\n\n');
    }
  }
}

/** Where GraphiQL opens with `query` in its editor. @param {string} query */
export function graphiqlLink(query) {
  return `${GRAPHQL_PATH}?query=${encodeURIComponent(query)}`;
}
