import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';

export interface LoopbackServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly origin: string;
  readonly port: number;
  /** Ends its open connections, then closes it. */
  readonly close: () => Promise<void>;
}

/** Puts `server` on a loopback port of its own (port 0 unless given), once it listens. */
export async function listenOnLoopback(server: Server, port = 0): Promise<LoopbackServer> {
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    port: address.port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A plain `node:http` server on a loopback port of its own, answering as `handler` says: a stand-in upstream whose
 * bodies a test sets, or a collector that records what it is sent.
 */
export function startLoopbackServer(handler: RequestListener): Promise<LoopbackServer> {
  return listenOnLoopback(createServer(handler));
}
