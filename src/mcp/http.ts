/**
 * MCP over Streamable HTTP at /mcp, as a plain fetch handler: `(request, deps) => Promise<Response>`. Stateless: each
 * request gets its own server and transport, answered as JSON, so any instance of a fleet can take any request.
 * The caller is checked first, as /graphql checks it (a bad key is a 401, a disabled client a 403), and a page of a
 * foreign origin is refused as the WebSocket upgrade refuses it (CORS_ORIGINS).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CODE, type ErrorCode } from '../errors/registry.js';
import { graphqlCall } from './graphql-call.js';
import { MCP_PATH } from './path.js';
import { createMcpServer } from './tools.js';

/** The version MCP clients are told (serverInfo). */
export const MCP_SERVER_VERSION = '1.0.0';

/** A refusal written by the server's one writer of error answers (error-answer.ts), which the caller passes in. */
export interface McpRefusal {
  readonly status?: number;
  readonly code: ErrorCode;
  readonly message?: string;
}

export interface McpHttpDeps {
  /** Answers a GraphQL request as /graphql does: the app's own pipeline, for the same caller and address. */
  readonly graphql: (request: Request) => Promise<Response>;
  /** Where that pipeline answers GraphQL (its path). */
  readonly graphqlPath: string;
  /** CORS_ORIGINS. */
  readonly corsOrigins: '*' | readonly string[];
  /** MCP_MAX_RESULT_BYTES. */
  readonly maxResultBytes: number;
  /** Resolves when the request's credential is good (or absent); otherwise resolves with the refusal to answer. */
  readonly authenticate: (request: Request) => Promise<McpRefusal | undefined>;
  readonly refuse: (request: Request, refusal: McpRefusal) => Response;
}

export async function handleMcpRequest(request: Request, deps: McpHttpDeps): Promise<Response> {
  const origin = request.headers.get('origin');
  if (origin !== null && deps.corsOrigins !== '*' && !deps.corsOrigins.includes(origin))
    return deps.refuse(request, {
      status: 403,
      code: CODE.FORBIDDEN,
      message: `MCP requests from ${origin.slice(0, 100)} are not allowed (CORS_ORIGINS).`,
    });
  // Stateless: no stream to hold open for server-initiated messages, and no session to end.
  if (request.method !== 'POST')
    return deps.refuse(request, {
      status: 405,
      code: CODE.BAD_REQUEST,
      message: `${request.method.slice(0, 10)} is not allowed here: MCP messages are POSTed to ${MCP_PATH}`,
    });
  const refusal = await deps.authenticate(request);
  if (refusal !== undefined) return deps.refuse(request, refusal);

  const endpoint = new URL(deps.graphqlPath, request.url).href;
  const server = createMcpServer({
    call: graphqlCall(deps.graphql, endpoint, request.headers),
    maxResultBytes: deps.maxResultBytes,
    version: MCP_SERVER_VERSION,
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    // With JSON responses the transport resolves once every answer is written into the body.
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
