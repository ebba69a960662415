import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Empties a node:http server's keep-alive connections at shutdown without cutting a request, as Grafana Mimir does:
 * from `begin()` every answer carries `Connection: close`, so each connection closes once its request is answered
 * and its client opens the next one elsewhere (a load balancer has taken this instance out by then). `close()`
 * stops accepting and resolves once every connection is closed. Without it, node goes on reading requests on
 * connections that were busy when the listener closed, for as long as their clients keep sending, and the
 * shutdown's grace cuts them.
 *
 * Nothing is reset on the way:
 * - Closing a listening socket resets every connection in its accept queue (the kernel completed the handshake,
 *   node had not taken it yet): its client sees ECONNRESET on a request it already sent. Clients still sent here
 *   (none behind a balancer that stopped routing; all of them without one) reconnect as soon as an answer says
 *   `Connection: close`, so that queue is never empty while answers say so. Before closing, `close()` therefore
 *   answers keep-alive again until no connection has arrived for QUIET_MS (at most MAX_QUIET_MS): each client then
 *   sends on the connection it has, the queue empties, and the listener closes on an empty queue. From then on
 *   every answer says `Connection: close`, and a client that connects again is refused (ECONNREFUSED: nothing sent).
 * - A connection idle after an answer that promised keep-alive is never closed by the drain: its client may be
 *   sending on it at that moment. It gets its next request answered with `Connection: close`, or node's keep-alive
 *   time-out ends it (HTTP_KEEP_ALIVE_TIMEOUT_MS, which its answer's `Keep-Alive` field told the client).
 * - A connection that has not sent its first request is never closed either: it gets it answered (with
 *   `Connection: close`), or HTTP_FIRST_HEADERS_TIMEOUT_MS ends it. node's own `server.close()` closes both.
 */
export class ConnectionDrain {
  // Answers begun and not finished, and per connection that has carried a request, how many are in flight on it.
  readonly #unfinished = new Set<ServerResponse>();
  readonly #inFlight = new Map<Socket, number>();
  /** `serving`, `draining` (answers say close), `quiet` (keep-alive until the accept queue is empty), `closed`. */
  #mode: 'serving' | 'draining' | 'quiet' | 'closed' = 'serving';

  constructor(private readonly server: Server) {
    // First among the listeners, so that the header is set before any of them can answer.
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      this.#track(request.socket, response),
    );
  }

  #track(socket: Socket, response: ServerResponse): void {
    if (this.#sayClose()) response.setHeader('connection', 'close');
    if (!this.#inFlight.has(socket)) socket.once('close', () => this.#inFlight.delete(socket));
    this.#inFlight.set(socket, (this.#inFlight.get(socket) ?? 0) + 1);
    this.#unfinished.add(response);
    response.once('close', () => {
      this.#unfinished.delete(response);
      if (this.#inFlight.has(socket)) this.#inFlight.set(socket, (this.#inFlight.get(socket) ?? 1) - 1);
    });
  }

  #sayClose(): boolean {
    return this.#mode === 'draining' || this.#mode === 'closed';
  }

  /** From now on every answer not yet begun says `Connection: close`. */
  begin(): void {
    if (this.#mode === 'serving') this.#mode = 'draining';
    this.#closeUnbegun();
  }

  #closeUnbegun(): void {
    for (const response of this.#unfinished) if (!response.headersSent) response.setHeader('connection', 'close');
  }

  /** Stops accepting connections once its accept queue is empty; resolves once no connection is left. */
  async close(): Promise<void> {
    // Answers already told to close keep that (their clients were promised nothing else); new ones keep alive.
    this.#mode = 'quiet';
    await this.#quiet();
    this.#mode = 'closed';
    this.#closeUnbegun();
    const closed = new Promise<void>((resolve) => {
      // net.Server's own close: stops listening and calls back once the last connection is gone, without
      // http.Server's closing of every idle connection (see above).
      NetServer.prototype.close.call(this.server, () => resolve());
    });
    // A keep-alive time-out longer than the default would hold the shutdown that long for a client that went quiet:
    // past MAX_IDLE_WAIT_MS its idle connections are closed (a client that sends at that very moment loses that one
    // request, as it would at any keep-alive time-out).
    if (this.server.keepAliveTimeout > MAX_IDLE_WAIT_MS) {
      const idleClose = setTimeout(() => {
        for (const [socket, inFlight] of this.#inFlight) if (inFlight === 0) closeIdle(socket);
      }, MAX_IDLE_WAIT_MS).unref();
      void closed.then(() => clearTimeout(idleClose));
    }
    return closed;
  }

  /**
   * Resolves once no connection has been accepted for QUIET_MS, or after MAX_QUIET_MS whatever arrives. The check is
   * made after a turn of the event loop past the wait, so node has polled the listener since: a busy event loop
   * (connections waiting unseen in the queue) is not taken for a quiet one.
   */
  async #quiet(): Promise<void> {
    let accepted = 0;
    const count = (): void => void accepted++;
    this.server.on('connection', count);
    const started = performance.now();
    try {
      for (;;) {
        const before = accepted;
        await delay(QUIET_MS);
        await new Promise((resolve) => setImmediate(resolve));
        if (accepted === before || performance.now() - started >= MAX_QUIET_MS) return;
      }
    } finally {
      this.server.off('connection', count);
    }
  }
}

/** The longest the drain leaves an idle keep-alive connection to its client: node's default keep-alive time-out. */
const MAX_IDLE_WAIT_MS = 5_000;

function closeIdle(socket: Socket): void {
  // The server's sockets are half-open: end() alone would leave the reading side to the client to close.
  socket.end(() => socket.destroy());
}

/** How long no connection must arrive before the listener is closed: a reconnect after an answer takes far less. */
const QUIET_MS = 100;
/** The longest the drain waits for that quiet, when new clients keep coming. */
const MAX_QUIET_MS = 2_000;
