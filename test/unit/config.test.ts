import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionsPerPeer, DEFAULT_CONNECTIONS_PER_PEER, loadConfig } from '../../src/config.js';
import { PACKAGE_ROOT } from '../../src/package-files.js';

describe('loadConfig', () => {
  it('defaults every variable: the embedded simulator on 127.0.0.1:4000', () => {
    const result = loadConfig({});
    expect(result).toEqual({
      ok: true,
      warnings: [],
      config: {
        nodeEnv: 'development',
        host: '127.0.0.1',
        port: 4000,
        admin: { port: undefined, host: '127.0.0.1' },
        logLevel: 'info',
        // Relative paths resolve from the package, not the working directory: the process finds its files anywhere.
        databaseUrl: `sqlite:${join(PACKAGE_ROOT, 'data/thai-edu-graphql.db')}`,
        database: {
          poolMax: 10,
          connectTimeoutMs: 5_000,
          statementTimeoutMs: 5_000,
          operationTimeoutMs: 2_000,
          migrateOnStart: true,
        },
        adminToken: undefined,
        adminTokens: undefined,
        usage: { retentionDays: 90, flushS: 10 },
        keys: { maxGraceS: 604_800, idempotencyWindowS: 86_400, maxKeysPerClient: 5 },
        upstream: {
          simulator: undefined,
          baseUrl: undefined,
          apiKey: undefined,
          apiKeyHeader: 'api-key',
          timeoutMs: 10_000,
          caPem: undefined,
          retries: 2,
          breakerCooldownS: 10,
          maxBodyMb: 64,
        },
        cache: {
          ttlS: 300,
          swrS: 3600,
          staleIfErrorS: 86_400,
          maxMb: 256,
          responseMaxMb: 64,
          responseMinUses: 2,
          sharedMaxMb: 192,
          redisUrl: undefined,
          redisKeyPrefix: undefined,
          lockLeaseMs: 2_000,
          warm: false,
        },
        limits: {
          maxDepth: 12,
          maxAliases: 64,
          maxTokens: 5_000,
          maxDirectives: 50,
          maxFieldComparisons: 5_000,
          maxFragments: 100,
          maxFragmentSpreads: 200,
          maxFieldsPerResponseName: 50,
          maxCost: 2_500,
          maxBodyBytes: 102_400,
          maxBatch: 10,
          maxNodeIds: 100,
          maxResponseBytes: 32 * 1_048_576,
          maxInFlightResponseBytes: 64 * 1_048_576,
        },
        persistedOperations: {
          only: false,
          manifestPath: join(PACKAGE_ROOT, 'client/gql/persisted-documents.json'),
          apqMaxMb: 16,
        },
        rateLimit: {
          points: 600,
          windowS: 60,
          trustProxy: false,
          registration: { points: 5, windowS: 3600 },
          upstreamFetches: { points: 60, windowS: 60 },
          authenticationFailures: { points: 10, windowS: 60 },
        },
        http: {
          corsOrigins: '*',
          graphiql: true,
          introspection: true,
          portal: true,
          licenceId: 'License-Open-Data-Common',
          licenceName: 'Open Government License - Thailand',
          licenceUrl: 'https://data.go.th/pages/open-government-licence',
          contactEmail: undefined,
          downloadMaxRows: 200_000,
          mcpMaxResultBytes: 32_768,
          subgraphToken: undefined,
          accessLogClientAddress: 'full',
          accessLogUserAgent: true,
        },
        connections: {
          headersTimeoutMs: 10_000,
          requestTimeoutMs: 30_000,
          writeStallTimeoutMs: 30_000,
          keepAliveTimeoutMs: 5_000,
          webSocketIdleTimeoutMs: 60_000,
          maxConnections: 1_000,
          maxConnectionsPerIp: undefined,
          firstHeadersTimeoutMs: 3_000,
        },
        tracing: {
          endpoint: undefined,
          tracesEndpoint: undefined,
          serviceName: undefined,
          resourceAttributes: undefined,
          resolverSpans: false,
        },
        metricsOperationNames: 100,
        live: {
          storePollS: 5,
          watchIntervalS: 300,
          watchLeaseS: 3,
          subscriptions: { perCaller: 10, total: 800, queue: 100, maxLifetimeS: 3_600, heartbeatS: 15 },
        },
        readinessCheckTimeoutMs: 500,
        shutdown: { graceS: 25, readinessDelayS: 5 },
      },
    });
  });

  it('reads the request policy: limits, persisted operations, rate limit, CORS, GraphiQL, introspection, tracing, metrics', () => {
    const result = loadConfig({
      LIMIT_MAX_DEPTH: '8',
      LIMIT_MAX_ALIASES: '100',
      LIMIT_MAX_TOKENS: '2000',
      LIMIT_MAX_DIRECTIVES: '10',
      LIMIT_MAX_COST: '1000',
      LIMIT_MAX_BODY_BYTES: '65536',
      LIMIT_MAX_BATCH: '1',
      RESPONSE_MAX_MB: '8',
      PERSISTED_OPERATIONS_ONLY: 'true',
      PERSISTED_OPERATIONS_FILE: '/etc/teg/persisted.json',
      RATE_LIMIT_POINTS: '0',
      RATE_LIMIT_WINDOW_S: '10',
      REGISTRATION_RATE_LIMIT_POINTS: '2',
      REGISTRATION_RATE_LIMIT_WINDOW_S: '86400',
      AUTH_FAILURE_RATE_LIMIT_POINTS: '0',
      AUTH_FAILURE_RATE_LIMIT_WINDOW_S: '300',
      APQ_MAX_MB: '4',
      TRUST_PROXY: 'true',
      CORS_ORIGINS: 'https://app.example.org, https://data.example.go.th',
      GRAPHIQL: 'false',
      INTROSPECTION: 'false',
      PORTAL: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      METRICS_OPERATION_NAMES: '0',
    });
    expect(result.ok && result.config).toMatchObject({
      limits: {
        maxDepth: 8,
        maxAliases: 100,
        maxTokens: 2000,
        maxDirectives: 10,
        maxCost: 1000,
        maxBodyBytes: 65_536,
        maxBatch: 1,
        maxResponseBytes: 8 * 1_048_576,
      },
      persistedOperations: { only: true, manifestPath: '/etc/teg/persisted.json', apqMaxMb: 4 },
      // Turning the rate limit of operations off leaves the per-IP budgets as they are set.
      rateLimit: {
        points: 0,
        windowS: 10,
        trustProxy: true,
        registration: { points: 2, windowS: 86_400 },
        authenticationFailures: { points: 0, windowS: 300 },
      },
      http: {
        corsOrigins: ['https://app.example.org', 'https://data.example.go.th'],
        graphiql: false,
        introspection: false,
        portal: false,
      },
      tracing: { endpoint: 'http://127.0.0.1:4318' },
      metricsOperationNames: 0,
    });
    expect(loadConfig({ CORS_ORIGINS: 'none' }).ok && loadConfig({ CORS_ORIGINS: 'none' })).toMatchObject({
      config: { http: { corsOrigins: [] } },
    });
  });

  it('lists every problem of the request policy at once', () => {
    const result = loadConfig({
      LIMIT_MAX_DEPTH: '0',
      LIMIT_MAX_COST: 'lots',
      RATE_LIMIT_POINTS: '-1',
      REGISTRATION_RATE_LIMIT_WINDOW_S: '0',
      AUTH_FAILURE_RATE_LIMIT_POINTS: 'many',
      APQ_MAX_MB: '0',
      TRUST_PROXY: 'maybe',
      CORS_ORIGINS: 'https://ok.example, not-an-origin, https://x.example/path',
      INTROSPECTION: 'nope',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317',
      METRICS_OPERATION_NAMES: '1e9',
      KEY_ROTATION_MAX_GRACE_S: '7776001',
      IDEMPOTENCY_WINDOW_S: '0',
      API_KEYS_MAX_PER_CLIENT: '1',
    });
    const problems = result.ok ? [] : result.problems;
    const names = [
      'LIMIT_MAX_DEPTH',
      'LIMIT_MAX_COST',
      'RATE_LIMIT_POINTS',
      'REGISTRATION_RATE_LIMIT_WINDOW_S',
      'AUTH_FAILURE_RATE_LIMIT_POINTS',
      'APQ_MAX_MB',
      'TRUST_PROXY',
      'INTROSPECTION',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'METRICS_OPERATION_NAMES',
      'KEY_ROTATION_MAX_GRACE_S',
      'IDEMPOTENCY_WINDOW_S',
      'API_KEYS_MAX_PER_CLIENT',
    ];
    for (const name of names) {
      expect(
        problems.some((problem) => problem.startsWith(`${name}:`)),
        name,
      ).toBe(true);
    }
    expect(problems.filter((problem) => problem.startsWith('CORS_ORIGINS:'))).toHaveLength(2);
  });

  it('reads and normalises every variable', () => {
    const result = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      LOG_LEVEL: 'warn',
      UPSTREAM_BASE_URL: 'https://opendata.example.go.th:8888/',
      UPSTREAM_API_KEY: 'k',
      UPSTREAM_API_KEY_HEADER: 'X-Api-Key',
      UPSTREAM_TIMEOUT_MS: '2500',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      ADMIN_TOKEN: 'an-operator-token-of-some-length',
      UPSTREAM_RETRIES: '0',
      UPSTREAM_BREAKER_COOLDOWN_S: '30',
      UPSTREAM_CACHE_TTL_S: '60',
      UPSTREAM_CACHE_SWR_S: '0',
      UPSTREAM_CACHE_STALE_IF_ERROR_S: '600',
      UPSTREAM_CACHE_MAX_MB: '64',
      RESPONSE_CACHE_MAX_MB: '16',
      REDIS_URL: 'redis://127.0.0.1:6379',
      UPSTREAM_LOCK_LEASE_MS: '5000',
      CACHE_WARM: 'true',
    });
    expect(result.ok && result.config).toMatchObject({
      cache: {
        ttlS: 60,
        swrS: 0,
        staleIfErrorS: 600,
        maxMb: 64,
        responseMaxMb: 16,
        redisUrl: 'redis://127.0.0.1:6379',
        lockLeaseMs: 5_000,
        warm: true,
      },
      host: '0.0.0.0',
      port: 8080,
      logLevel: 'warn',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/test',
      adminToken: 'an-operator-token-of-some-length',
      upstream: {
        baseUrl: 'https://opendata.example.go.th:8888',
        apiKey: 'k',
        apiKeyHeader: 'X-Api-Key',
        timeoutMs: 2500,
        retries: 0,
        breakerCooldownS: 30,
      },
    });
  });

  it('treats empty values as unset', () => {
    const result = loadConfig({ UPSTREAM_BASE_URL: '', PORT: ' ' });
    expect(result.ok && result.config.upstream.baseUrl).toBeUndefined();
    expect(result.ok && result.config.port).toBe(4000);
  });

  it('lists every problem at once, each naming its variable', () => {
    const result = loadConfig({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      UPSTREAM_BASE_URL: 'ftp://example.org',
      UPSTREAM_TIMEOUT_MS: '5',
      UPSTREAM_API_KEY_HEADER: 'bad header',
      UPSTREAM_CA_FILE: '/nonexistent/ca.pem',
      DATABASE_URL: 'mysql://localhost/db',
      ADMIN_TOKEN: 'short',
      UPSTREAM_CACHE_MAX_MB: '0',
      REDIS_URL: 'http://localhost:6379',
      UPSTREAM_LOCK_LEASE_MS: '100',
      CACHE_WARM: 'sometimes',
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    for (const name of [
      'PORT',
      'LOG_LEVEL',
      'UPSTREAM_BASE_URL',
      'UPSTREAM_TIMEOUT_MS',
      'UPSTREAM_API_KEY_HEADER',
      'UPSTREAM_CA_FILE',
      'DATABASE_URL',
      'ADMIN_TOKEN',
      'UPSTREAM_CACHE_MAX_MB',
      'REDIS_URL',
      'UPSTREAM_LOCK_LEASE_MS',
      'CACHE_WARM',
    ]) {
      expect(
        problems.some((problem) => problem.startsWith(`${name}:`)),
        name,
      ).toBe(true);
    }
    expect(problems).toHaveLength(12);
  });

  it('reads the connection limits, and refuses a header time-out longer than the request time-out', () => {
    const result = loadConfig({
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
      HTTP_MAX_CONNECTIONS: '0',
      HTTP_MAX_CONNECTIONS_PER_IP: '0',
      HTTP_FIRST_HEADERS_TIMEOUT_MS: '1500',
      HTTP_WRITE_STALL_TIMEOUT_MS: '5000',
      WEBSOCKET_IDLE_TIMEOUT_MS: '1500',
    });
    expect(result.ok && result.config.connections).toEqual({
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 2_000,
      writeStallTimeoutMs: 5_000,
      keepAliveTimeoutMs: 65_000,
      webSocketIdleTimeoutMs: 1_500,
      maxConnections: 0,
      maxConnectionsPerIp: 0,
      firstHeadersTimeoutMs: 1_500,
    });
    // Unset, the per-address bound is the default, or none behind a trusted proxy (every peer is the proxy).
    const bound = (env: Record<string, string>): number => {
      const loaded = loadConfig(env);
      if (!loaded.ok) throw new Error(loaded.problems.join('; '));
      return connectionsPerPeer(loaded.config);
    };
    expect(bound({})).toBe(DEFAULT_CONNECTIONS_PER_PEER);
    expect(bound({ TRUST_PROXY: 'true' })).toBe(0);
    expect(bound({ TRUST_PROXY: 'true', HTTP_MAX_CONNECTIONS_PER_IP: '200' })).toBe(200);
    expect(bound({ HTTP_MAX_CONNECTIONS_PER_IP: '0' })).toBe(0);
    const ineffective = loadConfig({ HTTP_FIRST_HEADERS_TIMEOUT_MS: '20000' });
    expect(ineffective.warnings).toContain(
      'HTTP_FIRST_HEADERS_TIMEOUT_MS: above HTTP_HEADERS_TIMEOUT_MS, so it never applies (every request gets the shorter one)',
    );
    const longer = loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000', LOG_LEVEL: 'loud' });
    expect(longer.ok ? [] : longer.problems).toEqual([
      'LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
      'HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    ]);
    const invalid = loadConfig({
      HTTP_HEADERS_TIMEOUT_MS: '50',
      HTTP_REQUEST_TIMEOUT_MS: 'soon',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '0',
      HTTP_MAX_CONNECTIONS: '-1',
    });
    expect((invalid.ok ? [] : invalid.problems).map((problem) => problem.split(':')[0])).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS',
      'HTTP_REQUEST_TIMEOUT_MS',
      'HTTP_KEEP_ALIVE_TIMEOUT_MS',
      'HTTP_MAX_CONNECTIONS',
    ]);
  });

  it('refuses a base address with a query or credentials', () => {
    expect(loadConfig({ UPSTREAM_BASE_URL: 'https://host:8888/?x=1' }).ok).toBe(false);
    expect(loadConfig({ UPSTREAM_BASE_URL: 'https://user:pw@host:8888' }).ok).toBe(false);
  });

  it('loads the CA file and refuses one that holds no certificate', () => {
    const dir = mkdtempSync(join(tmpdir(), 'teg-config-'));
    const good = join(dir, 'ca.pem');
    const bad = join(dir, 'not-a-cert.txt');
    writeFileSync(good, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    writeFileSync(bad, 'hello');
    const loaded = loadConfig({ UPSTREAM_CA_FILE: good });
    expect(loaded.ok && loaded.config.upstream.caPem).toContain('BEGIN CERTIFICATE');
    const refused = loadConfig({ UPSTREAM_CA_FILE: bad });
    expect(refused.ok ? [] : refused.problems).toEqual([`UPSTREAM_CA_FILE: ${bad} holds no PEM certificate`]);
  });
  it('reads named operator tokens, and refuses pairs without a name, short or repeated tokens', () => {
    const tokens = 'somchai:somchai-token-0123456789abcdef, malee:malee-token-0123456789abcdefgh';
    const result = loadConfig({ ADMIN_TOKENS: tokens });
    expect(result.ok && result.config.adminTokens).toEqual([
      { name: 'somchai', token: 'somchai-token-0123456789abcdef' },
      { name: 'malee', token: 'malee-token-0123456789abcdefgh' },
    ]);
    for (const bad of [
      'no-name-token-0123456789abcdef',
      'Somchai:somchai-token-0123456789abcdef',
      'somchai:short',
      'a:same-token-0123456789abcdefgh,b:same-token-0123456789abcdefgh',
      'a:token-one-0123456789abcdefgh,a:token-two-0123456789abcdefgh',
    ]) {
      const refused = loadConfig({ ADMIN_TOKENS: bad });
      expect(refused.ok ? [] : [...new Set(refused.problems.map((problem) => problem.split(':')[0]))]).toEqual([
        'ADMIN_TOKENS',
      ]);
      // The refusal never repeats a token.
      expect(refused.ok ? '' : refused.problems.join(' ')).not.toContain('0123456789');
    }
  });

  it('reads the live settings and refuses them out of bounds', () => {
    const result = loadConfig({
      WATCH_INTERVAL_S: '0',
      WATCH_LEASE_S: '10',
      SUBSCRIPTION_MAX_PER_CALLER: '3',
      SUBSCRIPTION_MAX_TOTAL: '50',
      SUBSCRIPTION_QUEUE_MAX: '5',
      SUBSCRIPTION_MAX_LIFETIME_S: '120',
      SUBSCRIPTION_HEARTBEAT_S: '30',
    });
    expect(result.ok && result.config.live).toEqual({
      storePollS: 5,
      watchIntervalS: 0,
      watchLeaseS: 10,
      subscriptions: { perCaller: 3, total: 50, queue: 5, maxLifetimeS: 120, heartbeatS: 30 },
    });
    const bad = loadConfig({
      WATCH_INTERVAL_S: '-1',
      WATCH_LEASE_S: '0',
      SUBSCRIPTION_MAX_TOTAL: '0',
      SUBSCRIPTION_MAX_LIFETIME_S: '0',
      SUBSCRIPTION_HEARTBEAT_S: '301',
    });
    expect(bad.ok ? [] : bad.problems.map((problem) => problem.split(':')[0])).toEqual([
      'WATCH_INTERVAL_S',
      'WATCH_LEASE_S',
      'SUBSCRIPTION_MAX_TOTAL',
      'SUBSCRIPTION_MAX_LIFETIME_S',
      'SUBSCRIPTION_HEARTBEAT_S',
    ]);
  });
});
