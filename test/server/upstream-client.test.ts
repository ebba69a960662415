import { createServer, connect, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { whileCounting } from '../helpers/loop-iterations.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findSummaryEndpoint, type SummaryEndpointEntry } from '../../src/catalogue.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from '../../src/upstream/client.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { DEFAULTS } from '../helpers/settings.js';

const CODE = 'ODS_COUNT_TEACHER_BY_YEAR';
const OTHER_CODES = [
  'ODS_COUNT_STUDENT_BY_MAJOR',
  'ODS_COUNT_SCHOOL_BY_JURISDICTION',
  'ZVIEW_CPS_SUMMARY_DATA',
] as const;

let simulator: Simulator;
const opened: UpstreamClient[] = [];
let logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  simulator = await startSimulator();
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => {
  simulator.clearFaults();
  simulator.resetRequests();
  logLines = [];
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

function newClient(options: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  const logger = createLogger('debug', {
    write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const client = createUpstreamClient({
    baseUrl: simulator.url,
    apiKey: simulator.apiKey,
    apiKeyHeader: 'api-key',
    timeoutMs: 5_000, // generous: a loaded CI machine once took 2 s over two retries
    caPem: undefined,
    retries: DEFAULTS.upstream.retries,
    breakerCooldownS: DEFAULTS.upstream.breakerCooldownS,
    maxBodyMb: DEFAULTS.upstream.maxBodyMb,
    logger,
    ...options,
  });
  opened.push(client);
  return client;
}

function summaryEndpoint(id: number): SummaryEndpointEntry {
  const endpoint = findSummaryEndpoint(id);
  if (endpoint === undefined) throw new Error(`catalogue lacks ${id}`);
  return endpoint;
}

/** What `call` rejected with; undefined when it resolved. */
function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
}

/** A clock the test moves by hand, so the breaker's cool-down passes without sleeping. */
function manualClock() {
  let now = 0;
  return { now: () => now, advanceMs: (ms: number) => void (now += ms) };
}

const messages = (): unknown[] => logLines.map((line) => line['msg']);

describe('retries of idempotent GETs', () => {
  it('two 503s then success: the data, after three calls', async () => {
    simulator.setFault(CODE, { status: 503, times: 2 });
    const answer = await newClient().getDataset(CODE, '');
    const body: unknown = JSON.parse(simulator.datasetBody(CODE).toString('utf8'));
    expect(answer).toMatchObject({ kind: 'body', value: body });
    expect(simulator.requestCount(CODE)).toBe(3);
    expect(messages().filter((message) => message === 'upstream call retried')).toHaveLength(2);
  });

  it('gives up after `retries` repeats with the last error', async () => {
    simulator.setFault(CODE, { status: 502 });
    const error = await failure(newClient({ retries: 1 }).getDataset(CODE, ''));
    expect(error).toMatchObject({ code: 'UPSTREAM_HTTP_ERROR', upstreamStatus: 502 });
    expect(simulator.requestCount(CODE)).toBe(2);
  });

  it('honours Retry-After when it fits the budget', async () => {
    simulator.setFault(CODE, { status: 429, retryAfterS: 1, times: 1 });
    await expect(newClient({ timeoutMs: 3_000 }).getDataset(CODE, '')).resolves.toMatchObject({ kind: 'body' });
    expect(logLines.filter((line) => line['msg'] === 'upstream call retried')).toEqual([
      expect.objectContaining({ delayMs: 1_000 }),
    ]);
    expect(simulator.requestCount(CODE)).toBe(2);
  });

  it('does not wait for a Retry-After beyond the budget: the error at once', async () => {
    simulator.setFault(CODE, { status: 503, retryAfterS: 5 });
    const error = await failure(newClient({ timeoutMs: 1_000 }).getDataset(CODE, ''));
    // The upstream's own answer, not a time-out: no wait was planned, so none was spent.
    expect(error).toMatchObject({ code: 'UPSTREAM_HTTP_ERROR', upstreamStatus: 503 });
    expect(messages()).not.toContain('upstream call retried');
    expect(simulator.requestCount(CODE)).toBe(1);
  });

  it('keeps the whole call, retries and waits included, within timeoutMs', async () => {
    simulator.setFault(CODE, { status: 503, latencyMs: 150 });
    const error = await failure(newClient({ timeoutMs: 400, retries: 5 }).getDataset(CODE, ''));
    expect(error).toBeInstanceOf(UpstreamError);
    // The budget, not the five retries allowed, ended the call: attempts of 150 ms each, at most three fit in 400 ms.
    expect(simulator.requestCount(CODE)).toBeLessThanOrEqual(3);
  });

  it.each([
    ['a 404', { status: 404 }],
    ['a 500', { status: 500 }],
    ['a body that is not JSON', { malformedBody: true }],
  ])('does not retry %s', async (_name, fault) => {
    simulator.setFault(CODE, fault);
    await expect(newClient().getDataset(CODE, '')).rejects.toBeInstanceOf(UpstreamError);
    expect(simulator.requestCount(CODE)).toBe(1);
  });
});

describe('POSTs', () => {
  it('are not retried once the request reached the upstream (a 503)', async () => {
    simulator.setFault(84, { status: 503, times: 1 });
    await expect(newClient().postSummary(summaryEndpoint(84), {})).rejects.toMatchObject({ upstreamStatus: 503 });
    expect(simulator.requestCount(84)).toBe(1);
  });

  describe('on a port that refuses the first connection', () => {
    let forwarder: Server;
    let port: number;
    beforeAll(async () => {
      // A free port nothing listens on yet: connecting to it is refused until the forwarder listens.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      port = (probe.address() as AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      const target = new URL(simulator.url);
      forwarder = createServer((socket) => {
        const upstream = connect(Number(target.port), target.hostname);
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
    });
    afterAll(async () => {
      await new Promise((resolve) => forwarder.close(resolve));
    });

    it('are retried when the request never left (a refused connection)', async () => {
      const logger = createLogger('debug', {
        write: (line: string) => {
          // The first attempt was refused: open the port before the retry (listen binds synchronously).
          if (line.includes('upstream call retried') && !forwarder.listening) forwarder.listen(port, '127.0.0.1');
        },
      });
      const client = newClient({ baseUrl: `http://127.0.0.1:${port}`, logger });
      const answer = await client.postSummary(summaryEndpoint(84), { ACADEMIC_YEAR: '2566' });
      expect(answer.value).toMatchObject({ status: 200 });
      expect(simulator.requestCount(84)).toBe(1);
    });
  });
});

describe('the circuit breaker of the origin', () => {
  const timeoutMs = 500;
  const breakerCooldownS = 10;

  /** A client whose breaker runs on a hand-moved clock, opened by three time-outs (the simulator's hangs never end). */
  async function openedClient(options: Partial<UpstreamClientOptions> = {}) {
    const clock = manualClock();
    const client = newClient({ timeoutMs, breakerCooldownS, now: clock.now, ...options });
    simulator.setFault('*', { hang: true });
    const outcomes = await Promise.all(OTHER_CODES.map((code) => failure(client.getDataset(code, ''))));
    // The hangs never end: that each call answered at all is its time-out at work.
    for (const outcome of outcomes) expect(outcome).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    expect(client.breakerState()).toBe('open');
    simulator.resetRequests();
    return { client, clock };
  }

  it('opens after three time-outs, fails fast until the cool-down, then one probe closes it', async () => {
    const { client, clock } = await openedClient();

    clock.advanceMs(breakerCooldownS * 1_000 - 1);
    const refused = await failure(client.getDataset(CODE, ''));
    expect(refused).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect((refused as Error).message).toBe(
      `Upstream dataset ${CODE} is unavailable: calls are paused after repeated failures`,
    );
    expect(client.breakerState()).toBe('open');
    // Refused without calling the upstream.
    expect(simulator.requestCount()).toBe(0);

    clock.advanceMs(1);
    expect(client.breakerState()).toBe('half-open');
    // No added latency: the probe is still out when the next call is made (its answer needs a turn of the event
    // loop), and it must answer within the short time-out even on a loaded machine.
    simulator.clearFaults();
    let probeSettled = false;
    const probe = client.getDataset(CODE, '').finally(() => {
      probeSettled = true;
    });
    // While the one probe is out, other calls are refused rather than queued behind it.
    await expect(client.getDataset('V10_DUPWITH', '')).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(probeSettled).toBe(false);
    await expect(probe).resolves.toMatchObject({ kind: 'body' });
    expect(client.breakerState()).toBe('closed');
    // The probe alone reached the upstream.
    expect(simulator.requestCount()).toBe(1);
    expect(simulator.requestCount(CODE)).toBe(1);

    const transitions = logLines
      .filter((line) => typeof line['to'] === 'string')
      .map((line) => [line['from'], line['to']]);
    expect(transitions).toEqual([
      ['closed', 'open'],
      ['open', 'half-open'],
      ['half-open', 'closed'],
    ]);
  });

  it('a failed probe opens it again', async () => {
    const { client, clock } = await openedClient({ retries: 0 });
    clock.advanceMs(breakerCooldownS * 1_000);
    await expect(client.getDataset(CODE, '')).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    expect(client.breakerState()).toBe('open');
    // For a whole new cool-down: the next call is refused without calling the upstream.
    await expect(client.getDataset(CODE, '')).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(simulator.requestCount(CODE)).toBe(1);
  });

  it('counts refused connections, reporting the real failure of the call that opened it', async () => {
    const client = newClient({ baseUrl: 'http://127.0.0.1:1' });
    const error = await failure(client.getDataset(CODE, ''));
    expect((error as Error).message).toBe(`Upstream dataset ${CODE} could not be reached`);
    expect(client.breakerState()).toBe('open');
  });

  it('stays closed for answers of any kind: 4xx, 5xx, a body that is not JSON', async () => {
    const client = newClient({ retries: 0 });
    for (const fault of [{ status: 404 }, { status: 500 }, { malformedBody: true }, { status: 400 }]) {
      simulator.setFault(CODE, fault);
      await expect(client.getDataset(CODE, '')).rejects.toBeInstanceOf(UpstreamError);
    }
    expect(client.breakerState()).toBe('closed');
  });
});

describe('conditional GETs', () => {
  it('answer "not modified" for the ETag and for Last-Modified alone, with the caching headers', async () => {
    const client = newClient();
    const first = await client.getDataset(CODE, '');
    if (first.kind !== 'body') throw new Error('expected a body');
    expect(first.headers).toMatchObject({
      cacheControl: 'public, max-age=300',
      lastModified: 'Mon, 01 Jul 2024 00:00:00 GMT',
    });
    expect(first.text).toBe(simulator.datasetBody(CODE).toString('utf8'));

    await expect(client.getDataset(CODE, '', { etag: first.headers.etag })).resolves.toMatchObject({
      kind: 'not-modified',
    });
    await expect(client.getDataset(CODE, '', { lastModified: first.headers.lastModified })).resolves.toMatchObject({
      kind: 'not-modified',
    });
    expect(simulator.requests.map((request) => request.status)).toEqual([200, 304, 304]);
    expect(simulator.requests[2]?.headers['if-modified-since']).toBe(first.headers.lastModified);
  });

  it('an unconditional GET answered 304 is an HTTP error, not a payload', async () => {
    simulator.setFault(CODE, { status: 304 });
    await expect(newClient().getDataset(CODE, '')).rejects.toMatchObject({
      code: 'UPSTREAM_HTTP_ERROR',
      upstreamStatus: 304,
    });
  });
});

describe('a large body', () => {
  // The largest dataset (3.7 MB, 2.8 million characters): reading its text and parsing it each hold the loop about
  // 10 ms. MV_DWH_SCHOOL1 (1.4 MB, but 880,000 characters: Thai is 3 bytes a character) about half as long.
  it.each(['ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST', 'MV_DWH_SCHOOL1'] as const)(
    'is parsed on a later loop iteration than the one that read it: %s',
    async (code) => {
      const bytes = simulator.datasetBody(code).length;
      const chars = simulator.datasetBody(code).toString('utf8').length;
      let iterations = 0;
      let readAt: number | undefined;
      let parsedAt: number | undefined;
      const concat = Buffer.concat.bind(Buffer);
      const parse = JSON.parse.bind(JSON);
      vi.spyOn(Buffer, 'concat').mockImplementation((list, length) => {
        if (length === bytes) readAt ??= iterations;
        return concat(list, length);
      });
      vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver) => {
        if (text.length === chars) parsedAt ??= iterations;
        return parse(text, reviver) as unknown;
      });
      try {
        const answer = await whileCounting(
          () => newClient().getDataset(code, ''),
          () => iterations++,
        );
        expect(answer.kind).toBe('body');
      } finally {
        vi.restoreAllMocks();
      }
      expect(readAt).toBeDefined();
      expect(parsedAt).toBeGreaterThan(readAt ?? Number.POSITIVE_INFINITY);
    },
  );
});
