import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BreakerState } from '../../upstream/breaker.js';
import type { UpstreamCallEvent } from '../../upstream/client.js';
import type { RedisCommandEvent as RedisLinkEvent } from '../../upstream/redis-link.js';
import type { PayloadReadEvent } from '../../upstream/source.js';
import type { WatchReport } from '../../live/watcher.js';
import type { RedisCommandEvent } from '../../upstream/redis-commands.js';
import type { PoolConnections, StoreObserver } from '../../access/database.js';
import type { LiveObserver, LiveTopic } from '../../live/subscription-hub.js';
import type { OperationNames } from './operation-names.js';
import { isErrorCode } from '../../errors/registry.js';
import type { BuildInfo } from './build-info.js';
import type { Readiness, ReadinessReport } from './use-readiness.js';
import type { ClockReference } from './clock-skew.js';

/**
 * The server's Prometheus metrics beside the GraphQL ones that useMetrics registers on the same registry:
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
  /** Pass to createRedisLink as `onCommand`: counts the commands its breaker refused without sending them. */
  readonly redisLinkCommand: (event: RedisLinkEvent) => void;
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
  /**
   * A client connection was accepted, ended, or dropped at once for being over HTTP_MAX_CONNECTIONS (or its address
   * over HTTP_MAX_CONNECTIONS_PER_IP).
   */
  connection(event: 'opened' | 'closed' | 'dropped'): void;
  /** A graphql-ws socket was accepted (after its upgrade) or ended. */
  webSocketConnection(event: 'opened' | 'closed'): void;
  /** A graphql-ws message a client sent, or one the server sent (`next`, `error`, `complete`). */
  webSocketMessage(direction: 'received' | 'sent'): void;
  /** An operation that reached execution, by the client library its `extensions.clientLibrary` names (clientLibraryLabel). */
  clientLibraryOperation(library: string): void;
  /** Subscriptions opened, closed, refused, and the events handed to them (pass to the LiveHub). */
  readonly subscriptions: LiveObserver;
  /** An event this instance published on the event bus (to its own subscribers and, with Redis, to the others'). */
  eventPublished(topic: LiveTopic): void;
  /** A message from Redis that was not a valid event, dropped. */
  eventRejected(): void;
  /** One pass of the watcher, with the changes it found. */
  watcherRun(report: WatchReport): void;
  /** An executed operation (or one answered from the response cache): its duration and its errors' codes. */
  operationDone(event: DoneOperation): void;
  /** An HTTP request answered (or abandoned: status 0), whatever answered it, counted once. */
  httpRequest(method: string, status: number): void;
  /** A Redis command's round trip, ok or failed (pass to observeRedisCommands). */
  readonly redisCommand: (event: RedisCommandEvent) => void;
  /** Failed statements of the request-for-use store, and its PostgreSQL pool (pass to openAccessService). */
  readonly store: StoreObserver;
  /** An entry of an upstream payload cache was pushed out by its byte bound. */
  readonly cacheEviction: () => void;
  /** Whether the embedded simulator serves this instance's data (`upstream_simulated`). */
  upstreamSimulated(serving: boolean): void;
  /** Reads, at each scrape, what is held now: bytes of answers in flight, the payload cache's bytes. */
  watchHeld(held: HeldReaders): void;
  /** This instance's clock minus the store's or Redis's (clock-skew.ts); undefined drops the series (unknown). */
  clockSkew(against: ClockReference, skewS: number | undefined): void;
}

export interface DoneOperation {
  readonly operationName: string | undefined;
  /** query, mutation or subscription; anything else is `unknown`. */
  readonly kind: string | undefined;
  readonly seconds: number;
  /** The codes of its result's errors, as the client sees them (one count each). */
  readonly errorCodes: readonly string[];
}

/** What the gauges read at a scrape; each reads 0 until given. */
export interface HeldReaders {
  readonly responseBytesInFlight?: () => number;
  /** Bytes of upstream payloads held in this process's memory (the payload cache, or Redis's parsed copies). */
  readonly localCacheBytes?: () => number;
}

export interface ServedOperation {
  readonly operationName: string | undefined;
  readonly method: string;
  readonly status: number;
  readonly seconds: number;
}

export type OperationLabel = 'operationName' | 'operationType';
export type HttpLabel = 'method' | 'statusCode';

