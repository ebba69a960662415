import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { startSimulator } from '../../src/simulator/server.js';
import { runMain, startServerProcess } from '../helpers/server-process.js';
import { slowPost } from '../helpers/slow-post.js';

const READY = /GraphQL server ready at (http:\/\/[^\s"]+)/;
const QUERY = '{ datasets { code } }';
// A short grace; the upstream time-out must fit in what it leaves requests (config/conflicts.ts refuses it otherwise).
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

/** One request of the load below, as its client saw it. */
interface LoadRequest {
  readonly slow: boolean;
  /** Sent after /ready answered 503: the instance was draining. */
  readonly whileDraining: boolean;
  /** In flight when SIGTERM was sent. */
  inFlightAtSignal: boolean;
  /**
   * `answered`: a whole answer; `refused`: the connection did not open (the listener closed: never sent);
   * `cut`: anything else, the request sent and its answer lost or broken off.
   */
  outcome?: 'answered' | 'refused' | 'cut';
  status?: number;
  connection?: string;
  error?: string;
}

/** A POST over the worker's own kept-alive connection; resolves when the outcome is known. */
function send(agent: Agent, endpoint: URL, query: string, record: LoadRequest): Promise<void> {
  const body = JSON.stringify({ query });
  return new Promise((resolve) => {
    const settle = (outcome: NonNullable<LoadRequest['outcome']>, error?: string): void => {
      record.outcome ??= outcome;
      if (error !== undefined) record.error ??= error;
      resolve();
    };
    const sent = request(endpoint, {
      agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    sent.on('response', (response) => {
      record.status = response.statusCode;
      record.connection = response.headers.connection;
      response.on('data', () => undefined);
      response.on('end', () => (response.complete ? settle('answered') : settle('cut', 'incomplete')));
      response.on('error', (error) => settle('cut', error.message));
    });
    // A connection that never opened (refused, or reset while it waited in the closing listener's backlog) sent
    // nothing: the request was refused, not cut.
    sent.on('error', (error: NodeJS.ErrnoException) =>
      settle(error.syscall === 'connect' ? 'refused' : 'cut', `${error.code ?? ''} ${error.message}`),
    );
    sent.end(body);
  });
}

/**
 * What a load balancer does with an instance that shuts down: it polls /ready, and once that answers 503 it opens no
 * new connection to it; requests on connections already open keep coming as long as the instance keeps them open.
 */
function balancerRouting(ready: URL, stopped: () => boolean): { routed(): boolean } {
  let routed = true;
  void (async () => {
    while (routed && !stopped()) {
      const status = await fetch(ready).then(
        (response) => response.status,
        () => 0,
      );
      if (status !== 200) routed = false;
      else await delay(100);
    }
  })();
  return { routed: () => routed };
}

describe('shutdown under keep-alive load', () => {
  it(
    'answers every request it took with Connection: close once draining, closes its connections, exits 0 within the grace',
    { timeout: 90_000 },
    async () => {
      const upstream = await startSimulator({ apiKey: 'drain-key' });
      // The slow requests of the load: 3 s each, every one a cache miss of its own.
      upstream.setFault('ODS_COUNT_GRADUATE_BY_YEAR', { latencyMs: 3_000 });
      const graceS = 15;
      const server = await startServerProcess({
        UPSTREAM_BASE_URL: upstream.url,
        UPSTREAM_API_KEY: 'drain-key',
        SHUTDOWN_GRACE_S: String(graceS),
        SHUTDOWN_READINESS_DELAY_S: '1',
        // 20 busy connections from one address: its budgets are not what is tested here.
        RATE_LIMIT_POINTS: '0',
        UPSTREAM_FETCH_RATE_LIMIT_POINTS: '0',
      });
      const endpoint = new URL(server.endpoint);
      const slowBefore = upstream.requestCount('ODS_COUNT_GRADUATE_BY_YEAR');
      const requests: LoadRequest[] = [];
      const lastOfEachWorker: LoadRequest[] = [];
      let exited = false;
      const balancer = balancerRouting(new URL('/ready', endpoint), () => exited);
      const worker = async (index: number): Promise<void> => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        let record: LoadRequest | undefined;
        try {
          for (let n = 0; !exited; n += 1) {
            // Five workers alternate with 3 s requests, on a connection kept alive by their first answer.
            const slow = index < 5 && n % 2 === 1;
            record = { slow, whileDraining: !balancer.routed(), inFlightAtSignal: false };
            requests.push(record);
            const query = slow
              ? `{ dataset(code: ODS_COUNT_GRADUATE_BY_YEAR) { payload(query: { n: "${index}-${n}" }) } }`
              : '{ datasets { code } }';
            await send(agent, endpoint, query, record);
            if (record.outcome !== 'answered') return;
            // Its connection closes: the next request would open one, which the balancer sends elsewhere.
            if (record.connection === 'close' && !balancer.routed()) return;
          }
        } finally {
          if (record !== undefined) lastOfEachWorker.push(record);
          agent.destroy();
        }
      };
      const workers = Array.from({ length: 20 }, (_, index) => worker(index));
      // Until every slow worker has a slow request under way at the upstream (its second request, so its connection
      // was kept alive by the first answer).
      await vi.waitFor(
        () => {
          expect(requests.filter((record) => record.slow && record.outcome === undefined)).toHaveLength(5);
          expect(upstream.requestCount('ODS_COUNT_GRADUATE_BY_YEAR')).toBeGreaterThanOrEqual(slowBefore + 5);
        },
        { timeout: 20_000, interval: 20 },
      );
      for (const record of requests) record.inFlightAtSignal = record.outcome === undefined;
      const signalledAt = performance.now();
      const code = await server.stop('SIGTERM');
      const exitMs = performance.now() - signalledAt;
      exited = true;
      await Promise.all(workers);
      await upstream.close();

      expect(code).toBe(0);
      expect(exitMs).toBeLessThan(graceS * 1_000);
      expect(server.output()).not.toContain('shutdown grace');
      expect(server.output()).toContain('"msg":"stopped"');
      const cut = requests.filter((record) => record.outcome === 'cut');
      expect(cut).toEqual([]);
      // The requests the old drain cut: slow ones under way when the signal came, on connections kept alive.
      const slowInFlight = requests.filter((record) => record.inFlightAtSignal && record.slow);
      expect(slowInFlight.length).toBeGreaterThan(0);
      for (const record of slowInFlight)
        expect(record).toMatchObject({ outcome: 'answered', status: 200, connection: 'close' });
      for (const record of requests.filter((sent) => sent.whileDraining && sent.outcome === 'answered'))
        expect(record.connection).toBe('close');
      // Every kept-alive connection was closed by its last answer (or its worker found the listener gone).
      for (const last of lastOfEachWorker)
        expect(last.outcome === 'refused' || (last.outcome === 'answered' && last.connection === 'close')).toBe(true);
      expect(requests.filter((record) => record.outcome === undefined)).toEqual([]);
    },
  );
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
