import { SETTING_LIST, type Config } from './settings.js';

/**
 * Settings that cannot all be honoured together. Each names the variables it reads: it is checked only when they
 * all parsed, so it is listed beside every other problem, never instead of it.
 */
export interface Conflict {
  readonly reads: readonly string[];
  /** `error` stops the start; `warning` is logged at start. */
  readonly check: (
    config: Config,
    env: NodeJS.ProcessEnv,
  ) => { level: 'error' | 'warning'; message: string } | undefined;
}

export const isSet = (env: NodeJS.ProcessEnv, name: string): boolean => (env[name]?.trim() ?? '') !== '';

export const CONFLICTS: readonly Conflict[] = [
  {
    reads: ['ADMIN_LISTEN_PORT', 'PORT', 'ADMIN_LISTEN_HOST', 'HOST'],
    check: ({ admin, port, host }) =>
      admin.port === undefined || admin.port === 0 || admin.port !== port || (admin.host ?? host) !== host
        ? undefined
        : {
            level: 'error',
            message: `ADMIN_LISTEN_PORT: ${admin.port} is PORT too; the operators' listener needs its own`,
          },
  },
  {
    reads: ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS'],
    check: ({ connections }) =>
      connections.headersTimeoutMs <= connections.requestTimeoutMs
        ? undefined
        : {
            level: 'error',
            message:
              'HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
          },
  },
  {
    reads: ['HTTP_FIRST_HEADERS_TIMEOUT_MS', 'HTTP_HEADERS_TIMEOUT_MS'],
    check: ({ connections }) =>
      connections.firstHeadersTimeoutMs <= connections.headersTimeoutMs
        ? undefined
        : {
            level: 'warning',
            message:
              'HTTP_FIRST_HEADERS_TIMEOUT_MS: above HTTP_HEADERS_TIMEOUT_MS, so it never applies (every request gets the shorter one)',
          },
  },
  {
    reads: ['SUBSCRIPTION_MAX_TOTAL', 'HTTP_MAX_CONNECTIONS'],
    check: ({ connections, live }) =>
      connections.maxConnections === 0 || live.subscriptions.total <= connections.maxConnections
        ? undefined
        : {
            level: 'error',
            message: `SUBSCRIPTION_MAX_TOTAL: ${live.subscriptions.total} is above HTTP_MAX_CONNECTIONS (${connections.maxConnections}); each subscription stream holds a connection, so streams could take every connection and ordinary requests would be refused`,
          },
  },
  {
    reads: ['RESPONSE_IN_FLIGHT_MAX_MB', 'RESPONSE_MAX_MB'],
    check: ({ limits }) =>
      limits.maxInFlightResponseBytes >= limits.maxResponseBytes
        ? undefined
        : {
            level: 'error',
            message:
              'RESPONSE_IN_FLIGHT_MAX_MB: must be at least RESPONSE_MAX_MB (the budget of all unsent answers must hold one whole answer)',
          },
  },
  {
    reads: ['UPSTREAM_TIMEOUT_MS', 'SHUTDOWN_GRACE_S', 'SHUTDOWN_READINESS_DELAY_S'],
    check: ({ upstream, shutdown }) => {
      const drainMs = (shutdown.graceS - shutdown.readinessDelayS) * 1_000;
      if (drainMs <= 0) {
        return {
          level: 'error',
          message:
            'SHUTDOWN_READINESS_DELAY_S: must be below SHUTDOWN_GRACE_S (requests in flight need time to finish)',
        };
      }
      return upstream.timeoutMs <= drainMs
        ? undefined
        : {
            level: 'error',
            message: `UPSTREAM_TIMEOUT_MS: ${upstream.timeoutMs} ms is longer than a shutdown leaves requests to finish (SHUTDOWN_GRACE_S minus SHUTDOWN_READINESS_DELAY_S: ${drainMs} ms); a request waiting on the upstream would be cut`,
          };
    },
  },
  {
    reads: ['UPSTREAM', 'UPSTREAM_BASE_URL'],
    check: ({ upstream }) =>
      upstream.simulator !== undefined && upstream.baseUrl !== undefined
        ? {
            level: 'error',
            message:
              'UPSTREAM: simulator asks for the simulator, but UPSTREAM_BASE_URL names a real upstream; set one of them',
          }
        : undefined,
  },
  {
    reads: ['UPSTREAM', 'UPSTREAM_BASE_URL', 'NODE_ENV'],
    check: ({ upstream, nodeEnv }) =>
      nodeEnv === 'production' && upstream.baseUrl === undefined && upstream.simulator === undefined
        ? {
            level: 'error',
            message:
              'UPSTREAM_BASE_URL: required in production; the simulator serves made-up figures and runs only when asked for by name (UPSTREAM=simulator)',
          }
        : undefined,
  },
  {
    reads: ['UPSTREAM_BASE_URL', 'UPSTREAM_API_KEY'],
    check: ({ upstream }) =>
      upstream.baseUrl !== undefined && upstream.apiKey === undefined
        ? {
            level: 'warning',
            message:
              'UPSTREAM_API_KEY: unset while UPSTREAM_BASE_URL names a real upstream; the summary endpoints (83 to 86) will be refused by it',
          }
        : undefined,
  },
];

/** Redis-only settings given without REDIS_URL: each instance would keep its own state. */
export function redisOnlyWithoutRedis(env: NodeJS.ProcessEnv): string[] {
  if (isSet(env, 'REDIS_URL')) return [];
  return SETTING_LIST.filter((s) => s.redisOnly && isSet(env, s.env)).map(
    (s) => `${s.env}: only used with Redis, and REDIS_URL is unset (each instance would keep its own state)`,
  );
}
