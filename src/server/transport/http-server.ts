import { createServer, maxHeaderSize, STATUS_CODES, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionLimits } from '../../config.js';
import { CODE } from '../../errors/registry.js';
import type { App } from '../app.js';
import { writeRawErrorAnswer } from '../answers/error-answer.js';
import type { Metrics } from '../observability/metrics.js';
import { guardWriteStalls } from './write-stall.js';

// node:http enforces the header and request time-outs by sweeping its connections at an interval (30 s unless
// told), so a slow client kept its socket for up to the time-out plus that: the 80 s seen for a 60 s one.
const MAX_SWEEP_INTERVAL_MS = 1_000;

/** The connection settings, with the per-address bound resolved (see config.ts `connectionsPerPeer`). */
export type HttpServerLimits = Omit<ConnectionLimits, 'maxConnectionsPerIp'> & {
  /** Open connections of one peer address at most; 0: no bound. */
  readonly maxConnectionsPerPeer: number;
};

/**
 * The node:http server for the app, with the configured connection limits. main.ts listens with it and so do the
 * tests that need a socket, so both run the same settings.
 *
 * A client that is slow with its headers or its body gets 408 and the connection is closed; so does a new
 * connection whose first request's headers are not complete within `firstHeadersTimeoutMs`, shorter than the
 * header time-out of later requests, since a slow-loris holds a socket for as long as the bound it meets first;
 * an idle keep-alive connection is closed. A connection over `maxConnections`, or over `maxConnectionsPerPeer`
 * from its address, is closed as soon as it is accepted, with no answer (for the first, node's
 * `server.maxConnections`). That is deliberate: a 503 would mean reading and parsing the request, which is what
 * the bound is there to refuse, and clients and proxies treat a refused connection as retryable. Such drops are
 * counted in `http_connections_dropped_total`. A connection that stops reading its answer is destroyed too (see
 * write-stall.ts).
 */
export function createHttpServer(app: App, limits: HttpServerLimits, metrics?: Metrics): Server {
  const server = createServer(
    connectionTimeouts(limits),
    guardWriteStalls(app.requestListener, limits.writeStallTimeoutMs),
  );
  // A WebSocket upgrade arrives on a connection this server accepted, so the connection bound covers it too.
  server.on('upgrade', (request, socket, head) => app.webSockets.upgrade(request, socket, head));
  guardConnections(server, limits, metrics);
  server.on('clientError', answerUnreadableRequest);
  return server;
}

/** node:http's own time-outs of a server with these limits: headers, whole request, idle keep-alive. */
export function connectionTimeouts(
  limits: Pick<HttpServerLimits, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>,
): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // A quarter of the header time-out (at most 1 s): a time-out then fires at most a quarter late.
    connectionsCheckingInterval: Math.min(MAX_SWEEP_INTERVAL_MS, Math.ceil(limits.headersTimeoutMs / 4)),
  };
}

/**
 * The bounds every listener of the process puts on its connections (the public port's and the operators'): at most
 * `maxConnections` in all and `maxConnectionsPerPeer` from one address, each over it closed as it is accepted, and
 * a connection whose first request's headers are not in within `firstHeadersTimeoutMs` answered 408 and closed.
 * `metrics`, when given, counts them (the public port's).
 */
export function guardConnections(
  server: Server,
  limits: Pick<HttpServerLimits, 'maxConnections' | 'maxConnectionsPerPeer' | 'firstHeadersTimeoutMs'>,
  metrics?: Metrics,
): void {
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  const peers = new PeerConnections(limits.maxConnectionsPerPeer);
  const awaitingFirstHeaders = new Map<Socket, NodeJS.Timeout>();
  const firstHeadersArrived = (socket: Socket): void => {
    clearTimeout(awaitingFirstHeaders.get(socket));
    awaitingFirstHeaders.delete(socket);
  };
  server.on('connection', (socket: Socket) => {
    if (!peers.admit(socket)) {
      socket.destroy();
      metrics?.connection('dropped');
      return;
    }
    metrics?.connection('opened');
    awaitingFirstHeaders.set(
      socket,
      setTimeout(() => {
        awaitingFirstHeaders.delete(socket);
        // The server's sockets are half-open: end() alone would leave the reading side to the client to close.
        socket.end(bareAnswer(408), () => socket.destroy());
      }, limits.firstHeadersTimeoutMs).unref(),
    );
    socket.once('close', () => {
      firstHeadersArrived(socket);
      metrics?.connection('closed');
    });
  });
  server.on('request', (request: { socket: Socket }) => firstHeadersArrived(request.socket));
  server.on('upgrade', (request: { socket: Socket }) => firstHeadersArrived(request.socket));
  if (metrics !== undefined) server.on('drop', () => metrics.connection('dropped'));
}

/** Open connections per peer address, within a bound (0: none). */
class PeerConnections {
  private readonly open = new Map<string, number>();

  constructor(private readonly bound: number) {}

  /** Counts `socket` against its address until it closes; false, counting nothing, when the address is at the bound. */
  admit(socket: Socket): boolean {
    if (this.bound === 0) return true;
    const address = socket.remoteAddress ?? 'unknown';
    const count = this.open.get(address) ?? 0;
    if (count >= this.bound) return false;
    this.open.set(address, count + 1);
    socket.once('close', () => {
      const left = (this.open.get(address) ?? 1) - 1;
      if (left === 0) this.open.delete(address);
      else this.open.set(address, left);
    });
    return true;
  }
}

/**
 * A request node:http's parser refused, answered like any other refusal (a coded GraphQL error in JSON) where node
 * would write a bare status line: headers over node's bound in all (`--max-http-header-size`, 16 KB unless set) get
 * 431, anything else it cannot read as HTTP/1.1 gets 400. As node does, only when no answer has begun on the
 * connection (else it is just closed), and a time-out keeps node's bare 408.
 * The body goes only where the bytes node could not parse show a method other than HEAD: an answer to HEAD has
 * none, and a client reading one would take the body for the next answer.
 */
function answerUnreadableRequest(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex & { _httpMessage?: { readonly headersSent: boolean } | null },
): void {
  // node's own condition: the answer in flight on this connection, if any, has not begun (node:http's internal
  // `_httpMessage`, which its default handler reads too).
  if (!socket.writable || socket._httpMessage?.headersSent === true || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const method = /^([A-Z]{1,16}) /.exec(error.rawPacket?.subarray(0, 17).toString('latin1') ?? '')?.[1];
  if (status === 408 || method === undefined || method === 'HEAD') {
    socket.end(bareAnswer(status), () => socket.destroy());
    return;
  }
  const noHeaders = (): undefined => undefined;
  writeRawErrorAnswer(socket, noHeaders, {
    status,
    code: CODE.BAD_REQUEST,
    message:
      status === 431
        ? `The request headers are larger than ${maxHeaderSize} bytes in all.`
        : 'The request is not HTTP/1.1 this server can read.',
  });
}

/** A status line with no body, written raw: the request was never read, so there is no response object. */
function bareAnswer(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
}
