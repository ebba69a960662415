import { bulkhead } from 'cockatiel';
import type { Logger } from 'pino';
import type { DatasetCode, SummaryEndpointEntry } from '../catalogue.js';
import type { JsonObject } from '../json.js';
import type { BreakerState } from './breaker.js';
import type { CachedPayload, PayloadCache, ReleaseLock } from './cache.js';
import type { UpstreamAnswer, UpstreamBody, UpstreamClient, Validators } from './client.js';
import { CodedError } from '../errors/coded-error.js';
import { CODE } from '../errors/registry.js';
import { UpstreamError } from './errors.js';
import {
  payloadLifetime,
  isStorable,
  keepForMs,
  metaOfBody,
  metaOfNotModified,
  validatorsOf,
  type PayloadLifetime,
  type PayloadWindows,
} from './freshness.js';
import { stableJson } from './query.js';
import { fillShared, SingleFlight } from './single-flight.js';

/**
 * - fresh: within its freshness lifetime (or just fetched);
 * - stale: past it, served at once while one background refresh runs (stale-while-revalidate);
 * - stale-if-error: past it, served because the refresh failed (`refreshError` says how).
 */
export type PayloadState = 'fresh' | 'stale' | 'stale-if-error';

/** One payload as read through the cache, with what a response needs to say how current it is. */
export interface PayloadRead {
  /** The upstream body, parsed. Shared between readers: never mutate it. */
  readonly value: unknown;
  readonly state: PayloadState;
  /** When this body was downloaded. */
  readonly fetchedAt: Date;
  /** When the upstream last confirmed it (a 304 confirms without a download). */
  readonly validatedAt: Date;
  readonly freshUntil: Date;
  /** When it went stale (= freshUntil); set unless state is 'fresh'. */
  readonly staleSince?: Date;
  /** The ETag, or a hash of the body: changes when the payload changes. */
  readonly version: string;
  /** The size of the body as the upstream sent it (UTF-8 bytes); 0 when an older cache entry did not record it. */
  readonly bytes: number;
  /** With 'stale-if-error': the failure of the refresh. */
  readonly refreshError?: UpstreamError;
  /** The dataset this is a payload of; undefined for a summary answer. */
  readonly dataset: DatasetCode | undefined;
}

export interface UpstreamSourceOptions {
  readonly client: UpstreamClient;
  readonly cache: PayloadCache;
  readonly logger: Logger;
  /** PayloadLifetime lifetime, narrowed by the upstream's max-age (UPSTREAM_CACHE_TTL_S). */
  readonly ttlS: number;
  /** Stale-while-revalidate window after it (UPSTREAM_CACHE_SWR_S). */
  readonly swrS: number;
  /** Stale-if-error window after the lifetime (UPSTREAM_CACHE_STALE_IF_ERROR_S). */
  readonly staleIfErrorS: number;
  /** The clock, in ms since the epoch; default Date.now. */
  readonly now?: () => number;
  /** Told how each read was served, e.g. to count cache hits in metrics. */
  readonly onRead?: (event: PayloadReadEvent) => void;
}

/** How one read was served: `hit` (fresh), `stale`, `stale-if-error`, or `miss` (fetched from the upstream). */
export interface PayloadReadEvent {
  readonly kind: 'dataset' | 'summary';
  readonly result: 'hit' | 'miss' | PayloadState;
}

export interface WarmOptions {
  /** Datasets fetched at once; default 4. */
  readonly concurrency?: number;
}

export interface WarmReport {
  readonly warmed: number;
  readonly failed: readonly DatasetCode[];
  readonly ms: number;
}

/**
 * Spent by a read that is about to call the upstream because nothing usable is cached (a miss), before the call;
 * rejects to refuse the read. Hits, stale reads and background refreshes spend nothing: a caller's distinct
 * fetches cost the upstream, its repeated reads do not.
 */
export type FetchBudget = {
  /** Pays for one upstream call before it is made; rejects (RATE_LIMITED) when the caller's budget is spent. */
  (): Promise<void>;
  /** The bytes the call brought, owed beyond what its payment covered (UPSTREAM_BYTES_PER_TOKEN). */
  readonly downloaded?: (bytes: number) => void;
};

