import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The whole environment, read and validated once at start-up. Every other module receives this typed object
 * and never reads `process.env`, so a bad setting is found before the server listens, not on the first request.
 */
export interface Config {
  readonly host: string;
  readonly port: number;
  readonly logLevel: LogLevel;
  readonly upstream: UpstreamConfig;
  /** Where requests for use are stored: `sqlite:<path>` or a `postgres://` URL. */
  readonly databaseUrl: string;
  /** The operator's bearer token; undefined means nobody can act as the operator over HTTP. */
  readonly adminToken: string | undefined;
  readonly cache: CacheConfig;
}

/** The cross-request cache of upstream payloads, shared through Redis when `redisUrl` is set. */
export interface CacheConfig {
  readonly ttlS: number;
  readonly swrS: number;
  readonly staleIfErrorS: number;
  readonly maxMb: number;
  readonly redisUrl: string | undefined;
  /** Fetch every dataset in the background at start-up. */
  readonly warm: boolean;
}

export interface UpstreamConfig {
  /** The upstream base address without a trailing slash; undefined means "start the embedded simulator". */
  readonly baseUrl: string | undefined;
  /** Credential for the summary endpoints; never logged, never sent to clients. */
  readonly apiKey: string | undefined;
  readonly apiKeyHeader: string;
  /** Bound on one whole upstream call: connect, headers and body together. */
  readonly timeoutMs: number;
  /** PEM of an extra CA to trust for an HTTPS upstream with a private or self-signed certificate. */
  readonly caPem: string | undefined;
  /** Extra attempts of an idempotent call, all within `timeoutMs`. */
  readonly retries: number;
  readonly breakerCooldownS: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const optionalText = z
  .string()
  .transform((value) => value.trim())
  .optional()
  .transform((value) => (value === '' ? undefined : value));

const upstreamBaseUrl = optionalText.pipe(
  z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, for example https://host:8888' })
    .refine((value) => {
      // zod runs refinements even after the URL check failed; that failure is already reported.
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    }, 'must be a base address without query, fragment or credentials')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
);

// RFC 9110 token characters: what an HTTP header name may contain.
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const seconds = (fallback: number) => optionalText.pipe(z.coerce.number<string | undefined>().int().min(0).max(31_536_000).default(fallback));

export const DEFAULT_DATABASE_URL = 'sqlite:data/thai-edu-graphql.db';

const environmentSchema = z.object({
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must be sqlite:<path> or a postgres:// URL')
      .default(DEFAULT_DATABASE_URL),
  ),
  // Long enough that guessing it is hopeless; `openssl rand -base64 32` makes a good one.
  ADMIN_TOKEN: optionalText.pipe(z.string().min(24, 'must be at least 24 characters').optional()),
  HOST: optionalText.pipe(z.string().default('127.0.0.1')),
  PORT: optionalText.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).default(4000)),
  LOG_LEVEL: optionalText.pipe(z.enum(LOG_LEVELS).default('info')),
  UPSTREAM_BASE_URL: upstreamBaseUrl,
  UPSTREAM_API_KEY: optionalText,
  UPSTREAM_API_KEY_HEADER: optionalText.pipe(
    z.string().regex(headerName, 'must be a valid HTTP header name').default('api-key'),
  ),
  UPSTREAM_TIMEOUT_MS: optionalText.pipe(z.coerce.number<string | undefined>().int().min(100).max(300_000).default(10_000)),
  UPSTREAM_RETRIES: optionalText.pipe(z.coerce.number<string | undefined>().int().min(0).max(10).default(2)),
  UPSTREAM_BREAKER_COOLDOWN_S: seconds(10),
  UPSTREAM_CACHE_TTL_S: seconds(300),
  UPSTREAM_CACHE_SWR_S: seconds(3600),
  UPSTREAM_CACHE_STALE_IF_ERROR_S: seconds(86_400),
  UPSTREAM_CACHE_MAX_MB: optionalText.pipe(z.coerce.number<string | undefined>().int().min(1).max(65_536).default(256)),
  REDIS_URL: optionalText.pipe(
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ),
  CACHE_WARM: optionalText.pipe(z.stringbool({ error: 'must be true or false' }).default(false)),
  UPSTREAM_CA_FILE: optionalText.transform((path, ctx) => {
    if (path === undefined) return undefined;
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
  }),
});

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Parses the environment; on failure lists every problem at once, each naming its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ConfigResult {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    };
  }
  const values = parsed.data;
  return {
    ok: true,
    config: {
      host: values.HOST,
      port: values.PORT,
      logLevel: values.LOG_LEVEL,
      databaseUrl: values.DATABASE_URL,
      adminToken: values.ADMIN_TOKEN,
      upstream: {
        baseUrl: values.UPSTREAM_BASE_URL,
        apiKey: values.UPSTREAM_API_KEY,
        apiKeyHeader: values.UPSTREAM_API_KEY_HEADER,
        timeoutMs: values.UPSTREAM_TIMEOUT_MS,
        caPem: values.UPSTREAM_CA_FILE,
        retries: values.UPSTREAM_RETRIES,
        breakerCooldownS: values.UPSTREAM_BREAKER_COOLDOWN_S,
      },
      cache: {
        ttlS: values.UPSTREAM_CACHE_TTL_S,
        swrS: values.UPSTREAM_CACHE_SWR_S,
        staleIfErrorS: values.UPSTREAM_CACHE_STALE_IF_ERROR_S,
        maxMb: values.UPSTREAM_CACHE_MAX_MB,
        redisUrl: values.REDIS_URL,
        warm: values.CACHE_WARM,
      },
    },
  };
}
