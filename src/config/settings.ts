import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { PACKAGE_ROOT } from '../package-files.js';
import { DEFAULT_LICENCE, GDC_LICENCE_IDS } from '../catalogue-metadata.js';

const fromPackage = (path: string): string => resolve(PACKAGE_ROOT, path);

/**
 * Every setting, declared once: its environment variable, its type and bounds, its default (written as an operator
 * would write it) and one line for the operators' table. The typed `Config`, the list of known names, the checks
 * of misspelt names (misspellings.ts) and the table in docs/operators/configuration.md (settings-table.ts,
 * `npm run docs:settings`) all derive from it. Nothing but load.ts reads `process.env`, so a bad setting is found
 * before the server listens.
 */
export interface Setting<T> {
  readonly env: string;
  /** Parses the variable's trimmed, non-empty text. */
  readonly schema: z.ZodType<T, string>;
  /** The text used when the variable is unset or empty; undefined: the setting is off unless given. */
  readonly default: string | undefined;
  readonly description: string;
  /** Only meaningful beside REDIS_URL. */
  readonly redisOnly: boolean;
}

interface SettingOptions {
  readonly redisOnly?: boolean;
}

function setting<T>(
  env: string,
  schema: z.ZodType<T, string>,
  fallback: string | number | boolean,
  description: string,
  options: SettingOptions = {},
): Setting<T> {
  return { env, schema, default: String(fallback), description, redisOnly: options.redisOnly ?? false };
}

function optional<T>(
  env: string,
  schema: z.ZodType<T, string>,
  description: string,
  options: SettingOptions = {},
): Setting<T | undefined> {
  return { env, schema, default: undefined, description, redisOnly: options.redisOnly ?? false };
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const integer = (min: number, max: number) => z.coerce.number<string>().int().min(min).max(max);
const flag = () => z.stringbool({ error: 'must be true or false' });
const text = () => z.string();
const megabytes = (min: number, max: number) => integer(min, max).transform((mb) => mb * 1_048_576);
const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, error: `must be an http:// or https:// URL, for example ${example}` });

const OPERATOR_NAME = /^[a-z0-9_-]{1,40}$/;

/** `name:token,name:token`: unique names, tokens that are long enough and not each other's. */
const operatorTokens = () =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((pair) => pair.trim())
        .filter((pair) => pair !== '')
        .map((pair) => {
          const colon = pair.indexOf(':');
          return {
            name: colon < 0 ? '' : pair.slice(0, colon).trim(),
            token: colon < 0 ? '' : pair.slice(colon + 1).trim(),
          };
        }),
    )
    .refine((pairs) => pairs.length > 0, 'must hold at least one name:token pair')
    .refine(
      (pairs) => pairs.every((pair) => OPERATOR_NAME.test(pair.name)),
      'each pair must start with a name of a-z, 0-9, - or _ (1 to 40) and a colon',
    )
    .refine((pairs) => pairs.every((pair) => pair.token.length >= 24), 'each token must be at least 24 characters')
    .refine((pairs) => new Set(pairs.map((pair) => pair.name)).size === pairs.length, 'names must not repeat')
    .refine((pairs) => new Set(pairs.map((pair) => pair.token)).size === pairs.length, 'tokens must not repeat');

const upstreamBaseUrl = httpUrl('https://host:8888')
  .refine((value) => {
    // zod runs refinements even after the URL check failed; that failure is already reported.
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  }, 'must be a base address without query, fragment or credentials')
  .transform((value) => value.replace(/\/+$/, ''));

// RFC 9110 token characters: what an HTTP header name may contain.
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const corsOrigins = z.string().transform((value, ctx): '*' | string[] => {
  if (value === '*') return '*';
  if (value === 'none') return [];
  const origins = value
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      ctx.issues.push({
        code: 'custom',
        input: origin,
        message: `${origin} is not an origin such as https://app.example.org`,
      });
    }
  }
  return origins;
});

/**
 * A PostgreSQL URL whose user name or password holds `@ : / ? #` unencoded is read differently by each parser (the
 * driver took part of a password for the host name and printed it). Such a URL is refused, never echoed.
 */
const databaseUrl = z.string().superRefine((value, ctx) => {
  if (value.startsWith('sqlite:')) {
    if (value.length === 'sqlite:'.length) ctx.addIssue({ code: 'custom', message: 'sqlite: needs a path' });
    return;
  }
  if (!/^postgres(ql)?:\/\//.test(value)) {
    ctx.addIssue({ code: 'custom', message: 'must be sqlite:<path> or a postgres:// URL' });
    return;
  }
  const ambiguous = (value.match(/@/g)?.length ?? 0) > 1 || !URL.canParse(value) || /[@]/.test(new URL(value).pathname);
  if (ambiguous) {
    ctx.addIssue({
      code: 'custom',
      message:
        'is not a URL every reader parses the same way: percent-encode the user name and password ' +
        '(@ as %40, : as %3A, / as %2F, ? as %3F, # as %23), for example with encodeURIComponent',
    });
  }
});

