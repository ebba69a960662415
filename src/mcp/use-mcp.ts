/**
 * Mounts the MCP handler (http.ts) on /mcp in front of yoga's GraphQL stages, as the harvest and downloads routes are
 * mounted: the route answers with `endResponse`, and its tools' operations go back through the whole pipeline.
 */
import type { IncomingMessage } from 'node:http';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ERRORS, type ErrorCode } from '../errors/registry.js';
import type { RequestCallers } from '../graphql/request-callers.js';
import { handleMcpRequest, type McpHttpDeps, type McpRefusal } from './http.js';
import { MCP_PATH } from './path.js';

export interface McpOptions extends Omit<McpHttpDeps, 'graphql' | 'authenticate' | 'refuse'> {
  readonly callers: Pick<RequestCallers, 'of'>;
  /** The app's GraphQL fetch handler, given the server context of the MCP request (its socket: the caller's address). */
  readonly graphql: (request: Request, serverContext: { req?: IncomingMessage }) => Promise<Response>;
  readonly refuse: (fetchAPI: { Response: typeof Response }, request: Request, refusal: McpRefusal) => Response;
}

/** The coded refusal a credential check rejected with (401, 403 for a disabled client, 429 for a guesser). */
function refusalOf(error: unknown): McpRefusal | undefined {
  if (!(error instanceof GraphQLError)) return undefined;
  const code = error.extensions['code'];
  if (typeof code !== 'string' || !Object.hasOwn(ERRORS, code)) return undefined;
  const http = error.extensions['http'];
  return {
    code: code as ErrorCode,
    message: error.message,
    ...(http?.status === undefined ? {} : { status: http.status }),
  };
}

export function useMcp(options: McpOptions): Plugin {
  return {
    onRequest(payload) {
      if (payload.url.pathname !== MCP_PATH) return;
      const { request, fetchAPI } = payload;
      const { req } = payload.serverContext as { req?: IncomingMessage };
      return handleMcpRequest(request, {
        ...options,
        graphql: (inner) => options.graphql(inner, { req }),
        authenticate: (outer) =>
          options.callers.of(outer, req).then(
            () => undefined,
            (error: unknown) => {
              const refusal = refusalOf(error);
              if (refusal === undefined) throw error;
              return refusal;
            },
          ),
        refuse: (outer, refusal) => options.refuse(fetchAPI, outer, refusal),
      }).then((response) => payload.endResponse(response));
    },
  };
}
