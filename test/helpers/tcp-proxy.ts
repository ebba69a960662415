import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy to a loopback port, between a server under test and a dependency (PostgreSQL), that a test controls. */
export interface TcpProxy {
  /** The proxy's own loopback port, stable across cut() and restore(). */
  readonly port: number;
  /** Drops every connection and refuses new ones: a dependency that is down. */
  cut(): Promise<void>;
  /** Accepts connections again after cut(). */
  restore(): Promise<void>;
  /**
   * Forwards no byte either way, while every connection stays open and new ones are still accepted: a dependency that
   * hangs (`kill -STOP`, a network partition, a stuck failover), whose kernel still completes TCP handshakes.
   */
  freeze(): void;
  /** Delivers what freeze() held, in order, and forwards again: the dependency resumed. */
  thaw(): void;
  close(): Promise<void>;
}

/** A pair of sockets whose bytes are held, rather than written, while the proxy is frozen. */
class Link {
  readonly #held = new Map<Socket, Buffer[]>();

  constructor(
    readonly client: Socket,
    readonly upstream: Socket,
    frozen: () => boolean,
  ) {
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.#held.set(to, []);
      from.on('data', (chunk: Buffer) => {
        if (frozen()) this.#held.get(to)?.push(chunk);
        else to.write(chunk);
      });
      // Either side closing closes the other, as a real connection's end would reach its peer.
      from.on('close', () => to.destroy());
      from.on('error', () => from.destroy());
    }
  }

  release(): void {
    for (const [to, chunks] of this.#held) {
      for (const chunk of chunks.splice(0)) to.write(chunk);
    }
  }

  destroy(): void {
    this.client.destroy();
    this.upstream.destroy();
  }
}

export async function tcpProxy(target: number, host = '127.0.0.1'): Promise<TcpProxy> {
  const links = new Set<Link>();
  let frozen = false;
  let server: Server | undefined;
  let port = 0;
  const open = async (): Promise<void> => {
    const listening = createServer((client) => {
      const link = new Link(client, connect(target, host), () => frozen);
      links.add(link);
      client.on('close', () => links.delete(link));
    });
    listening.listen(port, '127.0.0.1');
    await once(listening, 'listening');
    const address = listening.address();
    if (address !== null && typeof address === 'object') port = address.port;
    server = listening;
  };
  const cut = async (): Promise<void> => {
    const closing = server;
    server = undefined;
    for (const link of links) link.destroy();
    if (closing !== undefined) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await open();
  return {
    port,
    cut,
    restore: open,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const link of links) link.release();
    },
    close: async () => {
      frozen = false;
      await cut();
    },
  };
}