/** `sqlite:///srv/x.db` and `sqlite:/srv/x.db` are absolute; `sqlite:data/x.db` is made so, from the package. */
function sqliteFromPackage(url: string): string {
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') : undefined;
  return path === undefined || path === ':memory:' || isAbsolute(path) ? url : `sqlite:${fromPackage(path)}`;
}

const caFile = z.string().transform((path, ctx) => {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    ctx.issues.push({ code: 'custom', input: path, message: `cannot read ${path} (${reason})` });
    return z.NEVER;
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    ctx.issues.push({ code: 'custom', input: path, message: `${path} holds no PEM certificate` });
    return z.NEVER;
  }
  return pem;
});

/** The service.name of spans when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one. */
export const DEFAULT_SERVICE_NAME = 'thai-edu-graphql';

/** OTEL_RESOURCE_ATTRIBUTES: W3C Baggage's `key=value,key=value`, each value percent-decoded. */
const resourceAttributes = z.string().transform((value, ctx): Record<string, string> => {
  const attributes: Record<string, string> = {};
  for (const pair of value.split(',').map((part) => part.trim())) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = equals < 0 ? '' : pair.slice(0, equals).trim();
    let decoded: string | undefined;
    try {
      decoded = decodeURIComponent(pair.slice(equals + 1).trim());
    } catch {
      decoded = undefined;
    }
    if (key === '' || decoded === undefined) {
      ctx.issues.push({ code: 'custom', input: pair, message: `"${pair}" is not key=value (value percent-encoded)` });
      continue;
    }
    attributes[key] = decoded;
  }
  return attributes;
});

/** What access lines keep of a client's address (ACCESS_LOG_CLIENT_ADDRESS). */
export const CLIENT_ADDRESS_DETAILS = ['full', 'truncated', 'off'] as const;
export type ClientAddressDetail = (typeof CLIENT_ADDRESS_DETAILS)[number];

/** Connections one peer address may hold when HTTP_MAX_CONNECTIONS_PER_IP is unset and no proxy is trusted. */
export const DEFAULT_CONNECTIONS_PER_PEER = 64;

/** Where requests for use are stored when DATABASE_URL is unset. */
export const DEFAULT_DATABASE_URL = 'sqlite:data/thai-edu-graphql.db';

/** The values NODE_ENV may take; any other (`prod`, `Production`) is refused rather than read as development. */
export const NODE_ENVS = ['development', 'test', 'production'] as const;