/** Registered here rather than by useMetrics, so the hot path counts into the very same series. */
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
const OPERATION_KINDS: ReadonlySet<string> = new Set(['query', 'mutation', 'subscription']);
const REQUEST_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'HEAD', 'OPTIONS']);
// Latency buckets for operations, few because each is a line per operation name and kind (up to 200 series): a hit
// from the response cache is under 5 ms, a cold payload of the largest dataset several seconds.
const OPERATION_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 10];
const REDIS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2];
const POOL_STATES = ['active', 'idle', 'waiting'] as const;

// The labels that carry an operation name: envelop's and yoga's, and this server's own.
const OPERATION_LABELS = ['operationName', 'operation'] as const;

/** Drops every series labelled with an operation name that lost its place (see OperationNames), so /metrics stays bounded. */
async function dropOperationSeries(registry: Registry, name: string): Promise<void> {
  for (const { name: metricName } of registry.getMetricsAsArray()) {
    const metric = registry.getSingleMetric(metricName);
    if (metric === undefined) continue;
    const dropped = new Set<string>();
    for (const { labels } of (await metric.get()).values) {
      if (!OPERATION_LABELS.some((label) => labels[label] === name)) continue;
      // A histogram's buckets and a summary's quantiles are parts of one series, removed by its own labels.
      const series = Object.fromEntries(Object.entries(labels).filter(([key]) => key !== 'le' && key !== 'quantile'));
      const key = JSON.stringify(series);
      if (dropped.has(key)) continue;
      dropped.add(key);
      metric.remove(series);
    }
  }
}

/** The label of an error code: a code the registry declares, else `other` (a label set stays bounded). */
export function errorCodeLabel(code: string): string {
  return isErrorCode(code) ? code : 'other';
}

