import type { Plugin, YogaLogger } from 'graphql-yoga';

/** One dependency the server needs before it can answer well, e.g. the request-for-use store. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves true when usable; rejects (or resolves false) otherwise. A rejection's message is logged, never shown. */
  check(): Promise<boolean>;
  /** Facts worth showing whatever the outcome, e.g. the upstream breaker's state. */
  describe?(): Record<string, string>;
}

export const READY_PATH = '/ready';

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

/**
 * `GET /ready`: 200 when every check passes, 503 otherwise, with a JSON body naming each check's result, so
 * a load balancer stops sending traffic to an instance that cannot serve. Why a check failed goes to the log,
 * through yoga's logger.
 */
export function useReadiness(checks: readonly ReadinessCheck[], state: ReadinessState): Plugin {
  const simulated = state.upstreamSimulated ? { upstream: 'simulated' } : {};
  // A new object per answer: whatwg-node's Response may keep the very object, and later plugins set headers on it.
  const headers = (): Record<string, string> => ({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  let logger: YogaLogger | undefined;
  return {
    onYogaInit({ yoga }) {
      logger = yoga.logger;
    },
    // Synchronous for every request but /ready's: a hook that returns a promise costs every request a hop.
    onRequest(payload) {
      const { request, url, fetchAPI } = payload;
      if (url.pathname !== READY_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      if (state.shuttingDown()) {
        // No check runs: the answer is the same whatever they would say, and the store may be closing.
        const body = JSON.stringify({ status: 'shutting_down', ...simulated });
        payload.endResponse(new fetchAPI.Response(body, { status: 503, headers: headers() }));
        return;
      }
      return Promise.all(
        checks.map(async (readiness) => {
          const { name } = readiness;
          const facts = readiness.describe?.() ?? {};
          try {
            const ok = await readiness.check();
            if (!ok) logger?.warn(`readiness check "${name}" failed`);
            return { name, facts, ok };
          } catch (error) {
            logger?.warn(`readiness check "${name}" failed`, error instanceof Error ? error : new Error(String(error)));
            return { name, facts, ok: false };
          }
        }),
      ).then((results) => {
        const ready = results.every((result) => result.ok);
        const body = {
          status: ready ? 'ready' : 'not_ready',
          ...simulated,
          checks: Object.fromEntries(
            results.map(({ name, facts, ok }) => [
              name,
              ok ? { status: 'ok', ...facts } : { status: 'failing', reason: FAILING_REASON, ...facts },
            ]),
          ),
        };
        payload.endResponse(
          new fetchAPI.Response(JSON.stringify(body), { status: ready ? 200 : 503, headers: headers() }),
        );
      });
    },
  };
}
