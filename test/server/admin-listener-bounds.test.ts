import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_MAX_CONNECTIONS_PER_PEER, createAdminListener } from '../../src/server/observability/admin-listener.js';
import type { Metrics } from '../../src/server/observability/metrics.js';
import type { Readiness } from '../../src/server/observability/use-readiness.js';
import { DEFAULTS } from '../helpers/settings.js';

/*
 * The operators' listener (ADMIN_LISTEN_PORT) bounds its connections as the public port does: one address cannot
 * hold more than ADMIN_MAX_CONNECTIONS_PER_PEER open, and a connection that sends no headers is closed after the
 * first-headers time-out rather than held.
 */
const FIRST_HEADERS_TIMEOUT_MS = 300;
let listener: Server;
let port: number;

beforeAll(async () => {
  const readiness: Readiness = {
    report: () => Promise.resolve({ status: 'ready', httpStatus: 200, checks: {} }),
  };
  listener = createAdminListener(
    { metrics: { registry: new Registry() } as unknown as Metrics, readiness, logger: pino({ level: 'silent' }) },
    { ...DEFAULTS.connections, firstHeadersTimeoutMs: FIRST_HEADERS_TIMEOUT_MS },
  );
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const address = listener.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(async () => {
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
});

/** A connection that sends nothing; resolves once connected, with a promise of its close. */
async function idle(): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await once(socket, 'connect');
  return { socket, closed };
}

describe('the operators’ listener’s connection bounds', () => {
  it('holds at most ADMIN_MAX_CONNECTIONS_PER_PEER idle connections from one address of 100', async () => {
    const sockets = await Promise.all(Array.from({ length: 100 }, () => idle()));
    // Those over the bound are closed as they are accepted: wait for their closes, however loaded the machine.
    const open = (): number => sockets.filter(({ socket }) => !socket.destroyed && !socket.closed).length;
    await vi.waitFor(() => expect(open()).toBeLessThanOrEqual(ADMIN_MAX_CONNECTIONS_PER_PEER), { timeout: 10_000 });
    // And the bound is the server's, not a moment's: as many as it allows are still held.
    expect(open()).toBe(ADMIN_MAX_CONNECTIONS_PER_PEER);
    for (const { socket } of sockets) socket.destroy();
    await Promise.all(sockets.map(({ closed }) => closed));
  });

  it('closes a connection that sends no headers within the first-headers time-out, with 408', async () => {
    const started = performance.now();
    const { closed } = await idle();
    const received = await closed;
    expect(performance.now() - started).toBeLessThan(FIRST_HEADERS_TIMEOUT_MS + 2_000);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('still answers /metrics and /ready', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
  });
});