export const SETTINGS = {
  /** `production` makes the checks strict (see `loadConfig`); development and test do not. */
  nodeEnv: setting(
    'NODE_ENV',
    z.enum(NODE_ENVS, { error: `must be one of ${NODE_ENVS.join(', ')} (production turns the strict checks on)` }),
    'development',
    'production: misspelt names stop the start, the simulator runs only when UPSTREAM=simulator.',
  ),
  host: setting('HOST', text(), '127.0.0.1', 'Address the server listens on.'),
  port: setting('PORT', integer(0, 65_535), 4000, 'Port the server listens on; 0 picks a free one.'),
  // Not ADMIN_PORT: Kubernetes injects <SERVICE>_PORT for every Service of the namespace, and one named `admin`
  // would set it to tcp://….
  admin: {
    port: optional(
      'ADMIN_LISTEN_PORT',
      integer(0, 65_535),
      'A second listener for operators only, serving /metrics, /health and /ready (then /metrics leaves PORT); unset: none.',
    ),
    host: setting(
      'ADMIN_LISTEN_HOST',
      text(),
      '127.0.0.1',
      'Address of the ADMIN_LISTEN_PORT listener: loopback unless set, never HOST by default (set 0.0.0.0 or the pod address where Prometheus and probes come from elsewhere).',
    ),
  },
  logLevel: setting('LOG_LEVEL', z.enum(LOG_LEVELS), 'info', 'Least severe log level written.'),
  databaseUrl: setting(
    'DATABASE_URL',
    databaseUrl.transform(sqliteFromPackage),
    DEFAULT_DATABASE_URL,
    'Request-for-use store: sqlite:<path> (relative to the package directory) or a postgres:// URL (percent-encode the password).',
  ),
  database: {
    poolMax: setting('DATABASE_POOL_MAX', integer(1, 1_000), 10, 'PostgreSQL: connections of the pool at most.'),
    connectTimeoutMs: setting(
      'DATABASE_CONNECT_TIMEOUT_MS',
      integer(100, 120_000),
      5_000,
      'PostgreSQL: how long a new connection waits for the server.',
    ),
    statementTimeoutMs: setting(
      'DATABASE_STATEMENT_TIMEOUT_MS',
      integer(100, 600_000),
      5_000,
      'PostgreSQL: longest statement (a held lock ends in an error, not a stalled request); with no answer at all a second later, its connection is dropped.',
    ),
    operationTimeoutMs: setting(
      'DATABASE_OPERATION_TIMEOUT_MS',
      integer(100, 600_000),
      2_000,
      'PostgreSQL: longest one store operation (a key check, a transition) takes in all, waiting for a connection included; then STORE_UNAVAILABLE.',
    ),
    migrateOnStart: setting(
      'MIGRATE_ON_START',
      flag(),
      true,
      'Apply the store migrations at start; false: run npm run migrate (node dist/cli/migrate.js) instead.',
    ),
  },
  // Long enough that guessing it is hopeless; `openssl rand -base64 32` makes a good one.
  adminToken: optional(
    'ADMIN_TOKEN',
    z.string().min(24, 'must be at least 24 characters'),
    "The operator's bearer token (24 characters or more); unset: no operator over HTTP.",
  ),
  // Several named operators, so that the audit trail says who decided; a token is added on every instance before
  // its operator uses it and removed once it is retired, one instance at a time (both valid during the rollout).
  adminTokens: optional(
    'ADMIN_TOKENS',
    operatorTokens(),
    'Named operators: name:token pairs separated by commas (names a-z, 0-9, - and _; tokens 24 characters or more); each decision is recorded as operator:<name>.',
  ),
  usage: {
    retentionDays: setting(
      'USAGE_RETENTION_DAYS',
      integer(1, 3_650),
      90,
      "Days of each client's daily operation counts and summary-read audit kept for the operator.",
    ),
    flushS: setting(
      'USAGE_FLUSH_S',
      integer(1, 3_600),
      10,
      'Seconds between writes of the usage counted in memory (lost if the process dies before the next one).',
    ),
  },
  keys: {
    maxGraceS: setting(
      'KEY_ROTATION_MAX_GRACE_S',
      integer(0, 90 * 86_400),
      7 * 86_400,
      'Longest grace a key rotation may give the keys it replaces (a week covers an app-store review).',
    ),
    idempotencyWindowS: setting(
      'IDEMPOTENCY_WINDOW_S',
      integer(1, 7 * 86_400),
      86_400,
      "How long a registration's Idempotency-Key is remembered.",
    ),
    maxKeysPerClient: setting(
      'API_KEYS_MAX_PER_CLIENT',
      integer(2, 50),
      5,
      'Keys one client may hold at once (current, in grace, minted for retried registrations).',
    ),
  },
  upstream: {
    simulator: optional(
      'UPSTREAM',
      z.enum(['simulator']),
      'simulator: serve the embedded simulated upstream (required in production when UPSTREAM_BASE_URL is unset).',
    ),
    baseUrl: optional(
      'UPSTREAM_BASE_URL',
      upstreamBaseUrl,
      'Upstream base address, e.g. https://host:8888; unset in development: the embedded simulator.',
    ),
    apiKey: optional(
      'UPSTREAM_API_KEY',
      text(),
      'Credential for the summary endpoints; never logged or sent to clients.',
    ),
    apiKeyHeader: setting(
      'UPSTREAM_API_KEY_HEADER',
      z.string().regex(headerName, 'must be a valid HTTP header name'),
      'api-key',
      'Header that carries UPSTREAM_API_KEY.',
    ),
    timeoutMs: setting(
      'UPSTREAM_TIMEOUT_MS',
      integer(100, 300_000),
      10_000,
      'Bound on one whole upstream call, retries included.',
    ),
    caPem: optional('UPSTREAM_CA_FILE', caFile, 'PEM file of an extra CA to trust for an HTTPS upstream.'),
    retries: setting(
      'UPSTREAM_RETRIES',
      integer(0, 10),
      2,
      'Extra attempts of an idempotent upstream call, within UPSTREAM_TIMEOUT_MS.',
    ),
    breakerCooldownS: setting(
      'UPSTREAM_BREAKER_COOLDOWN_S',
      integer(0, 31_536_000),
      10,
      'How long the breaker stays open after an upstream outage before it tries again.',
    ),
    maxBodyMb: setting(
      'UPSTREAM_MAX_BODY_MB',
      integer(1, 4_096),
      64,
      'Largest upstream body read; a larger one is UPSTREAM_BAD_RESPONSE.',
    ),
  },
  cache: {
    ttlS: setting('UPSTREAM_CACHE_TTL_S', integer(0, 31_536_000), 300, 'How long an upstream payload is fresh.'),
    swrS: setting(
      'UPSTREAM_CACHE_SWR_S',
      integer(0, 31_536_000),
      3_600,
      'How long after that a stale payload is served while it is refreshed.',
    ),
    staleIfErrorS: setting(
      'UPSTREAM_CACHE_STALE_IF_ERROR_S',
      integer(0, 31_536_000),
      86_400,
      'How long a stale payload is served while the upstream fails.',
    ),
    maxMb: setting(
      'UPSTREAM_CACHE_MAX_MB',
      integer(1, 65_536),
      256,
      'Upstream payload bytes one instance holds in memory.',
    ),
    responseMaxMb: setting(
      'RESPONSE_CACHE_MAX_MB',
      integer(0, 65_536),
      64,
      'Bound on the cache of answers to anonymous queries, one answer taking at most an eighth of it; 0 turns it off.',
    ),
    responseMinUses: setting(
      'RESPONSE_CACHE_MIN_USES',
      integer(1, 100),
      2,
      "How many misses of one anonymous query it takes before its answer is stored, as nginx's proxy_cache_min_uses: at 2, a query sent once (variables that change with every request) costs no store and evicts no answer that is asked again.",
    ),
    sharedMaxMb: setting(
      'UPSTREAM_SHARED_CACHE_MAX_MB',
      integer(1, 1_048_576),
      192,
      'With Redis: upstream payload bytes all instances keep in it together; with APQ_MAX_MB, under maxmemory.',
      { redisOnly: true },
    ),
    redisUrl: optional(
      'REDIS_URL',
      z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }),
      'redis:// or rediss:// URL: caches, limits, APQ and live events shared by every instance.',
    ),
    redisKeyPrefix: optional(
      'REDIS_KEY_PREFIX',
      z.string().regex(/^[\w.:-]{1,64}$/, 'must be 1 to 64 letters, digits or _ . : -'),
      'Prefix of every Redis key and channel; unset: teg:<Redis db>:<hash of where DATABASE_URL points>:, so deployments sharing a Redis do not mix.',
      { redisOnly: true },
    ),
    // Renewed every third of it: short enough that a dead holder costs the others little, long enough that two
    // renewals may be late (a busy Redis, a long garbage collection) before the lease is lost.
    lockLeaseMs: setting(
      'UPSTREAM_LOCK_LEASE_MS',
      integer(300, 60_000),
      2_000,
      'With Redis: lease of the lock an instance holds while it fetches a payload for all.',
      { redisOnly: true },
    ),
    warm: setting('CACHE_WARM', flag(), false, 'Fetch every dataset in the background at start.'),
  },
  /** Generous for real clients (the docs' and GraphiQL's examples, 40 payloads in one operation), strict for abuse. */
  limits: {
    maxDepth: setting('LIMIT_MAX_DEPTH', integer(1, 1_000), 12, 'Depth of an operation at most.'),
    maxAliases: setting('LIMIT_MAX_ALIASES', integer(1, 100_000), 64, 'Aliases in an operation at most.'),
    maxTokens: setting('LIMIT_MAX_TOKENS', integer(1, 1_000_000), 5_000, 'Tokens in a document at most.'),
    maxDirectives: setting('LIMIT_MAX_DIRECTIVES', integer(1, 100_000), 50, 'Directives in an operation at most.'),
    // Measured before validation, which costs the square of them (docs/operators/security.md has the figures).
    maxFragments: setting(
      'LIMIT_MAX_FRAGMENTS',
      integer(0, 10_000),
      100,
      'Fragment definitions in a document at most.',
    ),
    maxFragmentSpreads: setting(
      'LIMIT_MAX_FRAGMENT_SPREADS',
      integer(0, 10_000),
      200,
      'Fragment spreads (...Name) in a document at most.',
    ),
    maxFieldsPerResponseName: setting(
      'LIMIT_MAX_FIELDS_PER_RESPONSE_NAME',
      integer(1, 10_000),
      50,
      'Fields sharing one response name in one selection set, fragments spread into it counted, at most.',
    ),
    maxFieldComparisons: setting(
      'LIMIT_MAX_FIELD_COMPARISONS',
      integer(1, 10_000_000),
      5_000,
      'Pairs of same-named fields (with their sub-selections) validation may compare in one document, at most.',
    ),
    maxCost: setting(
      'LIMIT_MAX_COST',
      integer(1, 10_000_000),
      2_500,
      'Cost budget of one operation (each upstream payload field counts).',
    ),
    maxBodyBytes: setting(
      'LIMIT_MAX_BODY_BYTES',
      integer(1, 100 * 1_048_576),
      102_400,
      'Bytes of a request body at most.',
    ),
    maxBatch: setting(
      'LIMIT_MAX_BATCH',
      integer(1, 1_000),
      10,
      "Operations in one batched request at most (10: Apollo Client BatchHttpLink's default batchMax).",
    ),
    maxNodeIds: setting('LIMIT_MAX_NODE_IDS', integer(1, 10_000), 100, 'Ids one nodes(ids:) field may ask for.'),
    maxResponseBytes: setting(
      'RESPONSE_MAX_MB',
      megabytes(1, 4_096),
      32,
      "Bytes one answer may carry (an HTTP request's with its batch and incremental parts, or one subscription event); more is RESPONSE_TOO_LARGE.",
    ),
    maxInFlightResponseBytes: setting(
      'RESPONSE_IN_FLIGHT_MAX_MB',
      megabytes(1, 65_536),
      64,
      'Upstream body bytes all unsent responses hold together (a body several answers share counts once); more is SERVER_BUSY.',
    ),
  },
  persistedOperations: {
    only: setting(
      'PERSISTED_OPERATIONS_ONLY',
      flag(),
      false,
      'Refuse every document not in the manifest (trusted documents); APQ is then off.',
    ),
    manifestPath: setting(
      'PERSISTED_OPERATIONS_FILE',
      text().transform(fromPackage),
      'client/gql/persisted-documents.json',
      'The persisted-operations manifest generated by codegen (a relative path is from the package directory).',
    ),
    apqMaxMb: setting('APQ_MAX_MB', integer(1, 65_536), 16, 'Bound on the automatic persisted queries remembered.'),
  },
  rateLimit: {
    points: setting(
      'RATE_LIMIT_POINTS',
      integer(0, 1_000_000),
      600,
      'Operations per caller (key, or IP when anonymous) per window; 0 turns it off.',
    ),
    windowS: setting('RATE_LIMIT_WINDOW_S', integer(1, 86_400), 60, 'Window over which RATE_LIMIT_POINTS refill.'),
    trustProxy: setting(
      'TRUST_PROXY',
      flag(),
      false,
      'Take the client IP from the last X-Forwarded-For entry (one trusted proxy in front).',
    ),
    registration: {
      points: setting(
        'REGISTRATION_RATE_LIMIT_POINTS',
        integer(0, 1_000_000),
        5,
        'Client registrations per IP per window; 0 turns it off.',
      ),
      windowS: setting(
        'REGISTRATION_RATE_LIMIT_WINDOW_S',
        integer(1, 31_536_000),
        3_600,
        'Window of REGISTRATION_RATE_LIMIT_POINTS.',
      ),
    },
    /**
     * Each distinct query string a caller invents is a call to the government's service (and an entry in the
     * cache): those misses are limited per caller on a budget of their own, whatever the operations budget says.
     */
    upstreamFetches: {
      points: setting(
        'UPSTREAM_FETCH_RATE_LIMIT_POINTS',
        integer(0, 1_000_000),
        60,
        'Cache misses one caller (key, or IP when anonymous) may send to the upstream per window; 0: no bound.',
      ),
      windowS: setting(
        'UPSTREAM_FETCH_RATE_LIMIT_WINDOW_S',
        integer(1, 86_400),
        60,
        'Window of UPSTREAM_FETCH_RATE_LIMIT_POINTS.',
      ),
    },
    authenticationFailures: {
      points: setting(
        'AUTH_FAILURE_RATE_LIMIT_POINTS',
        integer(0, 1_000_000),
        10,
        'Failed authentications per IP per window before its credentials are refused unread; 0: off.',
      ),
      windowS: setting(
        'AUTH_FAILURE_RATE_LIMIT_WINDOW_S',
        integer(1, 86_400),
        60,
        'Window of AUTH_FAILURE_RATE_LIMIT_POINTS.',
      ),
    },
  },
  http: {
    corsOrigins: setting(
      'CORS_ORIGINS',
      corsOrigins,
      '*',
      'Origins allowed cross-origin: *, none, or a comma-separated list.',
    ),
    graphiql: setting('GRAPHIQL', flag(), true, 'Serve GraphiQL on GET /graphql in a browser.'),
    introspection: setting('INTROSPECTION', flag(), true, 'Answer introspection queries.'),
    portal: setting('PORTAL', flag(), true, 'Serve the portal at /portal/ (datasets, sign-up, request review).'),
    licenceId: setting(
      'DATASET_LICENSE_ID',
      z.enum(GDC_LICENCE_IDS, { error: `must be one of ${GDC_LICENCE_IDS.join(', ')}` }),
      GDC_LICENCE_IDS[0],
      "The licence's id in the Thai government data catalogue's (GDC) list, CKAN's license_id: one of " +
        `${GDC_LICENCE_IDS.join(', ')}.`,
    ),
    licenceName: setting(
      'DATASET_LICENSE_NAME',
      text(),
      DEFAULT_LICENCE.name,
      'The licence every dataset is published under, as catalogues, harvesters and the portal name it.',
    ),
    licenceUrl: setting(
      'DATASET_LICENSE_URL',
      httpUrl('https://data.go.th/pages/open-government-licence'),
      DEFAULT_LICENCE.url,
      "Where that licence's text is.",
    ),
    contactEmail: optional(
      'DATASET_CONTACT_EMAIL',
      z.email({ error: 'must be an e-mail address' }),
      "Whom readers and harvesters write to about the data; unset: the agency's home page only.",
    ),
    downloadMaxRows: setting(
      'DOWNLOAD_MAX_ROWS',
      integer(1, 1_048_575),
      200_000,
      'Records one file download (GET /datasets/<CODE>.csv, .json, .xlsx) may hold at most; more is RESPONSE_TOO_LARGE (413). Its bytes are bounded by RESPONSE_MAX_MB too.',
    ),
    mcpMaxResultBytes: setting(
      'MCP_MAX_RESULT_BYTES',
      integer(4_096, 1_048_576),
      32_768,
      'Bytes one MCP tool result (/mcp and the stdio command) may hold at most: rows beyond it go to the next page (nextCursor), never an error.',
    ),
    // Personal data under the PDPA: kept in the logs as long as the log store keeps them (docs/operators/runbooks).
    accessLogClientAddress: setting(
      'ACCESS_LOG_CLIENT_ADDRESS',
      z.enum(CLIENT_ADDRESS_DETAILS),
      'full',
      "What access lines keep of a client's address: full, truncated (IPv4 to its /24, IPv6 to its /48) or off.",
    ),
    accessLogUserAgent: setting(
      'ACCESS_LOG_USER_AGENT',
      flag(),
      true,
      "Keep a client's User-Agent (its first 256 characters) on access lines.",
    ),
    // The router's own secret, not a caller's: callers still send their API key in Authorization through the router.
    subgraphToken: optional(
      'SUBGRAPH_TOKEN',
      z.string().min(24, 'must be at least 24 characters'),
      'When set, POST/GET /subgraph (the Federation v2 subgraph) answers 403 FORBIDDEN unless the request carries this value in X-Subgraph-Token (24 characters or more): only your router may call it. Unset: anyone may, as /graphql.',
    ),
  },
  /**
   * Node's own defaults let a client that never finishes its headers keep a socket for 60 s and its body for 300 s.
   * 10 s and 30 s leave room for a bad mobile link (100 KB in 30 s is 27 kbit/s); 1 000 connections is far above
   * what one instance serves behind a proxy and far below what a process can hold (about 64 KB of buffers each).
   */
  connections: {
    headersTimeoutMs: setting(
      'HTTP_HEADERS_TIMEOUT_MS',
      integer(100, 600_000),
      10_000,
      "From a request's first byte until its headers are complete; then 408.",
    ),
    requestTimeoutMs: setting(
      'HTTP_REQUEST_TIMEOUT_MS',
      integer(100, 600_000),
      30_000,
      "From a request's first byte until its body is complete; then 408.",
    ),
    writeStallTimeoutMs: setting(
      'HTTP_WRITE_STALL_TIMEOUT_MS',
      integer(100, 600_000),
      30_000,
      'How long an answer may wait on a reader that takes none of its queued bytes; then the connection is closed.',
    ),
    keepAliveTimeoutMs: setting(
      'HTTP_KEEP_ALIVE_TIMEOUT_MS',
      integer(100, 600_000),
      5_000,
      'How long an idle keep-alive connection stays open.',
    ),
    maxConnections: setting(
      'HTTP_MAX_CONNECTIONS',
      integer(0, 1_000_000),
      1_000,
      'Open connections at most; 0: no bound.',
    ),
    // A WebSocket is a connection that stays open: one that runs nothing (only said connection_init, or only pings)
    // would otherwise hold its slot of HTTP_MAX_CONNECTIONS for ever. Clients open a socket again when they need one.
    webSocketIdleTimeoutMs: setting(
      'WEBSOCKET_IDLE_TIMEOUT_MS',
      integer(100, 86_400_000),
      60_000,
      'How long a WebSocket with no operation running (none started yet, or since its last one ended) stays open; then it is closed (1000).',
    ),
    // Counted by the socket's peer, the only address known when a connection is accepted (X-Forwarded-For is not
    // read yet). Behind a proxy every connection comes from it, so with TRUST_PROXY=true there is no bound unless
    // one is set: the proxy must bound its own clients (docs/operators/security.md).
    maxConnectionsPerIp: optional(
      'HTTP_MAX_CONNECTIONS_PER_IP',
      integer(0, 1_000_000),
      `Open connections of one peer address at most; 0: no bound; unset: ${DEFAULT_CONNECTIONS_PER_PEER}, or no bound with TRUST_PROXY=true.`,
    ),
    // A real client sends its request line and headers in its first packets; a slow-loris trickles them a byte at a
    // time to hold the socket for the whole HTTP_HEADERS_TIMEOUT_MS, every time it reconnects.
    firstHeadersTimeoutMs: setting(
      'HTTP_FIRST_HEADERS_TIMEOUT_MS',
      integer(100, 600_000),
      3_000,
      "From accepting a connection until its first request's headers are complete; then 408 and closed.",
    ),
  },
  // A readiness probe that outlasts its own time-out (Kubernetes: timeoutSeconds) counts as failed: well under it.
  readinessCheckTimeoutMs: setting(
    'READINESS_CHECK_TIMEOUT_MS',
    integer(10, 60_000),
    500,
    "How long /ready and /metrics wait for a dependency's check (the store's ping); one that has not answered by then is reported failing.",
  ),
  /**
   * OpenTelemetry's own variables, read as its specification says (so a collector's usual settings work here):
   * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is the whole URL of the traces path and wins over the base endpoint, which
   * gets /v1/traces appended; OTEL_SERVICE_NAME wins over a service.name in OTEL_RESOURCE_ATTRIBUTES.
   */
  tracing: {
    endpoint: optional(
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      httpUrl('http://127.0.0.1:4318'),
      'OTLP/HTTP collector, spans sent to <endpoint>/v1/traces; with neither this nor the next: no tracing (and no tracing SDK loaded).',
    ),
    tracesEndpoint: optional(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      httpUrl('http://127.0.0.1:4318/v1/traces'),
      'OTLP/HTTP URL spans are sent to, as it is (no path added); wins over OTEL_EXPORTER_OTLP_ENDPOINT.',
    ),
    serviceName: optional(
      'OTEL_SERVICE_NAME',
      z.string().min(1),
      `The service.name of every span; unset: service.name of OTEL_RESOURCE_ATTRIBUTES, else ${DEFAULT_SERVICE_NAME}.`,
    ),
    resourceAttributes: optional(
      'OTEL_RESOURCE_ATTRIBUTES',
      resourceAttributes,
      'Resource attributes of every span: key=value pairs separated by commas, values percent-encoded (deployment.environment=prod,service.namespace=edu).',
    ),
    resolverSpans: setting(
      'TRACING_RESOLVER_SPANS',
      flag(),
      false,
      'A span per resolver besides those of operations, upstream calls and store statements (16 for { datasets { code } }).',
    ),
  },
  // A name shown costs /metrics up to ~920 bytes (as a query and as a mutation); 150 keep it under 200 KB.
  metricsOperationNames: setting(
    'METRICS_OPERATION_NAMES',
    integer(0, 150),
    100,
    "Operation names metrics show as themselves besides the manifest's, at once; one unseen for an hour gives its place.",
  ),
  live: {
    storePollS: setting(
      'LIVE_STORE_POLL_S',
      integer(0, 3_600),
      5,
      'Without Redis: seconds between looks in the store for decisions made with the admin CLI, announced to subscribers; 0 turns it off.',
    ),
    watchIntervalS: setting(
      'WATCH_INTERVAL_S',
      integer(0, 86_400),
      300,
      "Seconds between the watcher's passes over the datasets; 0 turns it off.",
    ),
    /** A dead leader is replaced within this plus a third of it (4 s); renewals every second cost Redis nothing. */
    watchLeaseS: setting(
      'WATCH_LEASE_S',
      integer(1, 60),
      3,
      "With Redis: how long the watcher's lease outlives its last renewal.",
      { redisOnly: true },
    ),
    /**
     * Each subscription over SSE holds a connection, so the total stays under HTTP_MAX_CONNECTIONS with room for
     * ordinary requests; 15 s of heartbeat is under the 30-60 s idle time-outs of common proxies.
     */
    subscriptions: {
      perCaller: setting(
        'SUBSCRIPTION_MAX_PER_CALLER',
        integer(1, 10_000),
        10,
        'Open subscriptions of one caller (key, operator, or IP when anonymous): on all instances together with Redis, on each without.',
      ),
      total: setting(
        'SUBSCRIPTION_MAX_TOTAL',
        integer(1, 1_000_000),
        800,
        'Open subscriptions of the instance; at most HTTP_MAX_CONNECTIONS.',
      ),
      queue: setting(
        'SUBSCRIPTION_QUEUE_MAX',
        integer(1, 10_000),
        100,
        'Events waiting for one slow reader; one more ends it with SUBSCRIPTION_OVERFLOW.',
      ),
      maxLifetimeS: setting(
        'SUBSCRIPTION_MAX_LIFETIME_S',
        integer(1, 604_800),
        3_600,
        'Longest a subscription stays open; it then ends with STREAM_LIFETIME_EXCEEDED and the client subscribes again.',
      ),
      heartbeatS: setting(
        'SUBSCRIPTION_HEARTBEAT_S',
        integer(1, 300),
        15,
        'Seconds between the comment lines that keep an idle stream open through proxies.',
      ),
    },
  },
  shutdown: {
    graceS: setting(
      'SHUTDOWN_GRACE_S',
      integer(1, 3_600),
      25,
      "Bound on a graceful shutdown, whatever the state (under Kubernetes' 30 s termination grace).",
    ),
    readinessDelayS: setting(
      'SHUTDOWN_READINESS_DELAY_S',
      integer(0, 600),
      5,
      'How long /ready answers 503 before the listener closes.',
    ),
  },
} as const;

