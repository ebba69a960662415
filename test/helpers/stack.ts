import { afterAll, beforeAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print, type ExecutionResult } from 'graphql';
import pg from 'pg';
import type { AccessService } from '../../src/access/model.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { App } from '../../src/server/app.js';
import type { HttpServerLimits } from '../../src/server/transport/http-server.js';
import type {
  BucketConfig,
  Config,
  ConnectionLimits,
  HttpConfig,
  KeyPolicy,
  LiveConfig,
  OperationLimits,
} from '../../src/config.js';
import type { Live } from '../../src/server/assemble.js';
import type { Metrics } from '../../src/server/observability/metrics.js';
import type { PersistedManifest } from '../../src/server/operations/use-persisted-operations.js';
import type { ReadinessCheck } from '../../src/server/observability/use-readiness.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import type { UpstreamClient } from '../../src/upstream/client.js';
import type { UpstreamSource } from '../../src/upstream/source.js';
import { listenOnLoopback } from './loopback-server.js';
import { loadServerKit } from './server-kit.js';
import { DEFAULTS, STORE_SETTINGS } from './settings.js';

/**
 * The server these stacks run: the production bundle's in the `build` project, `src/` in the others
 * (server-kit.ts).
 */
const { assemble, connectionsPerPeer, createHttpServer, createLogger, GRAPHQL_PATH, loadConfig, openAccessService } =
  await loadServerKit();

export const TEST_UPSTREAM_KEY = 'test-upstream-key-5f1c2b';
export const TEST_ADMIN_TOKEN = 'test-admin-token-0b8e7c5a9d2f4e61';

export type StoreKind = 'sqlite' | 'postgres';

const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;

/** The stores the access tests run against: SQLite always, PostgreSQL when DATABASE_URL names one (as in CI). */
export const TEST_STORES: readonly StoreKind[] = POSTGRES_URL === undefined ? ['sqlite'] : ['sqlite', 'postgres'];

