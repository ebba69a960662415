import { once } from 'node:events';
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionsPerPeer, DEFAULT_CONNECTIONS_PER_PEER, loadConfig } from '../../src/config.js';
import type { HttpServerLimits } from '../../src/server/transport/http-server.js';
import { listen, useStack } from '../helpers/stack.js';

const stack = useStack();

/** The connection limits an environment gives, through the same parsing and resolution as main.ts. */
function limitsOf(env: Record<string, string>): HttpServerLimits {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return { ...loaded.config.connections, maxConnectionsPerPeer: connectionsPerPeer(loaded.config) };
}

/** A raw client connection: what it was sent so far, and a promise of its closing. */
interface RawClient {
  readonly socket: Socket;
  received(): string;
  readonly closed: Promise<void>;
}

async function rawClient(port: number, localAddress = '127.0.0.1'): Promise<RawClient> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  // A reset is a way of closing too; 'close' follows it.
  socket.on('error', () => undefined);
  // Not events.once: it rejects on the 'error' that a reset emits before 'close'.
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // A connection the server closes at accept may be reset before the client has seen it connect.
  await Promise.race([once(socket, 'connect').catch(() => undefined), closed]);
  return { socket, received: () => received, closed };
}

/** Sends a complete GET and waits for the whole answer, leaving the connection open (keep-alive). */
async function roundTrip(client: RawClient, path = '/health'): Promise<string> {
  client.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  while (!/\r\n\r\n/.test(client.received())) await once(client.socket, 'data');
  return client.received();
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(env: Record<string, string>, withMetrics = false): Promise<Awaited<ReturnType<typeof listen>>> {
  const server = await listen(stack().app, {
    limits: limitsOf(env),
    metrics: withMetrics ? stack().metrics : undefined,
  });
  servers.push(server);
  return server;
}

describe('slow and idle clients', () => {
  it('answers 408 and closes a connection whose headers do not arrive within HTTP_HEADERS_TIMEOUT_MS', async () => {
    const { port } = await serve({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '5000' });
    const client = await rawClient(port);
    client.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('answers 408 and closes a connection whose body trickles past HTTP_REQUEST_TIMEOUT_MS', async () => {
    const { port } = await serve({ HTTP_HEADERS_TIMEOUT_MS: '200', HTTP_REQUEST_TIMEOUT_MS: '400' });
    const client = await rawClient(port);
    client.socket.write(
      'POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query"',
    );
    // A byte every 50 ms: never idle, never done.
    const trickle = setInterval(() => client.socket.writable && client.socket.write(' '), 50);
    try {
      await client.closed;
    } finally {
      clearInterval(trickle);
    }
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('advertises HTTP_KEEP_ALIVE_TIMEOUT_MS and closes the idle connection after it', async () => {
    const { port } = await serve({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' });
    const client = await rawClient(port);
    const answer = await roundTrip(client);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
    await client.closed;
  });

  it('holds at most HTTP_MAX_CONNECTIONS: one more is closed unanswered and counted, until one of them ends', async () => {
    const server = await serve({ HTTP_MAX_CONNECTIONS: '2', SUBSCRIPTION_MAX_TOTAL: '2' }, true);
    const accepted: Socket[] = [];
    server.server.on('connection', (socket: Socket) => accepted.push(socket));
    const held = [await rawClient(server.port), await rawClient(server.port)];
    // Answered, so both are surely accepted and counted by the server.
    for (const client of held) expect(await roundTrip(client)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);

    const refused = await rawClient(server.port);
    refused.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await refused.closed;
    expect(refused.received()).toBe('');
    const metrics = await (await stack().app.fetch('http://localhost/metrics')).text();
    expect(metrics).toMatch(/^http_connections_dropped_total 1$/m);
    expect(metrics).toMatch(/^http_connections_open 2$/m);

    const [first] = held;
    const firstOnServer = accepted[0];
    if (first === undefined || firstOnServer === undefined) throw new Error('two connections were accepted');
    first.socket.destroy();
    await once(firstOnServer, 'close');
    expect(await roundTrip(await rawClient(server.port))).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});

describe('one address cannot hold every connection', () => {
  /** Opens `count` connections from `address` and sorts them into those still open and those closed unanswered. */
  async function flood(port: number, count: number, address = '127.0.0.1') {
    const clients = await Promise.all(Array.from({ length: count }, () => rawClient(port, address)));
    // A connection over the bound is closed as soon as it is accepted; the others answer a request.
    const states = await Promise.all(
      clients.map((client) =>
        Promise.race([
          client.closed.then(() => 'closed' as const),
          roundTrip(client).then(
            () => 'served' as const,
            () => 'closed' as const,
          ),
        ]),
      ),
    );
    return { clients, served: states.filter((state) => state === 'served').length };
  }

  it('closes connections over HTTP_MAX_CONNECTIONS_PER_IP at accept, unanswered, while another address is served', async () => {
    const dropped = async (): Promise<number> => {
      const metrics = await (await stack().app.fetch('http://localhost/metrics')).text();
      return Number(/^http_connections_dropped_total (\d+)$/m.exec(metrics)?.[1]);
    };
    const droppedBefore = await dropped();
    const server = await serve({ HTTP_MAX_CONNECTIONS_PER_IP: '5' }, true);
    const { clients, served } = await flood(server.port, 8);
    expect(served).toBe(5);
    expect(clients.filter((client) => client.received() === '').length).toBe(3);
    // Another address has its own bound, and the metrics count the drops.
    expect((await flood(server.port, 5, '127.0.0.2')).served).toBe(5);
    expect((await dropped()) - droppedBefore).toBe(3);
    // A connection that ends gives its place back (once the server has seen it close), and only that one.
    const open = clients.filter((client) => client.received() !== '');
    open[0]?.socket.destroy();
    let replacement = await flood(server.port, 1);
    for (let tries = 0; replacement.served === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      replacement = await flood(server.port, 1);
    }
    expect(replacement.served).toBe(1);
    expect((await flood(server.port, 1)).served).toBe(0);
    for (const client of replacement.clients) client.socket.destroy();
    for (const client of clients) client.socket.destroy();
  });

  it(`bounds one address to ${DEFAULT_CONNECTIONS_PER_PEER} by default, and not at all behind a trusted proxy`, async () => {
    const direct = await serve({});
    const flooded = await flood(direct.port, DEFAULT_CONNECTIONS_PER_PEER + 6);
    expect(flooded.served).toBe(DEFAULT_CONNECTIONS_PER_PEER);
    for (const client of flooded.clients) client.socket.destroy();
    const proxied = await serve({ TRUST_PROXY: 'true' });
    const viaProxy = await flood(proxied.port, DEFAULT_CONNECTIONS_PER_PEER + 6);
    expect(viaProxy.served).toBe(DEFAULT_CONNECTIONS_PER_PEER + 6);
    for (const client of viaProxy.clients) client.socket.destroy();
  });

  it('answers 408 and closes a new connection that trickles its first headers past HTTP_FIRST_HEADERS_TIMEOUT_MS', async () => {
    // The headers of later requests have the whole minute: only the first one is held to the shorter bound.
    const env = {
      HTTP_FIRST_HEADERS_TIMEOUT_MS: '300',
      HTTP_HEADERS_TIMEOUT_MS: '60000',
      HTTP_REQUEST_TIMEOUT_MS: '60000',
    };
    const { port } = await serve(env);
    const trickler = await rawClient(port);
    const request = 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ' + 'a'.repeat(200);
    let sent = 0;
    const trickle = setInterval(() => trickler.socket.writable && trickler.socket.write(request[sent++] ?? 'a'), 20);
    const silent = await rawClient(port);
    const lineOnly = await rawClient(port);
    lineOnly.socket.write('GET /health HTTP/1.1\r\n');
    try {
      await Promise.all([trickler.closed, silent.closed, lineOnly.closed]);
    } finally {
      clearInterval(trickle);
    }
    for (const client of [trickler, silent, lineOnly])
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);

    // A connection that sent its first request in time keeps its keep-alive past the first bound.
    const prompt = await rawClient(port);
    expect(await roundTrip(prompt)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(prompt.socket.destroyed).toBe(false);
    prompt.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    while ((prompt.received().match(/HTTP\/1\.1 200 OK/g) ?? []).length < 2) await once(prompt.socket, 'data');
    prompt.socket.destroy();
  });
});
