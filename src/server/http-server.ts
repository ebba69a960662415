import { createServer, type Server } from 'node:http';
import type { ConnectionLimits } from '../config.js';
import type { App } from './app.js';
import type { Metrics } from './metrics.js';

// node:http enforces the header and request time-outs by sweeping its connections at an interval (30 s unless
// told), so a slow client kept its socket for up to the time-out plus that: the 80 s seen for a 60 s one.
const MAX_SWEEP_INTERVAL_MS = 1_000;

/**
 * The node:http server for the app, with the configured connection limits. main.ts listens with it and so do the
 * tests that need a socket, so both run the same settings.
 *
 * A client that is slow with its headers or its body gets 408 and the connection is closed; an idle keep-alive
 * connection is closed; a connection over `maxConnections` is closed as soon as it is accepted, with no answer
 * (node's `server.maxConnections`). That last is deliberate: a 503 would mean reading and parsing the request,
 * which is what the bound is there to refuse, and clients and proxies treat a refused connection as retryable.
 * Such drops are counted in `http_connections_dropped_total`.
 */
export function createHttpServer(app: App, limits: ConnectionLimits, metrics?: Metrics): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // A quarter of the header time-out (at most 1 s): a time-out then fires at most a quarter late.
      connectionsCheckingInterval: Math.min(MAX_SWEEP_INTERVAL_MS, Math.ceil(limits.headersTimeoutMs / 4)),
    },
    app.requestListener,
  );
  // A WebSocket upgrade arrives on a connection this server accepted, so the connection bound covers it too.
  server.on('upgrade', (request, socket, head) => app.webSockets.upgrade(request, socket, head));
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  if (metrics !== undefined) {
    server.on('connection', (socket) => {
      metrics.connection('opened');
      socket.once('close', () => metrics.connection('closed'));
    });
    server.on('drop', () => metrics.connection('dropped'));
  }
  return server;
}
