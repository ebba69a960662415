/**
 * /mcp on the front door (http.ts answers it). The request itself is free: each tool call is a GraphQL operation
 * run back through yoga as the caller (same key, same address), which pays what that operation costs, so MCP and
 * /graphql draw from one bucket. Its refusals (a foreign Origin, a method MCP does not take, a bad key) are thrown
 * as coded errors for the front door's one writer.
 */
import type { IncomingMessage } from 'node:http';
import { CodedError } from '../errors/coded-error.js';
import type { Route } from '../http/route.js';
import { handleMcpRequest, type McpHttpDeps } from './http.js';
import { MCP_PATH } from './path.js';

export interface McpRouteOptions extends Omit<McpHttpDeps, 'graphql' | 'authenticate' | 'refuse'> {
  /** The app's GraphQL fetch handler, given the server context of the MCP request (its socket: the caller's address). */
  readonly graphql: (request: Request, serverContext: { req?: IncomingMessage }) => Promise<Response>;
}

export function mcpRoute(options: McpRouteOptions): Route {
  return {
    name: 'mcp',
    price: 'free',
    paths: [MCP_PATH],
    handle: (request, state) =>
      handleMcpRequest(request, {
        ...options,
        graphql: (inner) => options.graphql(inner, state.node === undefined ? {} : { req: state.node }),
        // A bad key rejects with its coded refusal (401, 403, 429), which the front door writes.
        authenticate: async () => {
          await state.caller();
          return undefined;
        },
        refuse: (_request, { code, message, status }) => {
          throw new CodedError(code, message, {}, status);
        },
      }),
  };
}
