import { createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { openAccessService } from '../../src/access/service.js';
import { createMetrics } from '../../src/server/observability/metrics.js';
import { OperationNames } from '../../src/server/observability/operation-names.js';
import { sampled } from '../helpers/prometheus.js';
import { STORE_SETTINGS } from '../helpers/settings.js';

const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;

/** A TCP relay to PostgreSQL that can be cut: the database as a network partition or a stopped server leaves it. */
async function relayTo(target: URL): Promise<{ url: string; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const relay = createServer((inbound) => {
    const outbound = new (inbound.constructor as typeof Socket)();
    outbound.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  const address = relay.address();
  const url = new URL(target);
  url.port = String(typeof address === 'object' && address !== null ? address.port : 0);
  return {
    url: url.toString(),
    async cut() {
      const closed = new Promise((resolve) => relay.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe.skipIf(POSTGRES_URL === undefined)('store_errors_total through a PostgreSQL outage (DATABASE_URL)', () => {
  it('counts each call that could not reach the database, not only statements that reached it', async () => {
    const relay = await relayTo(new URL(POSTGRES_URL as string));
    const metrics = createMetrics(new OperationNames({ known: [], limit: 0 }));
    const access = await openAccessService({
      ...STORE_SETTINGS,
      postgres: { ...STORE_SETTINGS.postgres, connectTimeoutMs: 500 },
      databaseUrl: relay.url,
      adminToken: undefined,
      observer: metrics.store,
    });
    const errors = async (): Promise<number> => sampled(await metrics.registry.metrics(), 'store_errors_total');
    try {
      await access.ping();
      expect(await errors()).toBe(0);
      await relay.cut();
      for (let i = 0; i < 3; i += 1) await expect(access.ping()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(await errors()).toBeGreaterThanOrEqual(3);
    } finally {
      await access.close();
    }
  });
});