/** `operationNames` bounds the operation-name labels; `build` is shown as `build_info`. */
export function createMetrics(operationNames: OperationNames, build?: BuildInfo): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  operationNames.onExpired((name) => void dropOperationSeries(registry, name));
  if (build !== undefined) {
    new Gauge({
      name: 'build_info',
      help: 'Always 1: the version and commit of this build and the Node.js that runs it, as labels.',
      labelNames: ['version', 'commit', 'node'],
      registers: [registry],
    }).set({ version: build.version, commit: build.commit, node: process.version }, 1);
  }
  let held: HeldReaders = {};
  const simulated = new Gauge({
    name: 'upstream_simulated',
    help: "1 when this instance's data comes from the embedded simulator (sample data, not the ministry's), else 0.",
    registers: [registry],
  });
  let storePool: (() => PoolConnections) | undefined;
  const operationDuration = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'Time from the start of execution to the result (or from arrival to answer for a response-cache hit), by operation name and kind.',
    labelNames: ['operation', 'kind'],
    buckets: OPERATION_BUCKETS,
    registers: [registry],
  });
  const operationErrors = new Counter({
    name: 'graphql_operation_errors_total',
    help: 'Errors in the results of executed operations, by operation name and code.',
    labelNames: ['operation', 'code'],
    registers: [registry],
  });
  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method and status (0: the client went away first), whatever answered them.',
    labelNames: ['method', 'status'],
    registers: [registry],
  });
  const redisDuration = new Histogram({
    name: 'redis_command_duration_seconds',
    help: 'Round trip of Redis commands (caches, rate limits, APQ, leases, events), by command.',
    labelNames: ['command'],
    buckets: REDIS_BUCKETS,
    registers: [registry],
  });
  const redisErrors = new Counter({
    name: 'redis_command_errors_total',
    help: "Redis commands that failed (outcome error: an error reply, a time-out, no connection) or were not sent because Redis's breaker is open (outcome refused), by command.",
    labelNames: ['command', 'outcome'],
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: 'store_errors_total',
    help: 'Statements of the request-for-use store that failed in the driver (unreachable, time-out, lock wait).',
    registers: [registry],
  });
  const cacheEvictions = new Counter({
    name: 'upstream_cache_evictions_total',
    help: "Upstream payloads pushed out of this process's memory by UPSTREAM_CACHE_MAX_MB before their time.",
    registers: [registry],
  });
  new Gauge({
    name: 'response_bytes_in_flight',
    help: 'Upstream body bytes held by answers being executed, serialised and sent now (RESPONSE_IN_FLIGHT_MAX_MB bounds them).',
    registers: [registry],
    collect() {
      this.set(held.responseBytesInFlight?.() ?? 0);
    },
  });
  new Gauge({
    name: 'upstream_cache_bytes',
    help: "Bytes of upstream payloads cached, by tier: local is this process's memory (UPSTREAM_CACHE_MAX_MB bounds it).",
    labelNames: ['tier'],
    registers: [registry],
    collect() {
      if (held.localCacheBytes !== undefined) this.set({ tier: 'local' }, held.localCacheBytes());
    },
  });
  new Gauge({
    name: 'store_pool_connections',
    help: 'Connections of the PostgreSQL pool by state: active (running a statement), idle, waiting (callers queued for one).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = storePool?.();
      if (pool !== undefined) for (const state of POOL_STATES) this.set({ state }, pool[state]);
    },
  });
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
    help: 'Client connections closed as soon as they were accepted: the server at HTTP_MAX_CONNECTIONS, or their address at HTTP_MAX_CONNECTIONS_PER_IP.',
    registers: [registry],
  });
  const openWebSockets = new Gauge({
    name: 'graphql_ws_connections_open',
    help: 'graphql-ws sockets open now (each also counts in http_connections_open).',
    registers: [registry],
  });
  const clientLibraryOperations = new Counter({
    name: 'graphql_client_library_operations_total',
    help: "Operations executed, by the client library their request's extensions.clientLibrary names (Apollo's clients send it).",
    labelNames: ['library'],
    registers: [registry],
  });
  const webSocketMessages = new Counter({
    name: 'graphql_ws_messages_total',
    help: 'graphql-ws messages, by direction (received from clients; sent: next, error, complete).',
    labelNames: ['direction'],
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
  const clockSkew = new Gauge({
    name: 'clock_skew_seconds',
    help: "This instance's clock minus the store's (PostgreSQL) or Redis's, measured every minute over a round trip halved: positive when this instance is ahead. No series while it cannot be measured (SQLite, a reference that is down).",
    labelNames: ['against'],
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
    // Sent commands are timed and counted by redisCommand, on every connection; only the refused ones are the link's.
    redisLinkCommand(event) {
      if (event.outcome === 'refused') redisErrors.inc({ command: 'payload-cache', outcome: 'refused' });
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
      operationDuration.observe({ operation: operation.operationName, kind: 'query' }, event.seconds);
    },
    connection(event) {
      if (event === 'opened') openConnections.inc();
      else if (event === 'closed') openConnections.dec();
      else droppedConnections.inc();
    },
    webSocketConnection(event) {
      if (event === 'opened') openWebSockets.inc();
      else openWebSockets.dec();
    },
    webSocketMessage: (direction) => webSocketMessages.inc({ direction }),
    clientLibraryOperation: (library) => clientLibraryOperations.inc({ library }),
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
    operationDone(event) {
      const operation = operationNames.label(event.operationName);
      const kind = event.kind !== undefined && OPERATION_KINDS.has(event.kind) ? event.kind : 'unknown';
      operationDuration.observe({ operation, kind }, event.seconds);
      for (const code of event.errorCodes) operationErrors.inc({ operation, code: errorCodeLabel(code) });
    },
    httpRequest(method, status) {
      httpRequests.inc({ method: REQUEST_METHODS.has(method) ? method : 'other', status: String(status) });
    },
    redisCommand(event) {
      redisDuration.observe({ command: event.command }, event.seconds);
      if (event.failed) redisErrors.inc({ command: event.command, outcome: 'error' });
    },
    store: {
      statementFailed: () => storeErrors.inc(),
      watchPool(read) {
        storePool = read;
      },
    },
    cacheEviction: () => cacheEvictions.inc(),
    upstreamSimulated: (serving) => simulated.set(serving ? 1 : 0),
    watchHeld(readers) {
      held = { ...held, ...readers };
    },
    clockSkew(against, skewS) {
      if (skewS === undefined) clockSkew.remove({ against });
      else clockSkew.set({ against }, skewS);
    },
  };
}

/**
 * The client libraries named as a label as they are; any other name is `other` and a request without one `none`, so
 * that what a client writes cannot grow the series. Apollo Kotlin, Apollo iOS and Apollo Client send
 * `extensions.clientLibrary: { name, version }`.
 */
const CLIENT_LIBRARIES = new Set(['apollo-kotlin', 'apollo-ios', '@apollo/client', 'apollo-android']);

/** The `library` label of an operation's request extensions. */
export function clientLibraryLabel(extensions: unknown): string {
  const library = (extensions as { clientLibrary?: { name?: unknown } } | null | undefined)?.clientLibrary;
  if (library === undefined) return 'none';
  return typeof library.name === 'string' && CLIENT_LIBRARIES.has(library.name) ? library.name : 'other';
}