/**
 * The caller's FetchBudget, asked for by a read only when it is about to spend it: a hit, a stale read or a joined
 * flight makes none. Undefined for a caller whose fetches are unbounded.
 */
export type FetchBudgetOf = () => FetchBudget | undefined;

export type DatasetBodyObserver = (code: DatasetCode, answer: UpstreamBody) => void;

/** Upstream payloads through the shared cache: what the per-request loaders read instead of calling the client. */
export interface UpstreamSource {
  /** A dataset with its canonical query string (see query.ts); rejects with an UpstreamError when nothing usable is at hand. */
  readDataset(code: DatasetCode, queryString: string, budget?: FetchBudgetOf): Promise<PayloadRead>;
  /** A summary endpoint's answer to `input`, shared by every caller allowed to ask (the caller checks that). */
  readSummary(endpoint: SummaryEndpointEntry, input: JsonObject, budget?: FetchBudgetOf): Promise<PayloadRead>;
  /** Reads the unfiltered datasets into the cache, a few at a time; logs a summary and never rejects. */
  warm(codes: readonly DatasetCode[], options?: WarmOptions): Promise<WarmReport>;
  breakerState(): BreakerState;
  /**
   * Keeps a body of a dataset's unfiltered payload that was fetched for another purpose (the watcher's pass), as
   * a read that fetched it would have kept it: the next read of it is then a hit, not another upstream call.
   */
  keepDataset(code: DatasetCode, answer: UpstreamBody): Promise<void>;
  /**
   * Tells `observer` of every body of a dataset's unfiltered payload this source downloads (a query's, CACHE_WARM's):
   * the watcher takes its first look at a dataset from it instead of downloading it again.
   */
  observeDatasetBodies(observer: DatasetBodyObserver): void;
  /**
   * Drops every payload of a dataset (all its query strings), so the next read fetches it: after the watcher saw
   * it change. `shared` also deletes the entries other instances read through Redis (one instance does that once);
   * `local` only this process's copies.
   */
  forgetDataset(code: DatasetCode, scope: 'local' | 'shared'): Promise<void>;
  /** Resolves once background refreshes and warm-ups have settled. */
  idle(): Promise<void>;
  /** Starts no more background work and waits for what runs. The client and the cache stay open: their owner closes them. */
  close(): Promise<void>;
}

export const DEFAULT_WARM_CONCURRENCY = 4;
/** Beyond the upstream call's own bound, how long an instance still waits for another's fill. */
const FILL_WAIT_MARGIN_MS = 1_000;

interface Target {
  /** The logical cache key: equal keys mean the same upstream call. */
  readonly key: string;
  readonly dataset: DatasetCode | undefined;
  readonly kind: PayloadReadEvent['kind'];
  readonly label: string;
  fetch(validators: Validators | undefined): Promise<UpstreamAnswer>;
}

/** What the reads of one source share: its client and cache, its windows, and its work in flight. */
interface Source {
  readonly client: UpstreamClient;
  readonly cache: PayloadCache;
  readonly logger: Logger;
  readonly now: () => number;
  readonly policy: PayloadWindows;
  /**
   * How long to wait for another instance's fill before fetching anyway: the client's whole budget, and a margin.
   * A holder that dies frees the key sooner, when its lock's lease runs out (see redis-cache.ts).
   */
  readonly fillWaitMs: number;
  readonly flights: SingleFlight<CachedPayload>;
  readonly background: BackgroundWork;
  readonly onRead: ((event: PayloadReadEvent) => void) | undefined;
  readonly bodyObservers: DatasetBodyObserver[];
}

