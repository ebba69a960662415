import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { CODE } from '../../errors/registry.js';
import { requestTargetProblem } from '../../http/request-target.js';
import { type HeaderOf, writeRawErrorAnswer } from '../answers/error-answer.js';
import type { GraphQLWebSocketOptions, WebSocketServing } from './websocket-server.js';

/** The graphql-ws endpoint beside HTTP: what node:http's `upgrade` event hands sockets to, and what shutdown ends. */
export interface GraphQLWebSockets {
  /** For node:http's `upgrade` event. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * Refuses new sockets, and closes each open one with 1001 once its operations are done: its subscriptions
   * complete when the LiveHub closes (shutdown's first step), each with a `complete` message before the close.
   */
  close(): void;
}

/**
 * graphql-ws on the GraphQL path (websocket-server.ts says how a socket is served). The upgrade request passes the
 * same request-target and Host checks as any request, here; ws and graphql-ws (a few MB resident) are imported with
 * the first upgrade that passes them, so a server no client opens a socket to never loads them.
 */
export function createGraphQLWebSockets(options: GraphQLWebSocketOptions): GraphQLWebSockets {
  let serving: Promise<WebSocketServing> | undefined;
  let closing = false;
  const load = (): Promise<WebSocketServing> => {
    if (serving === undefined) {
      const loading = import('./websocket-server.js').then(({ serveWebSockets }) =>
        serveWebSockets(options, () => closing),
      );
      // The next upgrade tries again; the sockets that waited for this one are closed (below).
      loading.catch(() => serving === loading && (serving = undefined));
      serving = loading;
    }
    return serving;
  };

  return {
    upgrade(request, socket, head) {
      const header: HeaderOf = (name) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value.join(',') : value;
      };
      const hosts = request.rawHeaders.filter(
        (_, index) => index % 2 === 0 && /^host$/i.test(request.rawHeaders[index] ?? ''),
      );
      const problem =
        hosts.length > 1 ? 'A request has one Host header.' : requestTargetProblem(request.url, request.headers.host);
      if (problem !== undefined)
        return writeRawErrorAnswer(socket, header, { status: 400, code: CODE.BAD_REQUEST, message: problem });
      // As over HTTP (CORS_ORIGINS): a page of another origin may not drive its visitors' browsers to the socket.
      // Native apps send no Origin.
      const origin = request.headers.origin;
      if (origin !== undefined && options.corsOrigins !== '*' && !options.corsOrigins.includes(origin))
        return writeRawErrorAnswer(socket, header, {
          status: 403,
          code: CODE.FORBIDDEN,
          message: `WebSocket connections from ${origin.slice(0, 100)} are not allowed (CORS_ORIGINS).`,
        });
      if (new URL(request.url ?? '/', 'http://localhost').pathname !== options.graphqlPath)
        return writeRawErrorAnswer(socket, header, {
          status: 404,
          code: CODE.NOT_FOUND,
          message: `WebSocket connections are served on ${options.graphqlPath} only.`,
        });
      load().then(
        (server) => server.upgrade(request, socket, head),
        (error: unknown) => {
          options.logger.error({ err: error }, 'cannot load the WebSocket server');
          socket.destroy();
        },
      );
    },
    close() {
      if (closing) return;
      closing = true;
      void serving?.then(
        (server) => server.closeWhenIdle(),
        () => undefined,
      );
    },
  };
}
