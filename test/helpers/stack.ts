import { afterAll, beforeAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print, type ExecutionResult } from 'graphql';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { AccessService } from '../../src/access/model.js';
import { openAccessService } from '../../src/access/service.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createApp, GRAPHQL_PATH, type App } from '../../src/server/app.js';
import { DEFAULT_OPERATION_LIMITS, type HttpConfig, type OperationLimits } from '../../src/config.js';
import { createLogger } from '../../src/server/logger.js';
import { createMetrics, type Metrics } from '../../src/server/metrics.js';
import type { PersistedManifest } from '../../src/server/plugins/use-persisted-operations.js';
import { createRateLimiter } from '../../src/server/rate-limiter.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import type { UpstreamClient } from '../../src/upstream/client.js';
import type { UpstreamSource } from '../../src/upstream/source.js';
import { createUpstream } from '../../src/upstream/upstream.js';

export const TEST_UPSTREAM_KEY = 'test-upstream-key-5f1c2b';
export const TEST_ADMIN_TOKEN = 'test-admin-token-0b8e7c5a9d2f4e61';

export type StoreKind = 'sqlite' | 'postgres';

const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;

/** The stores the access tests run against: SQLite always, PostgreSQL when DATABASE_URL names one (as in CI). */
export const TEST_STORES: readonly StoreKind[] = POSTGRES_URL === undefined ? ['sqlite'] : ['sqlite', 'postgres'];

/** A fresh, empty store: a new SQLite file, or a new PostgreSQL schema that `drop` removes. */
export async function openTestStore(kind: StoreKind): Promise<{ access: AccessService; databaseUrl: string; schema?: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-store-')), 'test.db')}`;
    const access = await openAccessService({ databaseUrl, adminToken: TEST_ADMIN_TOKEN });
    return { access, databaseUrl, drop: () => access.close() };
  }
  if (POSTGRES_URL === undefined) throw new Error('set DATABASE_URL=postgres://… to test against PostgreSQL');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const access = await openAccessService({ databaseUrl: POSTGRES_URL, adminToken: TEST_ADMIN_TOKEN, schema });
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
  /**
   * The cross-request payload cache. Without it nothing is kept between operations (every window 0), so
   * suites that count upstream calls per operation see each one; cache suites pass real windows.
   */
  cache?: { ttlS: number; swrS: number; staleIfErrorS: number; maxMb?: number; redisUrl?: string; keyPrefix?: string; now?: () => number };
  retries?: number;
  breakerCooldownS?: number;
  limits?: Partial<OperationLimits>;
  http?: HttpConfig;
  trustedDocuments?: PersistedManifest;
  /** A rate limit (none unless given); with `redisUrl` its counters and APQ documents live in Redis. */
  rateLimit?: { points: number; windowS: number; trustProxy?: boolean; redisUrl?: string; keyPrefix?: string; now?: () => number };
  /** The response cache's bound in MB (0: off); the app's default unless given. */
  responseCacheMaxMb?: number;
}

/** The real server, in process, against a real simulated upstream on a loopback port. */
export interface Stack {
  readonly app: App;
  readonly simulator: Simulator;
  readonly upstream: UpstreamClient;
  readonly source: UpstreamSource;
  readonly access: AccessService;
  readonly metrics: Metrics;
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
  const metrics = createMetrics();
  const cachePolicy = options.cache ?? { ttlS: 0, swrS: 0, staleIfErrorS: 0 };
  const { client: upstream, source, close: closeUpstream } = createUpstream({
    client: {
      onCall: metrics.upstreamCall,
      baseUrl: options.baseUrl ?? simulator.url,
      apiKey: TEST_UPSTREAM_KEY,
      apiKeyHeader: options.simulator?.apiKeyHeader ?? 'api-key',
      timeoutMs: options.timeoutMs ?? 10_000,
      caPem: options.caPem === null ? undefined : (options.caPem ?? simulator.caCertPem),
      retries: options.retries,
      breakerCooldownS: options.breakerCooldownS,
      logger,
    },
    cache: {
      redisUrl: cachePolicy.redisUrl,
      maxMb: cachePolicy.maxMb ?? 64,
      keyPrefix: cachePolicy.keyPrefix ?? `test:${randomBytes(6).toString('hex')}:`,
    },
    source: { ...cachePolicy, onRead: metrics.payloadRead },
  });
  const store = await openTestStore(options.store ?? 'sqlite');
  const { access } = store;
  const redisUrl = options.rateLimit?.redisUrl;
  const redis = redisUrl === undefined ? undefined : new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  if (redis !== undefined) await new Promise((resolve) => redis.once('ready', resolve));
  const limiter = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit, redis, options.rateLimit.keyPrefix, options.rateLimit.now);
  const app = createApp({
    upstream,
    source,
    cachePolicy,
    access,
    logger,
    metrics,
    redis,
    limits: { ...DEFAULT_OPERATION_LIMITS, ...options.limits },
    http: options.http,
    trustedDocuments: options.trustedDocuments,
    responseCacheMaxMb: options.responseCacheMaxMb,
    rateLimit: limiter === undefined ? undefined : { limiter, trustProxy: options.rateLimit?.trustProxy ?? false },
  });

  const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    Promise.resolve(
      app.fetch(`http://localhost${GRAPHQL_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
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
      await closeUpstream();
      await simulator.close();
      await store.drop();
      await redis?.quit();
    },
  };
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

/** The app on a real loopback socket (port 0), for clients that need one: a browser, graphql-http's audit. */
export async function listen(app: App): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(app.requestListener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
