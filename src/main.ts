import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { describeDatabaseUrl } from './access/database.js';
import { openAccessService } from './access/service.js';
import { createApp, GRAPHQL_PATH } from './server/app.js';
import { DATASET_CODES } from './catalogue.js';
import { loadConfig } from './config.js';
import { createLogger } from './server/logger.js';
import { createMetrics } from './server/metrics.js';
import { readPersistedManifest } from './server/plugins/use-persisted-operations.js';
import { createRateLimiter } from './server/rate-limiter.js';
import { createUpstream } from './upstream/upstream.js';
import { startTracing } from './server/tracing.js';

// How long a shutdown waits for in-flight requests before it closes their connections.
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    process.stderr.write(`thai-edu-graphql: invalid configuration\n${loaded.problems.map((p) => `  - ${p}\n`).join('')}`);
    process.exit(1);
  }
  const { config } = loaded;
  const logger = createLogger(config.logLevel);

  // What has been opened, closed in reverse order on shutdown or on a failed start.
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.reverse()) await close().catch((error: unknown) => logger.error({ err: error }, 'close failed'));
  };
  const fail = async (message: string, error: unknown, facts: Record<string, unknown> = {}): Promise<never> => {
    logger.fatal({ ...facts, err: error }, message);
    await closeAll();
    process.exit(1);
  };

  let { baseUrl, apiKey } = config.upstream;
  if (baseUrl === undefined) {
    // No real upstream configured: serve the embedded simulator so `npm start` works anywhere. Imported only
    // then: its geography data and certificate tooling weigh several MB that a production process never needs.
    const { startSimulator } = await import('./simulator/server.js');
    apiKey ??= randomBytes(24).toString('base64url');
    const simulator = await startSimulator({ host: '127.0.0.1', port: 0, apiKey, apiKeyHeader: config.upstream.apiKeyHeader });
    closers.push(() => simulator.close());
    baseUrl = simulator.url;
    logger.info(
      { upstream: baseUrl },
      'UPSTREAM_BASE_URL is not set: started the embedded simulated upstream (deterministic sample data, not real statistics)',
    );
  }
  const trustedDocuments = config.persistedOperations.only
    ? await Promise.resolve()
        .then(() => readPersistedManifest(config.persistedOperations.manifestPath))
        .catch((error: unknown) => fail('PERSISTED_OPERATIONS_ONLY is set but the manifest cannot be used', error))
    : undefined;
  const tracing = config.otlpEndpoint === undefined ? undefined : await startTracing(config.otlpEndpoint, logger);
  if (tracing !== undefined) closers.push(() => tracing.close());

  const metrics = createMetrics();
  const { client: upstream, cache, source, close: closeUpstream } = createUpstream({
    client: { ...config.upstream, baseUrl, apiKey, logger: logger.child({ component: 'upstream' }), onCall: metrics.upstreamCall },
    cache: { redisUrl: config.cache.redisUrl, maxMb: config.cache.maxMb },
    source: { ...config.cache, onRead: metrics.payloadRead },
  });
  closers.push(closeUpstream);
  logger.info({ cache: cache.kind, ...config.cache, redisUrl: undefined }, 'upstream payload cache ready');

  const access = await openAccessService({ databaseUrl: config.databaseUrl, adminToken: config.adminToken }).catch(
    (error: unknown) => fail('cannot open the request-for-use store', error, { store: describeDatabaseUrl(config.databaseUrl) }),
  );
  closers.push(() => access.close());
  logger.info(
    { store: describeDatabaseUrl(config.databaseUrl), operator: config.adminToken === undefined ? 'disabled (no ADMIN_TOKEN)' : 'enabled' },
    'request-for-use store ready',
  );

  // Rate-limit buckets and APQ documents, shared by every instance through Redis when it is configured.
  let redis: Redis | undefined;
  if (config.cache.redisUrl !== undefined) {
    const shared = new Redis(config.cache.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    shared.on('error', (error: unknown) => logger.warn({ err: error }, 'redis (rate limits, persisted queries) unavailable'));
    closers.push(() => shared.quit().then(() => undefined));
    redis = shared;
  }
  const limiter = createRateLimiter(config.rateLimit, redis);
  const app = createApp({
    upstream,
    source,
    cachePolicy: config.cache,
    responseCacheMaxMb: config.cache.responseMaxMb,
    access,
    logger,
    limits: config.limits,
    http: config.http,
    trustedDocuments,
    rateLimit: limiter === undefined ? undefined : { limiter, trustProxy: config.rateLimit.trustProxy },
    metrics,
    redis,
    tracing: tracing?.plugin,
  });
  logger.info(
    {
      limits: config.limits,
      rateLimit: config.rateLimit,
      persistedOperations: trustedDocuments === undefined ? 'automatic (APQ)' : `trusted documents only (${trustedDocuments.size})`,
      ...config.http,
      tracing: config.otlpEndpoint !== undefined,
    },
    'request policy',
  );
  const server = createServer(app.requestListener);
  server.listen(config.port, config.host);
  await once(server, 'listening').catch((error: unknown) => fail(`cannot listen on ${config.host}:${config.port}`, error));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  logger.info({ upstream: upstream.baseUrl }, `GraphQL server ready at http://${host}:${port}${GRAPHQL_PATH}`);
  if (config.cache.warm) void source.warm(DATASET_CODES);

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    grace.unref();
    await closed;
    await closeAll();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}

await main();