export function createUpstreamSource(options: UpstreamSourceOptions): UpstreamSource {
  const source: Source = {
    client: options.client,
    cache: options.cache,
    logger: options.logger,
    now: options.now ?? Date.now,
    policy: {
      ttlMs: options.ttlS * 1_000,
      swrMs: options.swrS * 1_000,
      staleIfErrorMs: options.staleIfErrorS * 1_000,
    },
    fillWaitMs: options.client.timeoutMs + FILL_WAIT_MARGIN_MS,
    flights: new SingleFlight<CachedPayload>(),
    background: new BackgroundWork(),
    onRead: options.onRead,
    bodyObservers: [],
  };
  return {
    readDataset: (code, queryString, budget) => read(source, datasetTarget(source, code, queryString), budget),
    readSummary: (endpoint, input, budget) => read(source, summaryTarget(source.client, endpoint, input), budget),
    warm: (codes, { concurrency = DEFAULT_WARM_CONCURRENCY } = {}) =>
      source.background.track(warm(source, codes, concurrency)),
    breakerState: () => source.client.breakerState(),
    keepDataset: (code, answer) => storeBody(source, datasetTarget(source, code, ''), answer).then(() => undefined),
    observeDatasetBodies: (observer) => {
      source.bodyObservers.push(observer);
    },
    forgetDataset: async (code, scope) => {
      const dropped = await source.cache.deletePrefix(datasetKeyPrefix(code), scope);
      source.logger.debug({ dataset: code, scope, dropped }, 'dataset payloads dropped after a change');
    },
    idle: () => source.background.idle(),
    close: () => source.background.close(),
  };
}

/** Background refreshes and warm-ups, so that idle() and close() can wait for them. */
class BackgroundWork {
  private readonly running = new Set<Promise<unknown>>();
  private closing = false;

  /** True once close() was called: no background refresh starts any more. */
  get closed(): boolean {
    return this.closing;
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
    return work;
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.idle();
  }
}

/** What every cache key of a dataset's payloads starts with, whatever its query string. */
function datasetKeyPrefix(code: DatasetCode): string {
  return `dataset:${code}?`;
}

function datasetTarget(source: Source, code: DatasetCode, queryString: string): Target {
  return {
    key: `${datasetKeyPrefix(code)}${queryString}`,
    dataset: code,
    kind: 'dataset',
    label: `dataset ${code}`,
    fetch: async (validators) => {
      const answer = await source.client.getDataset(code, queryString, validators);
      if (queryString === '' && answer.kind === 'body')
        for (const observe of source.bodyObservers) observe(code, answer);
      return answer;
    },
  };
}

function summaryTarget(client: UpstreamClient, endpoint: SummaryEndpointEntry, input: JsonObject): Target {
  return {
    key: `summary:${endpoint.id}:${stableJson(input)}`,
    dataset: undefined,
    kind: 'summary',
    label: `summary endpoint ${endpoint.id}`,
    fetch: () => client.postSummary(endpoint, input),
  };
}

async function read(source: Source, target: Target, budget?: FetchBudgetOf): Promise<PayloadRead> {
  const { payload, fromCache } = await readThrough(source, target, budget);
  const result = !fromCache ? 'miss' : payload.state === 'fresh' ? 'hit' : payload.state;
  source.onRead?.({ kind: target.kind, result });
  return payload;
}

