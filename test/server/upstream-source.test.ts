import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findSummaryEndpoint, type DatasetCode, type SummaryEndpointEntry } from '../../src/catalogue.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import type { PayloadCache } from '../../src/upstream/cache.js';
import { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from '../../src/upstream/client.js';
import { createPayloadCache } from '../../src/upstream/create-cache.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { createUpstreamSource, type PayloadRead, type UpstreamSource } from '../../src/upstream/source.js';
import { testRedisLink } from '../helpers/redis.js';
import { DEFAULTS } from '../helpers/settings.js';

const REDIS_URL = process.env['REDIS_URL'];
const CACHE_KINDS = REDIS_URL === undefined ? (['memory'] as const) : (['memory', 'redis'] as const);
type CacheKind = (typeof CACHE_KINDS)[number];

const CODE = 'ODS_COUNT_TEACHER_BY_YEAR';
const START = Date.parse('2025-01-01T00:00:00Z');
const TTL_S = 300;
const SWR_S = 3_600;
const STALE_IF_ERROR_S = 86_400;

let simulator: Simulator;
/** A second upstream whose summary answers may be cached (the default simulator marks them no-store). */
let cacheableSummaries: Simulator;
let admin: Redis | undefined;

beforeAll(async () => {
  simulator = await startSimulator();
  cacheableSummaries = await startSimulator({ summaryCacheControl: 'public, max-age=60' });
  if (REDIS_URL !== undefined) admin = new Redis(REDIS_URL);
});
afterAll(async () => {
  await Promise.all([simulator.close(), cacheableSummaries.close(), admin?.quit()]);
});

function summaryEndpoint(id: number): SummaryEndpointEntry {
  const endpoint = findSummaryEndpoint(id);
  if (endpoint === undefined) throw new Error(`catalogue lacks ${id}`);
  return endpoint;
}

describe.each(CACHE_KINDS)('the upstream source over the %s cache', (kind: CacheKind) => {
  let clock: number;
  let keyPrefix: string;
  let logLines: Record<string, unknown>[];
  const closing: (() => Promise<unknown>)[] = [];

  beforeEach(() => {
    clock = START;
    keyPrefix = `test:${randomUUID()}:`;
    logLines = [];
    simulator.clearFaults();
    simulator.resetRequests();
    cacheableSummaries.resetRequests();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
    const keys = (await admin?.keys(`${keyPrefix}*`)) ?? [];
    if (keys.length > 0) await admin?.del(...keys);
  });

  function newCache(maxMb = 64): PayloadCache {
    const cache = createPayloadCache({
      redis: kind === 'redis' && REDIS_URL !== undefined ? testRedisLink(REDIS_URL) : undefined,
      maxMb,
      sharedMaxMb: DEFAULTS.cache.sharedMaxMb,
      keyPrefix,
      lockLeaseMs: DEFAULTS.cache.lockLeaseMs,
    });
    closing.push(() => cache.close());
    return cache;
  }

  function newSource(
    options: {
      cache?: PayloadCache;
      upstream?: Simulator;
      client?: Partial<UpstreamClientOptions>;
      ttlS?: number;
    } = {},
  ): UpstreamSource {
    const upstream = options.upstream ?? simulator;
    const logger = createLogger('debug', {
      write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
    });
    const client: UpstreamClient = createUpstreamClient({
      baseUrl: upstream.url,
      apiKey: upstream.apiKey,
      apiKeyHeader: 'api-key',
      timeoutMs: 2_000,
      caPem: undefined,
      logger,
      retries: DEFAULTS.upstream.retries,
      breakerCooldownS: DEFAULTS.upstream.breakerCooldownS,
      maxBodyMb: DEFAULTS.upstream.maxBodyMb,
      ...options.client,
    });
    const source = createUpstreamSource({
      client,
      cache: options.cache ?? newCache(),
      logger,
      ttlS: options.ttlS ?? TTL_S,
      swrS: SWR_S,
      staleIfErrorS: STALE_IF_ERROR_S,
      now: () => clock,
    });
    closing.push(
      () => client.close(),
      () => source.close(),
    );
    return source;
  }

  const served = (code: DatasetCode): unknown => JSON.parse(simulator.datasetBody(code).toString('utf8'));

  it('50 concurrent reads of an uncached payload make one upstream call', async () => {
    const source = newSource();
    const reads = await Promise.all(Array.from({ length: 50 }, () => source.readDataset(CODE, '')));
    expect(simulator.requestCount(CODE)).toBe(1);
    expect(new Set(reads.map((read) => read.state))).toEqual(new Set(['fresh']));
    expect(reads[0]?.value).toEqual(served(CODE));
    expect(new Set(reads.map((read) => read.version)).size).toBe(1);
  });

  it('serves a fresh entry without calling, with when it was fetched and until when it is fresh', async () => {
    const source = newSource();
    const first = await source.readDataset(CODE, '');
    clock += (TTL_S - 1) * 1_000;
    const again = await source.readDataset(CODE, '');
    expect(simulator.requestCount(CODE)).toBe(1);
    expect(again).toMatchObject({ state: 'fresh', version: first.version, fetchedAt: new Date(START) });
    expect(again.freshUntil).toEqual(new Date(START + TTL_S * 1_000));
    expect(again.staleSince).toBeUndefined();
    // The parsed value is reused, not parsed again per read.
    if (kind === 'memory') expect(again.value).toBe(first.value);
  });

  it('keys datasets by their canonical query string', async () => {
    const source = newSource();
    const all = await source.readDataset(CODE, '');
    const year = await source.readDataset(CODE, 'ACADEMIC_YEAR=2566');
    await source.readDataset(CODE, 'ACADEMIC_YEAR=2566');
    expect(simulator.requestCount(CODE)).toBe(2);
    expect(year.version).not.toBe(all.version);
  });

  it('after the ttl: stale at once, and exactly one background refresh', async () => {
    const source = newSource();
    const first = await source.readDataset(CODE, '');
    clock += (TTL_S + 1) * 1_000;
    simulator.setFault(CODE, { latencyMs: 1_000, times: 1 });
    const reads = await Promise.all(Array.from({ length: 10 }, () => source.readDataset(CODE, '')));
    // Served without waiting for the refresh: the upstream has not answered it yet.
    expect(simulator.requests[1]?.status).toBeUndefined();
    for (const read of reads) {
      expect(read).toMatchObject({ state: 'stale', staleSince: first.freshUntil, version: first.version });
    }
    await source.idle();
    expect(simulator.requestCount(CODE)).toBe(2);
    // The refresh was conditional and the data had not changed: a 304, and the entry is fresh again.
    expect(simulator.requests[1]?.status).toBe(304);
    const after = await source.readDataset(CODE, '');
    expect(after).toMatchObject({ state: 'fresh', fetchedAt: new Date(START), validatedAt: new Date(clock) });
    expect(simulator.requestCount(CODE)).toBe(2);
  });

  it('revalidates with If-None-Match once past the stale window: a 304 makes the entry fresh again', async () => {
    const source = newSource();
    const first = await source.readDataset(CODE, '');
    clock += (TTL_S + SWR_S + 1) * 1_000;
    const again = await source.readDataset(CODE, '');
    expect(simulator.requests.map((request) => request.status)).toEqual([200, 304]);
    expect(simulator.requests[1]?.headers['if-none-match']).toBe(first.version);
    expect(again).toMatchObject({
      state: 'fresh',
      version: first.version,
      fetchedAt: new Date(START),
      validatedAt: new Date(clock),
    });
    expect(again.freshUntil).toEqual(new Date(clock + TTL_S * 1_000));
    expect(again.value).toEqual(first.value);
    clock += 1_000;
    expect((await source.readDataset(CODE, '')).state).toBe('fresh');
    expect(simulator.requestCount(CODE)).toBe(2);
  });

  it('with the upstream down past the stale window: the last good payload, stale-if-error, and since when', async () => {
    const source = newSource({ client: { retries: 0 } });
    const first = await source.readDataset(CODE, '');
    clock += (TTL_S + SWR_S + 60) * 1_000;
    simulator.setFault(CODE, { status: 503 });
    const read = await source.readDataset(CODE, '');
    expect(read).toMatchObject({ state: 'stale-if-error', staleSince: first.freshUntil, fetchedAt: new Date(START) });
    expect(read.refreshError).toMatchObject({ code: 'UPSTREAM_HTTP_ERROR', upstreamStatus: 503 });
    expect(read.value).toEqual(first.value);
    expect(logLines.some((line) => line['msg'] === 'upstream refresh failed: serving the last good payload')).toBe(
      true,
    );

    clock = START + (TTL_S + STALE_IF_ERROR_S + 1) * 1_000;
    await expect(source.readDataset(CODE, '')).rejects.toMatchObject({ code: 'UPSTREAM_HTTP_ERROR' });
  });

  it('serves no stale payload when the upstream refuses the request (a 4xx)', async () => {
    const source = newSource();
    await source.readDataset(CODE, '');
    clock += (TTL_S + SWR_S + 60) * 1_000;
    simulator.setFault(CODE, { status: 404 });
    await expect(source.readDataset(CODE, '')).rejects.toMatchObject({ upstreamStatus: 404 });
  });

  it('rejects with the UpstreamError when nothing is cached and the upstream fails', async () => {
    simulator.setFault(CODE, { malformedBody: true });
    const error: unknown = await newSource()
      .readDataset(CODE, '')
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({
      code: 'UPSTREAM_BAD_RESPONSE',
      message: `Upstream dataset ${CODE} answered with a body that is not JSON`,
    });
  });

  it('with the circuit open: stale payloads at once, and UPSTREAM_UNAVAILABLE at once for the rest', async () => {
    const source = newSource({ client: { timeoutMs: 250, breakerCooldownS: 30 } });
    await source.readDataset(CODE, '');
    clock += (TTL_S + SWR_S + 60) * 1_000;
    simulator.setFault('*', { hang: true });
    const outages = ['ODS_COUNT_STUDENT_BY_MAJOR', 'ODS_COUNT_GRADUATE_BY_YEAR', 'ZVIEW_CPS_SUMMARY_DATA'] as const;
    await Promise.allSettled(outages.map((code) => source.readDataset(code, '')));
    expect(source.breakerState()).toBe('open');

    simulator.resetRequests();
    const stale = await source.readDataset(CODE, '');
    const refused: unknown = await source.readDataset('V10_DUPWITH', '').catch((reason: unknown) => reason);
    // Both answered without calling the upstream.
    expect(simulator.requestCount()).toBe(0);
    expect(stale).toMatchObject({ state: 'stale-if-error', refreshError: { code: 'UPSTREAM_UNAVAILABLE' } });
    expect(refused).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
  });

  it('takes the upstream max-age when it is shorter than the ttl', async () => {
    const source = newSource({ ttlS: 3_600 });
    const read = await source.readDataset(CODE, '');
    // The simulator sends max-age=300.
    expect(read.freshUntil).toEqual(new Date(START + 300_000));
  });

  it("does not keep answers marked no-store (the simulator's summaries), but still shares one call", async () => {
    const source = newSource();
    const endpoint = summaryEndpoint(84);
    await Promise.all([source.readSummary(endpoint, {}), source.readSummary(endpoint, {})]);
    await source.readSummary(endpoint, {});
    expect(simulator.requestCount(84)).toBe(2);
  });

  it('keeps cacheable summary answers per input, whatever the key order', async () => {
    const source = newSource({ upstream: cacheableSummaries });
    const endpoint = summaryEndpoint(84);
    const first = await source.readSummary(endpoint, { ACADEMIC_YEAR: '2566', JURISDICTION: 'x' });
    const second = await source.readSummary(endpoint, { JURISDICTION: 'x', ACADEMIC_YEAR: '2566' });
    await source.readSummary(endpoint, { ACADEMIC_YEAR: '2565' });
    expect(cacheableSummaries.requestCount(84)).toBe(2);
    expect(second).toMatchObject({ state: 'fresh', version: first.version });
    // No ETag on summaries: the version is a hash of the body.
    expect(first.version).toMatch(/^sha256:/);
    expect(first.freshUntil).toEqual(new Date(START + 60_000));
  });

  it('warms datasets a few at a time, reports, and never rejects', async () => {
    // As each call ends: how many requests the upstream has received that no ended call accounts for.
    let ended = 0;
    let mostInFlight = 0;
    const onCall = () => {
      mostInFlight = Math.max(mostInFlight, simulator.requestCount() - ended);
      ended += 1;
    };
    const source = newSource({ client: { onCall } });
    simulator.setFault('*', { latencyMs: 200 });
    simulator.setFault('V10_DUPWITH', { status: 404 });
    const codes = [CODE, 'ODS_COUNT_GRADUATE_BY_YEAR', 'ZVIEW_CPS_SUMMARY_DATA', 'V10_DUPWITH'] as const;
    const report = await source.warm(codes, { concurrency: 2 });
    // Four reads of 200 ms, two at a time: never more than two out at once.
    expect(mostInFlight).toBe(2);
    expect(ended).toBe(4);
    expect(report).toMatchObject({ warmed: 3, failed: ['V10_DUPWITH'] });
    expect(logLines.find((line) => line['msg'] === 'upstream cache warmed')).toMatchObject({ warmed: 3 });
    simulator.clearFaults();
    simulator.resetRequests();
    await Promise.all(codes.slice(0, 3).map((code) => source.readDataset(code, '')));
    expect(simulator.requestCount()).toBe(0);
  });

  const BIG = ['V10_DUPWITH', 'MV_DWH_SCHOOL1', 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER'] as const;
  const readAll = async (source: UpstreamSource, codes: readonly DatasetCode[]): Promise<PayloadRead[]> => {
    const reads: PayloadRead[] = [];
    for (const code of codes) reads.push(await source.readDataset(code, ''));
    return reads;
  };

  it.runIf(kind === 'memory')('evicts the least recently used payloads beyond maxMb', async () => {
    // 1.0 + 1.4 + 1.1 MB of bodies in 2.5 MB: the first one read goes.
    const source = newSource({ cache: newCache(2.5) });
    await readAll(source, BIG);
    await readAll(source, ['MV_DWH_SCHOOL1', 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER', 'V10_DUPWITH']);
    expect(simulator.requestCount('V10_DUPWITH')).toBe(2);
    expect(simulator.requestCount('MV_DWH_SCHOOL1')).toBe(1);
    expect(simulator.requestCount('ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER')).toBe(1);
  });

  describe.runIf(kind === 'redis')('shared through Redis', () => {
    it('a second instance reads what the first fetched, without an upstream call', async () => {
      const first = await newSource({ cache: newCache() }).readDataset(CODE, '');
      const second = await newSource({ cache: newCache() }).readDataset(CODE, '');
      expect(simulator.requestCount(CODE)).toBe(1);
      expect(second).toMatchObject({ state: 'fresh', version: first.version, fetchedAt: first.fetchedAt });
      expect(second.value).toEqual(first.value);
    });

    it('two instances stampeding on one payload make one upstream call', async () => {
      const one = newSource({ cache: newCache() });
      const two = newSource({ cache: newCache() });
      simulator.setFault(CODE, { latencyMs: 100, times: 1 });
      await Promise.all(Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? one : two).readDataset(CODE, '')));
      expect(simulator.requestCount(CODE)).toBe(1);
    });

    it('the byte bound applies to local parsed copies: an evicted one is read back from Redis', async () => {
      const source = newSource({ cache: newCache(2.5) });
      await readAll(source, BIG);
      const again = await source.readDataset('V10_DUPWITH', '');
      expect(simulator.requestCount('V10_DUPWITH')).toBe(1);
      expect(again.value).toEqual(served('V10_DUPWITH'));
    });

    it('a Redis that cannot be reached costs a read nothing: no wait, and one warning for the outage, not per read', async () => {
      const logger = createLogger('debug', {
        write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
      });
      const cache = createPayloadCache({
        redis: testRedisLink('redis://127.0.0.1:1', logger),
        maxMb: 8,
        sharedMaxMb: 8,
        keyPrefix,
        lockLeaseMs: DEFAULTS.cache.lockLeaseMs,
      });
      closing.push(() => cache.close());
      const source = newSource({ cache });
      await expect(source.readDataset(CODE, '')).resolves.toMatchObject({ state: 'fresh' });
      await expect(source.readDataset(CODE, '')).resolves.toMatchObject({ state: 'fresh' });
      // The second read is this instance's own copy: Redis being down does not send every read to the upstream.
      expect(simulator.requestCount(CODE)).toBe(1);
      expect(logLines.filter((line) => String(line['msg']).startsWith('payload cache'))).toEqual([]);
      expect(logLines.filter((line) => String(line['msg']).startsWith('redis unavailable'))).toHaveLength(1);
    });
  });
});