/** A fresh, empty store: a new SQLite file, or a new PostgreSQL schema that `drop` removes. */
export async function openTestStore(
  kind: StoreKind,
  options: { now?: () => Date; keys?: KeyPolicy; adminTokens?: readonly { name: string; token: string }[] } = {},
): Promise<{ access: AccessService; databaseUrl: string; schema?: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-store-')), 'test.db')}`;
    const access = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl,
      adminToken: TEST_ADMIN_TOKEN,
      ...options,
    });
    return { access, databaseUrl, drop: () => access.close() };
  }
  if (POSTGRES_URL === undefined) throw new Error('set DATABASE_URL=postgres://… to test against PostgreSQL');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const access = await openAccessService({
    ...STORE_SETTINGS,
    databaseUrl: POSTGRES_URL,
    adminToken: TEST_ADMIN_TOKEN,
    schema,
    ...options,
  });
  return {
    access,
    databaseUrl: POSTGRES_URL,
    schema,
    async drop() {
      await access.close();
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

export interface StackOptions {
  simulator?: SimulatorOptions;
  timeoutMs?: number;
  /** Point the client somewhere else than the simulator (e.g. a closed port). */
  baseUrl?: string;
  /** The CA the client trusts; defaults to the simulator's own, `null` trusts only the system's CAs. */
  caPem?: string | null;
  /** Which store holds requests for use; SQLite unless told. */
  store?: StoreKind;
  /** The store's clock (key grace periods, idempotency windows, timestamps) and key bounds; the defaults unless given. */
  access?: { now?: () => Date; keys?: KeyPolicy };
  /** Named operators (ADMIN_TOKENS) beside the test ADMIN_TOKEN; none unless given. */
  adminTokens?: readonly { name: string; token: string }[];
  /** A store shared with another stack (as instances share PostgreSQL); this stack then neither opens nor closes one. */
  sharedAccess?: AccessService;
  /** Another stack's upstream client and source (one upstream cache for both); this stack then neither makes nor closes one. */
  sharedUpstream?: Pick<Stack, 'upstream' | 'source'>;
  /** Checks for /ready besides the store's and the upstream's. */
  readinessChecks?: readonly ReadinessCheck[];
  /** The instance's wall clock as the clock-skew measurement reads it (Date.now unless given). */
  wallClock?: () => number;
  /**
   * The cross-request payload cache. Without it nothing is kept between operations (every window 0), so
   * suites that count upstream calls per operation see each one; cache suites pass real windows.
   */
  cache?: {
    ttlS: number;
    swrS: number;
    staleIfErrorS: number;
    maxMb?: number;
    /** With Redis: the bound on the payload bytes kept in it; the server's default unless given. */
    sharedMaxMb?: number;
    redisUrl?: string;
    /** Prefix of every Redis key and channel: a fresh one unless given; null: the server's own (REDIS_KEY_PREFIX's default). */
    keyPrefix?: string | null;
    /** With Redis: the fill lock's lease; the server's default unless given. */
    lockLeaseMs?: number;
    now?: () => number;
  };
  retries?: number;
  breakerCooldownS?: number;
  /** UPSTREAM_MAX_BODY_MB; the default unless given. */
  upstreamMaxBodyMb?: number;
  limits?: Partial<OperationLimits>;
  /** Merged over the defaults of the settings. */
  http?: Partial<HttpConfig>;
  /** Merged over the defaults of the settings (what the app reads of them: WebSocket idleness). */
  connections?: Partial<ConnectionLimits>;
  trustedDocuments?: PersistedManifest;
  /**
   * A rate limit (none unless given; `points: 0` for none with the per-IP budgets on), and the per-IP budgets of
   * client registrations and failed authentications (none unless given); with `redisUrl` their counters and APQ
   * documents live in Redis.
   */
  rateLimit?: {
    points: number;
    windowS: number;
    trustProxy?: boolean;
    redisUrl?: string;
    keyPrefix?: string;
    registration?: BucketConfig;
    /** Each caller's budget of cache misses sent to the upstream. */
    upstreamFetches?: BucketConfig;
    authenticationFailures?: BucketConfig;
    /** The limiters' clock (the in-memory buckets'; Redis's scripts read Redis's own time). */
    now?: () => number;
  };
  /** The bound on APQ documents, in MB; the default unless given. */
  apqMaxMb?: number;
  /** The response cache's bound in MB (0: off); the app's default unless given. */
  responseCacheMaxMb?: number;
  /** RESPONSE_CACHE_MIN_USES: the app's default (2) unless given; 1 when one request should prime the cache. */
  responseCacheMinUses?: number;
  /**
   * The Accept-Language that `execute` and `post` send unless told otherwise: none (so Thai) unless given. Suites
   * that check the English wording of messages ask for English, as a client would.
   */
  acceptLanguage?: string;
  /** The watcher (off unless given: WATCH_INTERVAL_S 0) and the subscription limits (the defaults unless given). */
  live?: Partial<Omit<LiveConfig, 'subscriptions'>> & { subscriptions?: Partial<LiveConfig['subscriptions']> };
}

/** The real server, in process, against a real simulated upstream on a loopback port. */
export interface Stack {
  readonly app: App;
  readonly simulator: Simulator;
  readonly upstream: UpstreamClient;
  readonly source: UpstreamSource;
  readonly access: AccessService;
  readonly metrics: Metrics;
  readonly live: Live;
  /** Every log line the server wrote, parsed. */
  readonly logLines: Record<string, unknown>[];
  /** The raw text of every log line, for "the key never appears" checks. */
  logText(): string;
  /** POSTs one GraphQL operation through the app's fetch handler. */
  execute<Result, Variables>(
    document: TypedDocumentNode<Result, Variables>,
    variables?: Variables,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: ExecutionResult<Result>; text: string; response: Response }>;
  /** POSTs a raw GraphQL request body. */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const simulator = await startSimulator({ apiKey: TEST_UPSTREAM_KEY, ...options.simulator });
  const rawLines: string[] = [];
  const logger = createLogger('debug', { write: (line: string) => void rawLines.push(line) });
  const store =
    options.sharedAccess === undefined
      ? await openTestStore(options.store ?? 'sqlite', { ...options.access, adminTokens: options.adminTokens })
      : { access: options.sharedAccess, drop: () => Promise.resolve() };
  const { config, redisKeyPrefix } = testConfig(options, simulator);
  const server = await assemble(config, {
    logger,
    access: store.access,
    trustedDocuments: options.trustedDocuments,
    redisKeyPrefix,
    now: options.cache?.now ?? options.rateLimit?.now,
    upstream:
      options.sharedUpstream === undefined
        ? undefined
        : { client: options.sharedUpstream.upstream, source: options.sharedUpstream.source },
    readinessChecks: options.readinessChecks,
    wallClock: options.wallClock,
  });
  const { app, upstream, source, access, metrics, live } = server;

  const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    Promise.resolve(
      app.fetch(`http://localhost${GRAPHQL_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
          ...(options.acceptLanguage === undefined ? {} : { 'accept-language': options.acceptLanguage }),
          ...headers,
        },
        body: JSON.stringify(body),
      }),
    );

  return {
    app,
    simulator,
    upstream,
    source,
    access,
    metrics,
    live,
    get logLines() {
      return rawLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => rawLines.join(''),
    execute: async <Result, Variables>(
      document: TypedDocumentNode<Result, Variables>,
      variables?: Variables,
      headers?: Record<string, string>,
    ) => {
      const response = await post({ query: print(document), variables }, headers);
      const text = await response.text();
      return { status: response.status, body: JSON.parse(text) as ExecutionResult<Result>, text, response };
    },
    post,
    async close() {
      await server.close();
      await simulator.close();
      await store.drop();
    },
  };
}

/**
 * The configuration a stack runs with: the defaults of an empty environment, pointed at the test simulator,
 * with nothing kept between operations and no rate limit unless the options ask for them.
 */
const OFF: BucketConfig = { points: 0, windowS: 60 };

function testConfig(
  options: StackOptions,
  simulator: Simulator,
): { config: Config; redisKeyPrefix: string | undefined } {
  const defaults = loadConfig({});
  if (!defaults.ok) throw new Error(defaults.problems.join('; '));
  const base = defaults.config;
  const cache = options.cache ?? { ttlS: 0, swrS: 0, staleIfErrorS: 0 };
  const redisUrl = cache.redisUrl ?? options.rateLimit?.redisUrl;
  const config: Config = {
    ...base,
    adminToken: TEST_ADMIN_TOKEN,
    adminTokens: options.adminTokens === undefined ? undefined : [...options.adminTokens],
    upstream: {
      ...base.upstream,
      baseUrl: options.baseUrl ?? simulator.url,
      apiKey: TEST_UPSTREAM_KEY,
      apiKeyHeader: options.simulator?.apiKeyHeader ?? 'api-key',
      // The server's own default: under a loaded CI machine a tighter budget fails tests that expect success.
      timeoutMs: options.timeoutMs ?? 10_000,
      caPem: options.caPem === null ? undefined : (options.caPem ?? simulator.caCertPem),
      retries: options.retries ?? base.upstream.retries,
      breakerCooldownS: options.breakerCooldownS ?? base.upstream.breakerCooldownS,
      maxBodyMb: options.upstreamMaxBodyMb ?? base.upstream.maxBodyMb,
    },
    cache: {
      ...base.cache,
      ttlS: cache.ttlS,
      swrS: cache.swrS,
      staleIfErrorS: cache.staleIfErrorS,
      maxMb: cache.maxMb ?? 64,
      sharedMaxMb: cache.sharedMaxMb ?? base.cache.sharedMaxMb,
      responseMaxMb: options.responseCacheMaxMb ?? base.cache.responseMaxMb,
      responseMinUses: options.responseCacheMinUses ?? base.cache.responseMinUses,
      redisUrl,
      lockLeaseMs: cache.lockLeaseMs ?? base.cache.lockLeaseMs,
    },
    limits: { ...DEFAULTS.limits, ...options.limits },
    http: { ...DEFAULTS.http, ...options.http },
    connections: { ...base.connections, ...options.connections },
    persistedOperations: {
      ...base.persistedOperations,
      apqMaxMb: options.apqMaxMb ?? base.persistedOperations.apqMaxMb,
    },
    rateLimit: {
      points: options.rateLimit?.points ?? 0,
      windowS: options.rateLimit?.windowS ?? base.rateLimit.windowS,
      trustProxy: options.rateLimit?.trustProxy ?? false,
      registration: options.rateLimit?.registration ?? OFF,
      upstreamFetches: options.rateLimit?.upstreamFetches ?? OFF,
      authenticationFailures: options.rateLimit?.authenticationFailures ?? OFF,
    },
    live: {
      ...base.live,
      watchIntervalS: 0,
      ...options.live,
      subscriptions: { ...base.live.subscriptions, ...options.live?.subscriptions },
    },
  };
  const given = options.rateLimit?.keyPrefix ?? cache.keyPrefix;
  const redisKeyPrefix = given === null ? undefined : (given ?? `test:${randomBytes(6).toString('hex')}:`);
  return { config, redisKeyPrefix };
}

/**
 * Starts a stack before the enclosing suite's tests and closes it after them; returns a getter, since the
 * stack exists only once `beforeAll` has run.
 */
export function useStack(options: StackOptions = {}): () => Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack(options);
  });
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (stack === undefined) throw new Error('the stack starts in beforeAll: use it inside a test');
    return stack;
  };
}

/**
 * The app on a real loopback socket (port 0), for clients that need one: a browser, graphql-http's audit. The
 * server is main.ts's, with the default connection limits unless given.
 */
export async function listen(
  app: App,
  options: { limits?: Partial<HttpServerLimits>; metrics?: Metrics } = {},
): Promise<{ origin: string; port: number; server: Server; close(): Promise<void> }> {
  const server = createHttpServer(
    app,
    { ...DEFAULTS.connections, maxConnectionsPerPeer: connectionsPerPeer(DEFAULTS), ...options.limits },
    options.metrics,
  );
  return { ...(await listenOnLoopback(server)), server };
}

/** A stack on a real loopback socket for the enclosing suite: started in `beforeAll`, closed in `afterAll`. */
export function useListeningStack(options: StackOptions = {}): () => { stack: Stack; origin: string; port: number } {
  let started: { stack: Stack; server: Awaited<ReturnType<typeof listen>> } | undefined;
  beforeAll(async () => {
    const stack = await startStack(options);
    started = { stack, server: await listen(stack.app) };
  });
  afterAll(async () => {
    await started?.server.close();
    await started?.stack.close();
  });
  return () => {
    if (started === undefined) throw new Error('the stack starts in beforeAll: use it inside a test');
    return { stack: started.stack, origin: started.server.origin, port: started.server.port };
  };
}
