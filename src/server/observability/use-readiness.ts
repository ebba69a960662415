import type { Route } from '../../http/route.js';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';

/** One dependency the server uses, e.g. the request-for-use store. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves true when usable; rejects (or resolves false) otherwise. A rejection's message is logged, never shown. */
  check(): Promise<boolean>;
  /** Facts worth showing whatever the outcome, e.g. a circuit breaker's state. */
  describe?(): Record<string, string>;
}

export type CheckResult = { readonly status: 'ok' | 'failing'; readonly reason?: string } & Record<string, string>;

/** What `GET /ready` answers, and what the metrics instance_ready and dependency_up show. */
export interface ReadinessReport {
  /**
   * `degraded`: a dependency is down, and the instance still serves most of its traffic without it;
   * `shutting_down`: a shutdown began, and load balancers must stop sending traffic (503).
   */
  readonly status: 'ready' | 'degraded' | 'shutting_down';
  readonly httpStatus: 200 | 503;
  /** `simulated` while the embedded simulator serves. */
  readonly upstream?: 'simulated';
  readonly checks: Readonly<Record<string, CheckResult>>;
}

/** The dependencies' checks, run together on demand; each failure and each recovery is logged once. */
export interface Readiness {
  report(): Promise<ReadinessReport>;
}

export const READY_PATH = '/ready';
/** Liveness: 200 with no body while the process serves; nothing is checked. */
export const HEALTH_PATH = '/health';

/**
 * What yoga is given as its own health check's path, so that it never answers: yoga's check answers every URL that
 * ends with its path (`/anything/health`, `/graphql?x=/health`), and a serialised URL never ends with a space (the
 * URL parser percent-encodes it). `/health` is answered here instead, on that path alone.
 */
export const YOGA_HEALTH_CHECK_DISABLED = ' ';

/** What /ready says besides its checks. */
export interface ReadinessState {
  /** True once a shutdown began: /ready answers 503 `shutting_down` so load balancers stop sending traffic. */
  shuttingDown(): boolean;
  /** The embedded simulator serves: the body says `upstream: "simulated"` whatever the checks say. */
  readonly upstreamSimulated: boolean;
}
// What anyone may read about a failing check. A raw error (a database's message, a host, a file path) is for
// the operator's log only: /ready answers whoever asks.
const FAILING_REASON = 'unavailable';

/** What one run of a check found; a check never rejects past this. */
interface Outcome {
  readonly ok: boolean;
  readonly error?: unknown;
}

/**
 * Readiness means "this instance can serve most of its traffic". No dependency is needed for that: anonymous
 * queries of datasets need neither the store nor Redis, and an upstream outage is served stale or answered with a
 * code. So a failing dependency makes the instance `degraded` (still 200, named in the body and in dependency_up),
 * never unready: taking every instance out of the load balancer for a shared dependency's outage would turn a
 * partial outage into a full one.
 *
 * Nor may a dependency's latency make the report late (a probe that outlasts its time-out fails the instance, for a
 * store that hangs): each check has `checkTimeoutMs` to answer, and one that has not is reported failing. It goes on
 * in the background, and while it does, reports answer at once from that, without starting another: a hung store
 * holds one ping, never one per probe.
 */
export function createReadiness(
  checks: readonly ReadinessCheck[],
  logger: Logger,
  state: ReadinessState,
  /** READINESS_CHECK_TIMEOUT_MS. */
  checkTimeoutMs: number,
): Readiness {
  const simulated = state.upstreamSimulated ? { upstream: 'simulated' as const } : {};
  const failing = new Set<string>();
  const note = (name: string, ok: boolean, error?: unknown): void => {
    if (ok === !failing.has(name)) return;
    if (ok) {
      failing.delete(name);
      logger.info({ check: name }, `readiness check "${name}" passes again`);
    } else {
      failing.add(name);
      logger.warn({ check: name, err: error }, `readiness check "${name}" failed`);
    }
  };
  const running = new Map<string, { readonly outcome: Promise<Outcome>; readonly startedAt: number }>();
  const run = (readiness: ReadinessCheck): { readonly outcome: Promise<Outcome>; readonly startedAt: number } => {
    const { name } = readiness;
    const current = running.get(name);
    if (current !== undefined) return current;
    const outcome = Promise.resolve()
      .then(() => readiness.check())
      .then(
        (ok): Outcome => ({ ok }),
        (error: unknown): Outcome => ({ ok: false, error }),
      )
      .finally(() => running.delete(name));
    const started = { outcome, startedAt: performance.now() };
    running.set(name, started);
    return started;
  };
  const outcomeWithinBound = async (readiness: ReadinessCheck): Promise<Outcome> => {
    const { outcome, startedAt } = run(readiness);
    const left = checkTimeoutMs - (performance.now() - startedAt);
    const late: Outcome = {
      ok: false,
      error: new Error(`no answer within READINESS_CHECK_TIMEOUT_MS (${checkTimeoutMs} ms)`),
    };
    if (left <= 0) return late;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve(late), left);
    });
    try {
      return await Promise.race([outcome, bound]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    async report() {
      // No check runs once a shutdown began: the answer is the same whatever they say, and the store may be closing.
      if (state.shuttingDown()) return { status: 'shutting_down', httpStatus: 503, ...simulated, checks: {} };
      const results = await Promise.all(
        checks.map(async (readiness): Promise<[string, CheckResult]> => {
          const { name } = readiness;
          const { ok, error } = await outcomeWithinBound(readiness);
          note(name, ok, error);
          const facts = readiness.describe?.() ?? {};
          return [name, ok ? { status: 'ok', ...facts } : { status: 'failing', reason: FAILING_REASON, ...facts }];
        }),
      );
      const degraded = results.some(([, result]) => result.status !== 'ok');
      return {
        status: degraded ? 'degraded' : 'ready',
        httpStatus: 200,
        ...simulated,
        checks: Object.fromEntries(results),
      };
    },
  };
}

/** What `GET /ready` answers for a report: its status, and the report as JSON, never cached. */
export function readinessAnswer({ httpStatus, ...body }: ReadinessReport): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  return {
    status: httpStatus,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  };
}

/** `GET /health`: 200 while the process serves. Free: an orchestrator's probe is answered whatever an address spent. */
export const healthRoute: Route = {
  name: 'health',
  price: 'free',
  paths: [HEALTH_PATH],
  accepts: (_pathname, request) => isRead(request.method),
  handle: () => new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } }),
};

/** `GET /ready`: the report as JSON, never cached. Free, as /health. */
export function readyRoute(readiness: Readiness): Route {
  return {
    name: 'ready',
    price: 'free',
    paths: [READY_PATH],
    accepts: (_pathname, request) => isRead(request.method),
    handle: async () => {
      const { status, headers, body } = readinessAnswer(await readiness.report());
      return new Response(body, { status, headers });
    },
  };
}

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}
