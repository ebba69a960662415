import { once } from 'node:events';
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type ConnectionLimits } from '../src/config.js';
import { listen, useStack } from './helpers/stack.js';

const stack = useStack();

/** The connection limits an environment gives, through the same parsing as main.ts. */
function limitsOf(env: Record<string, string>): ConnectionLimits {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return loaded.config.connections;
}

/** A raw client connection: what it was sent so far, and a promise of its closing. */
interface RawClient {
  readonly socket: Socket;
  received(): string;
  readonly closed: Promise<void>;
}

async function rawClient(port: number): Promise<RawClient> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  // A reset is a way of closing too; 'close' follows it.
  socket.on('error', () => undefined);
  const closed = once(socket, 'close').then(() => undefined);
  await once(socket, 'connect');
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
