/**
 * How the MCP tools reach the data: one GraphQL operation per tool call, sent through the server's own GraphQL
 * pipeline with the caller's credentials, so keys, scopes, the rate-limit bucket, the operation limits and the
 * introspection setting apply to a tool exactly as to the same query on /graphql.
 */
/** One GraphQL error as the API answers it. */
export interface GraphQLAnswerError {
  readonly message: string;
  readonly extensions?: Record<string, unknown>;
}

/** What one operation answered. */
export interface GraphQLAnswer {
  readonly status: number;
  readonly data: Record<string, unknown> | null;
  readonly errors: readonly GraphQLAnswerError[];
  /** The embedded simulator answered (`extensions.upstream`, which the server sets on every answer then). */
  readonly simulated: boolean;
}

export type GraphQLCall = (query: string, variables: Record<string, unknown>) => Promise<GraphQLAnswer>;

/** The request headers an operation carries from the MCP request that caused it. */
const FORWARDED_HEADERS = ['authorization', 'accept-language', 'x-forwarded-for', 'x-request-id'];

/**
 * Operations posted to `endpoint` through `send` (the app's own fetch in process, or the network), carrying the
 * caller's headers from `from`.
 */
export function graphqlCall(
  send: (request: Request) => Promise<Response>,
  endpoint: string,
  from: Headers,
): GraphQLCall {
  return async (query, variables) => {
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    });
    for (const name of FORWARDED_HEADERS) {
      const value = from.get(name);
      if (value !== null) headers.set(name, value);
    }
    const response = await send(
      new Request(endpoint, { method: 'POST', headers, body: JSON.stringify({ query, variables }) }),
    );
    const text = await response.text();
    let body: { data?: unknown; errors?: unknown; extensions?: { upstream?: unknown } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = { errors: [{ message: `the API answered HTTP ${response.status} without a GraphQL body` }] };
    }
    return {
      status: response.status,
      data: typeof body.data === 'object' && body.data !== null ? (body.data as Record<string, unknown>) : null,
      errors: Array.isArray(body.errors) ? (body.errors as GraphQLAnswerError[]) : [],
      simulated: body.extensions?.upstream === 'simulated',
    };
  };
}
