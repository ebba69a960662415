import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BreakerState } from '../upstream/breaker.js';
import type { UpstreamCallEvent } from '../upstream/client.js';
import type { RedisCommandEvent } from '../upstream/redis-link.js';
import type { PayloadReadEvent } from '../upstream/source.js';
import type { WatchReport } from '../live/watcher.js';
import type { LiveObserver, LiveTopic } from '../live/subscription-hub.js';
import type { OperationNames } from './operation-names.js';
import type { Readiness, ReadinessReport } from './plugins/use-readiness.js';

/**
 * The server's Prometheus metrics beside the GraphQL ones that usePrometheus registers on the same registry:
 * upstream calls, cache reads, the breaker and rate-limit refusals. One registry per app, so tests that build
 * several apps in one process never meet "metric already registered".
 *
 * No label takes a value a caller chooses beyond a bounded set: operation names go through `operationNames`,
 * HTTP methods through `httpLabels`, and nothing of a request's URL, document or variables is ever a label.
 */
export interface Metrics {
  readonly registry: Registry;
  /** The bounded set of operation names shown as labels (and as span names, see tracing.ts). */
  readonly operationNames: OperationNames;
  /** The metrics an operation is counted in whichever path answers it: yoga's (use-metrics.ts) or the hot path. */
  readonly operations: OperationMetrics;
  /** Pass to createUpstreamClient as `onCall`. */
  readonly upstreamCall: (event: UpstreamCallEvent) => void;
  /** Pass to createUpstreamSource as `onRead`. */
  readonly payloadRead: (event: PayloadReadEvent) => void;
  /** Reads the breaker's state at each scrape. */
  watchBreaker(state: () => BreakerState): void;
  /** Runs the readiness checks at each scrape: instance_ready and dependency_up. */
  watchReadiness(readiness: Readiness): void;
  /** Pass to createRedisLink as `onCommand`. */
  readonly redisCommand: (event: RedisCommandEvent) => void;
  rateLimited(callerKind: string): void;
  /** A client registration or a credential refused because its IP spent that budget. */
  ipLimitRefused(limit: 'registration' | 'authentication'): void;
  /** A typed records field answered from a payload whose record keys drifted from schema/shapes.json. */
  shapeDrift(dataset: string): void;
  /** A response-cache lookup missed, hit, or an answer was stored. */
  responseCache(result: 'hit' | 'miss' | 'stored'): void;
  /**
   * An operation answered from the response cache, before yoga: counted in yoga's own request and HTTP-duration
   * metrics too, so dashboards see every operation whichever path answered it.
   */
  operationServed(event: ServedOperation): void;
  /** A client connection was accepted, ended, or dropped at once for being over HTTP_MAX_CONNECTIONS. */
  connection(event: 'opened' | 'closed' | 'dropped'): void;
  /** Subscriptions opened, closed, refused, and the events handed to them (pass to the LiveHub). */
  readonly subscriptions: LiveObserver;
  /** An event this instance published on the event bus (to its own subscribers and, with Redis, to the others'). */
  eventPublished(topic: LiveTopic): void;
  /** A message from Redis that was not a valid event, dropped. */
  eventRejected(): void;
  /** One pass of the watcher, with the changes it found. */
  watcherRun(report: WatchReport): void;
}

export interface ServedOperation {
  readonly operationName: string | undefined;
  readonly method: string;
  readonly status: number;
  readonly seconds: number;
}

export type OperationLabel = 'operationName' | 'operationType';
export type HttpLabel = 'method' | 'statusCode';

/** Registered here rather than by usePrometheus, so the hot path counts into the very same series. */
export interface OperationMetrics {
  /** `graphql_envelop_request`: operations executed. */
  readonly requests: Counter<OperationLabel>;
  /** `graphql_yoga_http_duration`: HTTP requests that carried an operation, until the response. */
  readonly httpDuration: Histogram<HttpLabel>;
}

// The methods GraphQL over HTTP uses; anything else a client sends is `other`.
const METHODS: ReadonlySet<string> = new Set(['GET', 'POST']);

/** The labels of `graphql_yoga_http_duration`: the method (GET or POST, else `other`) and the status. */
export function httpLabels(method: string, status: number): Record<HttpLabel, string> {
  return { method: METHODS.has(method) ? method : 'other', statusCode: String(status) };
}

const BREAKER_STATES: readonly BreakerState[] = ['closed', 'open', 'half-open'];

