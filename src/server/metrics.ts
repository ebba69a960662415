import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BreakerState } from '../upstream/breaker.js';
import type { UpstreamCallEvent } from '../upstream/client.js';
import type { PayloadReadEvent } from '../upstream/source.js';

/**
 * The server's Prometheus metrics beside the GraphQL ones that usePrometheus registers on the same registry:
 * upstream calls, cache reads, the breaker and rate-limit refusals. One registry per app, so tests that build
 * several apps in one process never meet "metric already registered".
 */
export interface Metrics {
  readonly registry: Registry;
  /** Pass to createUpstreamClient as `onCall`. */
  readonly upstreamCall: (event: UpstreamCallEvent) => void;
  /** Pass to createUpstreamSource as `onRead`. */
  readonly payloadRead: (event: PayloadReadEvent) => void;
  /** Reads the breaker's state at each scrape. */
  watchBreaker(state: () => BreakerState): void;
  rateLimited(callerKind: string): void;
  /** A client registration or a credential refused because its IP spent that budget. */
  ipLimitRefused(limit: 'registration' | 'authentication'): void;
  /** A response-cache lookup missed, hit, or an answer was stored. */
  responseCache(result: 'hit' | 'miss' | 'stored'): void;
  /**
   * An operation answered from the response cache, before yoga: counted in yoga's own request and HTTP-duration
   * metrics too, so dashboards see every operation whichever path answered it.
   */
  operationServed(event: ServedOperation): void;
}

export interface ServedOperation {
  readonly operationName: string | undefined;
  readonly method: string;
  readonly status: number;
  readonly url: string;
  readonly seconds: number;
}

const BREAKER_STATES: readonly BreakerState[] = ['closed', 'open', 'half-open'];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: 'upstream_calls_total',
    help: 'Upstream calls by dataset (or summary endpoint), outcome and last HTTP status.',
    labelNames: ['target', 'method', 'outcome', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'upstream_call_duration_seconds',
    help: 'Duration of upstream calls, retries included.',
    labelNames: ['target', 'method'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const reads = new Counter({
    name: 'upstream_cache_reads_total',
    help: 'Payload reads through the cache: hit (fresh), miss (fetched), stale, stale-if-error.',
    labelNames: ['kind', 'result'],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'rate_limited_total',
    help: 'Operations refused with RATE_LIMITED, by caller kind.',
    labelNames: ['caller'],
    registers: [registry],
  });
  const ipRefusals = new Counter({
    name: 'ip_limit_refusals_total',
    help: 'Client registrations and credentials refused with RATE_LIMITED because their IP spent that budget.',
    labelNames: ['limit'],
    registers: [registry],
  });
  const responseCache = new Counter({
    name: 'graphql_response_cache_total',
    help: 'Response-cache lookups by anonymous queries (hit, miss) and answers stored.',
    labelNames: ['result'],
    registers: [registry],
  });
  // Registered by usePrometheus on the same registry once the app is built; looked up on the first hit.
  let yogaMetrics: { requests: Counter | undefined; http: Histogram | undefined } | undefined;
  const resolveYogaMetrics = () => {
    const requests = registry.getSingleMetric('graphql_envelop_request');
    const http = registry.getSingleMetric('graphql_yoga_http_duration');
    return { requests: requests instanceof Counter ? requests : undefined, http: http instanceof Histogram ? http : undefined };
  };
  let breakerState: (() => BreakerState) | undefined;
  new Gauge({
    name: 'upstream_breaker_state',
    help: 'The upstream circuit breaker: 1 for its current state, 0 for the others.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (breakerState === undefined) return;
      const current = breakerState();
      for (const state of BREAKER_STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  return {
    registry,
    upstreamCall: (event) => {
      calls.inc({ target: event.target, method: event.method, outcome: event.outcome, status: String(event.status ?? 'none') });
      latency.observe({ target: event.target, method: event.method }, event.ms / 1_000);
    },
    payloadRead: (event) => {
      reads.inc({ kind: event.kind, result: event.result });
    },
    watchBreaker(state) {
      breakerState = state;
    },
    rateLimited(callerKind) {
      refusals.inc({ caller: callerKind });
    },
    ipLimitRefused(limit) {
      ipRefusals.inc({ limit });
    },
    responseCache(result) {
      responseCache.inc({ result });
    },
    operationServed(event) {
      yogaMetrics ??= resolveYogaMetrics();
      const operation = { operationType: 'query', operationName: event.operationName ?? 'Anonymous' };
      yogaMetrics.requests?.inc(operation);
      yogaMetrics.http?.observe({ ...operation, method: event.method, statusCode: event.status, url: event.url }, event.seconds);
    },
  };
}