export type SettingTree = { readonly [key: string]: Setting<unknown> | SettingTree };
export type ValuesOf<Tree> = { readonly [K in keyof Tree]: Tree[K] extends Setting<infer T> ? T : ValuesOf<Tree[K]> };

/** The whole environment, typed and camelCase. */
export type Config = ValuesOf<typeof SETTINGS>;
export type UpstreamConfig = Config['upstream'];
export type CacheConfig = Config['cache'];
export type OperationLimits = Config['limits'];
export type PersistedOperationsConfig = Config['persistedOperations'];
export type RateLimitConfig = Config['rateLimit'];
export type BucketConfig = RateLimitConfig['registration'];
export type HttpConfig = Config['http'];
export type ConnectionLimits = Config['connections'];
export type KeyPolicy = Config['keys'];
export type LiveConfig = Config['live'];
export type SubscriptionConfig = LiveConfig['subscriptions'];
export type DatabaseConfig = Config['database'];
export type ShutdownConfig = Config['shutdown'];
export type TracingConfig = Config['tracing'];
export type AdminListenerConfig = Config['admin'];

/**
 * The bound on one peer address's open connections (0: none): HTTP_MAX_CONNECTIONS_PER_IP when set, otherwise
 * DEFAULT_CONNECTIONS_PER_PEER, or none behind a trusted proxy, whose address every connection then has.
 */
