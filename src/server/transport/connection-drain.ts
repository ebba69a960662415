import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * Empties a node:http server's keep-alive connections at shutdown without cutting a request, as Grafana Mimir does:
 * from `begin()` every answer carries `Connection: close`, so each connection closes once its request is answered
 * and its client opens the next one elsewhere (a load balancer has taken this instance out by then). `close()`
 * stops accepting, closes the connections that are idle after an answer, and resolves once every connection is
 * closed. Without it, node goes on reading requests on connections that were busy when the listener closed, for as
 * long as their clients keep sending, and the shutdown's grace cuts them.
 *
 * Only a connection idle after an answer is closed by the server, never one that has not sent its first request:
 * node's own `server.close()` closes both, and a request on its way over a connection just accepted would be lost.
 * Such a connection gets its request answered (with `Connection: close`), or HTTP_FIRST_HEADERS_TIMEOUT_MS ends it.
 */
export class ConnectionDrain {
  // Answers begun and not finished, and per connection that has carried a request, how many are in flight on it.
  readonly #unfinished = new Set<ServerResponse>();
  readonly #inFlight = new Map<Socket, number>();
  #draining = false;
  #closing = false;

  constructor(private readonly server: Server) {
    // First among the listeners, so that the header is set before any of them can answer.
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      this.#track(request.socket, response),
    );
  }

  #track(socket: Socket, response: ServerResponse): void {
    if (this.#draining) response.setHeader('connection', 'close');
    if (!this.#inFlight.has(socket)) socket.once('close', () => this.#inFlight.delete(socket));
    this.#inFlight.set(socket, (this.#inFlight.get(socket) ?? 0) + 1);
    this.#unfinished.add(response);
    response.once('close', () => {
      this.#unfinished.delete(response);
      const left = (this.#inFlight.get(socket) ?? 1) - 1;
      if (this.#inFlight.has(socket)) this.#inFlight.set(socket, left);
      // An answer whose headers went before the drain promised keep-alive: once the listener is closed, nothing
      // else would end its connection.
      if (left === 0 && this.#closing) closeIdle(socket);
    });
  }

  /** From now on every answer not yet begun says `Connection: close`. */
  begin(): void {
    this.#draining = true;
    for (const response of this.#unfinished) if (!response.headersSent) response.setHeader('connection', 'close');
  }

  /** Stops accepting connections, closes those idle after an answer; resolves once none is left. */
  async close(): Promise<void> {
    this.begin();
    this.#closing = true;
    await this.#acceptQueued();
    const closed = new Promise<void>((resolve) => {
      // net.Server's own close: stops listening and calls back once the last connection is gone, without
      // http.Server's closing of every idle connection (see above).
      NetServer.prototype.close.call(this.server, () => resolve());
    });
    for (const [socket, inFlight] of this.#inFlight) if (inFlight === 0) closeIdle(socket);
    return closed;
  }

  /**
   * Lets node take the connections the kernel has accepted and it has not yet: closing a listening socket resets
   * every connection still in its accept queue (the client sees ECONNRESET on a request it already sent). Each turn
   * of the event loop polls the listener once; turns are taken until one brings no connection (at most
   * MAX_ACCEPT_TURNS), and what they bring is answered like any other, with `Connection: close`.
   */
  async #acceptQueued(): Promise<void> {
    let accepted = 0;
    const count = (): void => void accepted++;
    this.server.on('connection', count);
    try {
      for (let turn = 0; turn < MAX_ACCEPT_TURNS; turn++) {
        const before = accepted;
        await new Promise((resolve) => setImmediate(resolve));
        if (turn > 0 && accepted === before) return;
      }
    } finally {
      this.server.off('connection', count);
    }
  }
}

// Turns of the event loop the drain waits at most for queued connections before it closes the listener.
const MAX_ACCEPT_TURNS = 20;

function closeIdle(socket: Socket): void {
  // The server's sockets are half-open: end() alone would leave the reading side to the client to close.
  socket.end(() => socket.destroy());
}
