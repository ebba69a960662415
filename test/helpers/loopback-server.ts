import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';

export interface LoopbackServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * A plain `node:http` server on a loopback port of its own (port 0), answering as `handler` says: a stand-in
 * upstream whose bodies a test sets, or a collector that records what it is sent.
 */
export async function startLoopbackServer(handler: RequestListener): Promise<LoopbackServer> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