export function connectionsPerPeer(config: Pick<Config, 'connections' | 'rateLimit'>): number {
  return config.connections.maxConnectionsPerIp ?? (config.rateLimit.trustProxy ? 0 : DEFAULT_CONNECTIONS_PER_PEER);
}

export const isSetting = (node: Setting<unknown> | SettingTree): node is Setting<unknown> =>
  typeof (node as Setting<unknown>).env === 'string' && 'schema' in node;

export function flatten(tree: SettingTree): Setting<unknown>[] {
  return Object.values(tree).flatMap((node) => (isSetting(node) ? [node] : flatten(node)));
}

/** Every setting, in declaration order. */
export const SETTING_LIST: readonly Setting<unknown>[] = flatten(SETTINGS);
/** The environment variable names we read. */
export const KNOWN_NAMES: ReadonlySet<string> = new Set(SETTING_LIST.map((s) => s.env));

/**
 * What the operator commands (`migrate`, `admin`) read: the store, the log, and where the admin announces its
 * decisions (Redis). They run beside the server or in a Job with the store's settings only, so nothing of the
 * upstream is asked of them (an image's NODE_ENV=production would otherwise demand UPSTREAM_BASE_URL).
 */
export const STORE_SETTINGS = {
  nodeEnv: SETTINGS.nodeEnv,
  logLevel: SETTINGS.logLevel,
  databaseUrl: SETTINGS.databaseUrl,
  database: SETTINGS.database,
  keys: SETTINGS.keys,
  cache: { redisUrl: SETTINGS.cache.redisUrl, redisKeyPrefix: SETTINGS.cache.redisKeyPrefix },
} as const;

/** The operator commands' settings, typed and camelCase. */
export type StoreConfig = ValuesOf<typeof STORE_SETTINGS>;