/** The read, and whether it came from the cache rather than from an upstream call made for it. */
async function readThrough(
  source: Source,
  target: Target,
  budget: FetchBudgetOf | undefined,
): Promise<{ payload: PayloadRead; fromCache: boolean }> {
  const { policy } = source;
  const served = (payload: PayloadRead, fromCache: boolean) => ({ payload, fromCache });
  const entry = await cached(source, target.key);
  const at = source.now();
  // Worked out once for the entry at hand: what decides how it is served also dates the read it is served as.
  const lifetime = entry === undefined ? undefined : payloadLifetime(entry.meta, policy);
  if (entry !== undefined && lifetime !== undefined) {
    const { freshUntil, mayServeStale } = lifetime;
    if (at < freshUntil) return served(toRead(entry, target, freshUntil, 'fresh'), true);
    if (mayServeStale && at < freshUntil + policy.swrMs) {
      refreshInBackground(source, target, entry);
      return served(toRead(entry, target, freshUntil, 'stale'), true);
    }
  }
  // Nothing servable at hand: this read calls the upstream on its caller's budget, or joins a call under way (here
  // or, through the shared cache, on another instance) for nothing. Only the read that makes the call pays, so a
  // carrier NAT of app users asking at once for one cold payload spends one fetch of its address's budget, not 150.
  try {
    const fetched = await refreshPaying(source, target, entry, budget);
    return served(toRead(fetched, target, payloadLifetime(fetched.meta, policy).freshUntil, 'fresh'), false);
  } catch (error) {
    if (
      entry === undefined ||
      lifetime === undefined ||
      !(error instanceof UpstreamError) ||
      !servableOnError(lifetime, policy, error, at)
    )
      throw error;
    source.logger.warn(
      { upstream: target.label, code: error.code, fetchedAt: new Date(entry.meta.fetchedAt) },
      'upstream refresh failed: serving the last good payload',
    );
    return served(toRead(entry, target, lifetime.freshUntil, 'stale-if-error', error), true);
  }
}

/** Stale-if-error (RFC 5861): for outages and server errors, not for an upstream that refuses the request. */
function servableOnError(
  { freshUntil, mayServeStale }: PayloadLifetime,
  policy: PayloadWindows,
  error: UpstreamError,
  at: number,
): boolean {
  const status = error.upstreamStatus;
  const serverSide = status === undefined || status >= 500 || status === 429;
  return mayServeStale && serverSide && at < freshUntil + policy.staleIfErrorMs;
}

function refreshInBackground(source: Source, target: Target, entry: CachedPayload): void {
  if (source.background.closed) return;
  void source.background.track(
    refresh(source, target, entry).catch((error: unknown) => {
      source.logger.debug({ upstream: target.label, err: error }, 'background refresh failed: the stale payload stays');
    }),
  );
}

/**
 * refresh() for a read with nothing at hand, on its caller's fetch budget: spent only if this read's flight calls the
 * upstream. A read that joined another caller's flight which that caller's budget refused tries once more on its own
 * budget (its address may have some left), rather than taking another caller's refusal.
 */
async function refreshPaying(
  source: Source,
  target: Target,
  previous: CachedPayload | undefined,
  budgetOf: FetchBudgetOf | undefined,
): Promise<CachedPayload> {
  const budget = previous === undefined ? budgetOf?.() : undefined;
  if (budget === undefined) return refresh(source, target, previous);
  let paid = false;
  const pay: FetchBudget = Object.assign(() => ((paid = true), budget()), { downloaded: budget.downloaded });
  try {
    return await refresh(source, target, previous, pay);
  } catch (error) {
    if (paid || !isBudgetRefusal(error)) throw error;
    return refresh(source, target, previous, budget);
  }
}

const isBudgetRefusal = (error: unknown): boolean => error instanceof CodedError && error.code === CODE.RATE_LIMITED;

/**
 * One refresh per key in this process (single flight), and per key across instances sharing the cache. `budget` is
 * spent by the flight that fetches, just before it calls the upstream: not by those that join it, nor when another
 * instance's fill is found.
 */
function refresh(
  source: Source,
  target: Target,
  previous: CachedPayload | undefined,
  budget?: FetchBudget,
): Promise<CachedPayload> {
  return source.flights.run(target.key, () =>
    fillShared({
      claim: () => claim(source, target.key),
      filled: async () => {
        const entry = await cached(source, target.key);
        const isNew = entry !== undefined && entry.meta.validatedAt !== previous?.meta.validatedAt;
        return isNew ? entry : undefined;
      },
      fetch: async () => {
        await budget?.();
        const fetched = await fetchAndStore(source, target, previous);
        budget?.downloaded?.(fetched.meta.bytes ?? 0);
        return fetched;
      },
      waitMs: source.fillWaitMs,
    }),
  );
}