/** `operationNames` bounds the operation-name labels. */
export function createMetrics(operationNames: OperationNames): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const operations: OperationMetrics = {
    requests: new Counter({
      name: 'graphql_envelop_request',
      help: 'GraphQL operations executed, by operation type and name.',
      labelNames: ['operationType', 'operationName'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'graphql_yoga_http_duration',
      help: 'Time spent on HTTP requests that carried a GraphQL operation, by method and status.',
      labelNames: ['method', 'statusCode'],
      registers: [registry],
    }),
  };
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
  const drift = new Counter({
    name: 'records_shape_drift_total',
    help: 'Typed records answers made from a payload whose record keys no longer match schema/shapes.json, by dataset.',
    labelNames: ['dataset'],
    registers: [registry],
  });
  const openConnections = new Gauge({
    name: 'http_connections_open',
    help: 'Client connections open now (HTTP_MAX_CONNECTIONS bounds them).',
    registers: [registry],
  });
  const droppedConnections = new Counter({
    name: 'http_connections_dropped_total',
    help: 'Client connections closed as soon as they were accepted, the server being at HTTP_MAX_CONNECTIONS.',
    registers: [registry],
  });
  const openSubscriptions = new Gauge({
    name: 'graphql_subscriptions_open',
    help: 'Subscriptions open on this instance, by field.',
    labelNames: ['topic'],
    registers: [registry],
  });
  const subscriptionRefusals = new Counter({
    name: 'graphql_subscriptions_refused_total',
    help: 'Subscriptions refused with SUBSCRIPTION_LIMIT, by the limit reached (caller, total).',
    labelNames: ['limit'],
    registers: [registry],
  });
  const eventsPublished = new Counter({
    name: 'live_events_published_total',
    help: 'Events this instance published (dataset changes it detected, request-for-use transitions made through it).',
    labelNames: ['topic'],
    registers: [registry],
  });
  const eventsDelivered = new Counter({
    name: 'live_events_delivered_total',
    help: 'Events handed to subscriptions on this instance: one per subscription that received it.',
    labelNames: ['topic'],
    registers: [registry],
  });
  const eventsRejected = new Counter({
    name: 'live_events_rejected_total',
    help: 'Messages from Redis pub/sub dropped for not being a valid event.',
    registers: [registry],
  });
  const watcherRuns = new Counter({
    name: 'watcher_runs_total',
    help: 'Passes of the upstream watcher: done, or skipped because another instance holds the lease.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const watcherChanges = new Counter({
    name: 'watcher_changes_total',
    help: 'Upstream dataset changes the watcher detected, by dataset.',
    labelNames: ['dataset'],
    registers: [registry],
  });
  const watcherFailures = new Counter({
    name: 'watcher_check_failures_total',
    help: 'Datasets the watcher could not check (upstream failures), by dataset.',
    labelNames: ['dataset'],
    registers: [registry],
  });
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
  const redisDuration = new Histogram({
    name: 'redis_command_duration_seconds',
    help: 'Duration of the Redis commands of the payload cache, failures included (refused ones take no time).',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  const redisErrors = new Counter({
    name: 'redis_command_errors_total',
    help: "Redis commands that failed (error) or were not sent because Redis's breaker is open (refused).",
    labelNames: ['outcome'],
    registers: [registry],
  });
  let readiness: Readiness | undefined;
  // Both gauges read one report per scrape: prom-client collects metrics one after another.
  let pendingReport: Promise<ReadinessReport> | undefined;
  const report = (): Promise<ReadinessReport> | undefined => {
    pendingReport ??= readiness?.report().finally(() => {
      pendingReport = undefined;
    });
    return pendingReport;
  };
  new Gauge({
    name: 'instance_ready',
    help: 'Whether GET /ready answers 200 (1) or 503 (0).',
    registers: [registry],
    async collect() {
      const current = await report();
      if (current !== undefined) this.set(current.httpStatus === 200 ? 1 : 0);
    },
  });
  new Gauge({
    name: 'dependency_up',
    help: 'Whether each dependency is usable now (1) or not (0), as GET /ready reports it.',
    labelNames: ['dependency'],
    registers: [registry],
    async collect() {
      const current = await report();
      for (const [dependency, check] of Object.entries(current?.checks ?? {}))
        this.set({ dependency }, check.status === 'ok' ? 1 : 0);
    },
  });
  return {
    registry,
    operationNames,
    watchReadiness(watched) {
      readiness = watched;
    },
    redisCommand(event) {
      if (event.outcome !== 'refused') redisDuration.observe(event.ms / 1_000);
      if (event.outcome !== 'ok') redisErrors.inc({ outcome: event.outcome });
    },
    operations,
    upstreamCall: (event) => {
      calls.inc({
        target: event.target,
        method: event.method,
        outcome: event.outcome,
        status: String(event.status ?? 'none'),
      });
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
    shapeDrift(dataset) {
      drift.inc({ dataset });
    },
    responseCache(result) {
      responseCache.inc({ result });
    },
    operationServed(event) {
      // Only queries are stored, so a hit is always one.
      const operation = { operationType: 'query', operationName: operationNames.label(event.operationName) };
      operations.requests.inc(operation);
      operations.httpDuration.observe(httpLabels(event.method, event.status), event.seconds);
    },
    connection(event) {
      if (event === 'opened') openConnections.inc();
      else if (event === 'closed') openConnections.dec();
      else droppedConnections.inc();
    },
    subscriptions: {
      opened: (topic) => openSubscriptions.inc({ topic }),
      closed: (topic) => openSubscriptions.dec({ topic }),
      refused: (limit) => subscriptionRefusals.inc({ limit }),
      delivered: (topic, subscribers) => {
        if (subscribers > 0) eventsDelivered.inc({ topic }, subscribers);
      },
    },
    eventPublished: (topic) => eventsPublished.inc({ topic }),
    eventRejected: () => eventsRejected.inc(),
    watcherRun(report) {
      watcherRuns.inc({ outcome: report.outcome });
      for (const change of report.changes) watcherChanges.inc({ dataset: change.dataset });
      for (const dataset of report.failed) watcherFailures.inc({ dataset });
    },
  };
}
