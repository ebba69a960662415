import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import { guardWriteStalls } from '../../src/server/transport/write-stall.js';
import { startSimulator } from '../../src/simulator/server.js';
import { subscribe } from '../helpers/sse.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

const CODE: DatasetCode = 'ODS_COUNT_SCHOOL_BY_JURISDICTION';
const PAYLOAD_STREAM = `subscription { datasetChanged(codes: [${CODE}]) { version dataset { payload } } }`;

async function revise(stack: Stack): Promise<void> {
  await fetch(`${stack.simulator.url}/__simulator/datasets/${CODE}/revisions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  await stack.live.watcher.check();
}

describe("a stream's payloads are charged to the in-flight budget and given back event by event", () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    // Room for one payload in flight, not two: a stream that held its events' bytes would starve everyone else.
    const simulator = await startSimulator();
    const bytes = simulator.datasetBody(CODE).length;
    await simulator.close();
    stack = await startStack({ limits: { maxInFlightResponseBytes: Math.floor(bytes * 1.5) } });
    server = await listen(stack.app);
    await stack.live.watcher.check();
  });
  afterAll(async () => {
    await server.close();
    await stack.close();
  });

  const payloadQuery = async (): Promise<string[]> => {
    const response = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ dataset(code: ${CODE}) { payload } }` }),
    });
    const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    return (body.errors ?? []).map((error) => error.extensions?.code ?? '');
  };

  it('each event carries its payload, and a query after it is not SERVER_BUSY', async () => {
    const stream = await subscribe(`${server.origin}/graphql`, PAYLOAD_STREAM);
    try {
      for (let change = 0; change < 3; change++) {
        await revise(stack);
        const event = await stream.next();
        expect(event.errors).toBeUndefined();
        expect(
          (event.data as { datasetChanged: { dataset: { payload: unknown } } }).datasetChanged.dataset.payload,
        ).not.toBeNull();
        // The event's bytes went back once written: the next answer, the stream's or anyone's, has room.
        await expect.poll(payloadQuery, { timeout: 10_000 }).toEqual([]);
      }
    } finally {
      stream.close();
    }
  });
});

/** A node:http server with the guard, whose handler writes `total` bytes in 16 KB chunks as fast as it may. */
async function startWriter(
  stallMs: number,
  total: number,
): Promise<{ port: number; responses: ServerResponse[]; server: Server }> {
  const responses: ServerResponse[] = [];
  const chunk = Buffer.alloc(16 * 1024, 'x');
  const server = createServer(
    guardWriteStalls((_request, response) => {
      responses.push(response);
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      void (async () => {
        const closed = once(response, 'close');
        for (let sent = 0; sent < total && !response.destroyed; sent += chunk.length)
          if (!response.write(chunk)) await Promise.race([once(response, 'drain'), closed]);
        if (!response.destroyed) response.end();
      })();
    }, stallMs),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { port: address.port, responses, server };
}

function request(port: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.write('GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
  return socket;
}

describe('a connection whose reader stops reading is closed (HTTP_WRITE_STALL_TIMEOUT_MS)', () => {
  const TOTAL = 256 * 1024 * 1024;

  it('a reader that never reads: the answer is destroyed and its bytes never all queued', async () => {
    const { port, responses, server } = await startWriter(300, TOTAL);
    const socket = request(port);
    socket.pause();
    try {
      await expect.poll(() => responses[0]?.destroyed, { timeout: 15_000 }).toBe(true);
      expect(responses[0]?.writableFinished).toBe(false);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  });

  it('a reader that stops halfway: cut once it stops', async () => {
    const { port, responses, server } = await startWriter(300, TOTAL);
    const socket = request(port);
    let received = 0;
    socket.on('data', (data: Buffer) => {
      received += data.length;
      if (received > 8 * 1024 * 1024) socket.pause();
    });
    try {
      await expect.poll(() => responses[0]?.destroyed, { timeout: 15_000 }).toBe(true);
      expect(received).toBeGreaterThan(8 * 1024 * 1024);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  });

  it('a reader that keeps reading is never cut, however long the answer takes', async () => {
    const { port, responses, server } = await startWriter(2_000, 32 * 1024 * 1024);
    const socket = request(port);
    let received = 0;
    socket.on('data', (data: Buffer) => {
      received += data.length;
    });
    try {
      await once(socket, 'end');
      expect(responses[0]?.writableFinished).toBe(true);
      expect(received).toBeGreaterThan(32 * 1024 * 1024);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  });
});
