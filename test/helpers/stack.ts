import { afterAll, beforeAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print, type ExecutionResult } from 'graphql';
import pg from 'pg';
import type { AccessService } from '../../src/access/model.js';
import { openAccessService } from '../../src/access/service.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createApp, GRAPHQL_PATH, type App } from '../../src/app.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import { createPayloadCache } from '../../src/upstream/cache.js';
import { createUpstreamClient, type UpstreamClient } from '../../src/upstream/client.js';
import { createUpstreamSource, type UpstreamSource } from '../../src/upstream/source.js';

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
}

/** The real server, in process, against a real simulated upstream on a loopback port. */
export interface Stack {
  readonly app: App;
  readonly simulator: Simulator;
  readonly upstream: UpstreamClient;
  readonly source: UpstreamSource;
  readonly access: AccessService;
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
  const upstream = createUpstreamClient({
    baseUrl: options.baseUrl ?? simulator.url,
    apiKey: TEST_UPSTREAM_KEY,
    apiKeyHeader: options.simulator?.apiKeyHeader ?? 'api-key',
    timeoutMs: options.timeoutMs ?? 2_000,
    caPem: options.caPem === null ? undefined : (options.caPem ?? simulator.caCertPem),
    retries: options.retries,
    breakerCooldownS: options.breakerCooldownS,
    logger,
  });
  const cachePolicy = options.cache ?? { ttlS: 0, swrS: 0, staleIfErrorS: 0 };
  const cache = createPayloadCache({
    redisUrl: cachePolicy.redisUrl,
    maxMb: cachePolicy.maxMb ?? 64,
    keyPrefix: cachePolicy.keyPrefix ?? `test:${randomBytes(6).toString('hex')}:`,
    logger,
  });
  const source = createUpstreamSource({ client: upstream, cache, logger, ...cachePolicy });
  const store = await openTestStore(options.store ?? 'sqlite');
  const { access } = store;
  const app = createApp({ upstream, source, cachePolicy, access, logger });

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
      await source.close();
      await cache.close();
      await upstream.close();
      await simulator.close();
      await store.drop();
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