async function fetchAndStore(
  source: Source,
  target: Target,
  previous: CachedPayload | undefined,
): Promise<CachedPayload> {
  const { cache, policy } = source;
  const answer = await target.fetch(previous === undefined ? undefined : validatorsOf(previous.meta));
  const at = source.now();
  if (answer.kind === 'not-modified') {
    // The client answers "not modified" only to a request with validators, which only a previous entry gives.
    if (previous === undefined) throw new Error(`${target.label}: a 304 to a request without validators`);
    const meta = metaOfNotModified(previous.meta, answer.headers, at);
    const keepMs = Math.ceil(keepForMs(meta, policy, at));
    if (keepMs > 0) await quietly(source, cache.touch(target.key, meta, keepMs), target);
    return { meta, value: previous.value };
  }
  const payload = await storeBody(source, target, answer);
  if (!isStorable(answer.headers) && previous !== undefined) {
    // The upstream now forbids keeping it: what was kept before must not be served any more either.
    await quietly(source, cache.delete(target.key), target);
  }
  return payload;
}

/** Keeps a body just downloaded for as long as its headers and the windows allow; answers it as cached. */
async function storeBody(source: Source, target: Target, answer: UpstreamBody): Promise<CachedPayload> {
  const { cache, policy } = source;
  const at = source.now();
  const payload = { meta: metaOfBody(answer.headers, answer.text, at), value: answer.value, body: answer.text };
  if (isStorable(answer.headers)) {
    const keepMs = Math.ceil(keepForMs(payload.meta, policy, at));
    if (keepMs > 0) await quietly(source, cache.set(target.key, payload, keepMs), target);
  }
  return { meta: payload.meta, value: payload.value };
}

/** The read of an entry fresh until `freshUntilMs` (its payloadLifetime, which the caller has worked out). */
function toRead(
  entry: CachedPayload,
  target: Target,
  freshUntilMs: number,
  state: PayloadState,
  refreshError?: UpstreamError,
): PayloadRead {
  const { meta } = entry;
  const freshUntil = new Date(freshUntilMs);
  return {
    value: entry.value,
    state,
    fetchedAt: new Date(meta.fetchedAt),
    validatedAt: new Date(meta.validatedAt),
    freshUntil,
    version: meta.version,
    bytes: meta.bytes ?? 0,
    dataset: target.dataset,
    ...(state === 'fresh' ? {} : { staleSince: freshUntil }),
    ...(refreshError === undefined ? {} : { refreshError }),
  };
}

// The cache is an optimisation: when it fails (Redis down), reads go to the upstream and the failure is logged.
async function cached({ cache, logger }: Source, key: string): Promise<CachedPayload | undefined> {
  try {
    return await cache.get(key);
  } catch (error) {
    logger.warn({ err: error, cache: cache.kind, key }, 'payload cache read failed');
    return undefined;
  }
}

async function claim({ cache, logger }: Source, key: string): Promise<ReleaseLock | undefined> {
  try {
    return await cache.lock(key);
  } catch (error) {
    logger.warn({ err: error, cache: cache.kind, key }, 'payload cache lock failed: fetching without it');
    return () => Promise.resolve();
  }
}

async function quietly({ cache, logger }: Source, write: Promise<void>, target: Target): Promise<void> {
  try {
    await write;
  } catch (error) {
    logger.warn({ err: error, cache: cache.kind, key: target.key }, 'payload cache write failed');
  }
}

/** Reads the unfiltered datasets, `concurrency` at a time; the report once all have settled. */
function warm(source: Source, codes: readonly DatasetCode[], concurrency: number): Promise<WarmReport> {
  const started = performance.now();
  // cockatiel's bulkhead: at most `concurrency` reads at once, the rest queued in order.
  const gate = bulkhead(Math.max(1, Math.floor(concurrency)), codes.length);
  const reads = codes.map((code) => gate.execute(() => read(source, datasetTarget(source, code, ''))));
  return Promise.allSettled(reads).then((results) => {
    const failed = codes.filter((_code, index) => results[index]?.status !== 'fulfilled');
    const report = { warmed: codes.length - failed.length, failed, ms: Math.round(performance.now() - started) };
    source.logger.info(report, 'upstream cache warmed');
    return report;
  });
}
