import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { runMain, startServerProcess } from './helpers/server-process.js';
import { slowPost } from './helpers/slow-post.js';

const READY = /GraphQL server ready at (http:\/\/[^\s"]+)/;
const QUERY = '{ datasets { code } }';
// A short grace; the upstream time-out must fit in what it leaves requests (config.ts refuses it otherwise).
const SHORT_GRACE = { SHUTDOWN_GRACE_S: '3', SHUTDOWN_READINESS_DELAY_S: '1', UPSTREAM_TIMEOUT_MS: '2000' };

describe('shutdown bounded by SHUTDOWN_GRACE_S', () => {
  it('logs each request the grace cut (method, path, request id, age) and exits 1', async () => {
    const server = await startServerProcess(SHORT_GRACE);
    const endpoint = new URL(server.endpoint);
    slowPost(endpoint, QUERY, 'never-finished');
    expect(
      (
        await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: QUERY }),
        })
      ).status,
    ).toBe(200);
    expect(await server.stop('SIGTERM')).toBe(1);
    const cutLine = server
      .output()
      .split('\n')
      .filter((line) => line.includes('shutdown grace'))
      .map((line) => JSON.parse(line) as { level: number; graceS: number; cut: Record<string, unknown>[] });
    expect(cutLine).toHaveLength(1);
    expect(cutLine[0]?.graceS).toBe(3);
    expect(cutLine[0]?.cut).toEqual([
      { method: 'POST', path: '/graphql', requestId: 'never-finished', ageMs: expect.any(Number) as number },
    ]);
    expect(server.output()).not.toContain('"msg":"stopped"');
  }, 60_000);

  it('exits within the grace even when its log pipe is closed (its parent gone)', async () => {
    const server = runMain(SHORT_GRACE);
    const endpoint = await new Promise<URL>((resolve) => {
      const onData = (): void => {
        const match = READY.exec(server.output());
        if (match?.[1] !== undefined) resolve(new URL(match[1]));
        else server.child.stdout.once('data', onData);
      };
      onData();
    });
    slowPost(endpoint, QUERY, 'held-open');
    // What a dead parent leaves: the read end of the log pipe closed, so every later write fails with EPIPE.
    server.child.stdout.destroy();
    server.child.stderr.destroy();
    expect(await server.stop('SIGTERM')).toBe(1);
  }, 60_000);
});

// Unset or empty: no Redis here.
const REDIS_URL = process.env['REDIS_URL'] === '' ? undefined : process.env['REDIS_URL'];

describe.skipIf(REDIS_URL === undefined)('shutdown with Redis', () => {
  it("hands the watcher's lease over at once, while /ready fails and before the listener closes", async () => {
    const prefix = `teg-p1-${randomBytes(4).toString('hex')}:`;
    const leaseKey = `${prefix}live:watcher-leader`;
    const redis = new Redis(REDIS_URL as string);
    try {
      const server = await startServerProcess({
        REDIS_URL: REDIS_URL as string,
        REDIS_KEY_PREFIX: prefix,
        SHUTDOWN_READINESS_DELAY_S: '5',
      });
      while ((await redis.exists(leaseKey)) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      const stopped = server.stop('SIGTERM');
      while ((await redis.exists(leaseKey)) === 1) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(server.output()).not.toContain('no new connections');
      const ready = await fetch(new URL('/ready', server.endpoint));
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'shutting_down', upstream: 'simulated', checks: {} });
      expect(await stopped).toBe(0);
    } finally {
      await redis.quit();
    }
  }, 60_000);
});
