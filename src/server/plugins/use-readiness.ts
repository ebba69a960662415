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
// What anyone may read about a failing check. A raw error (a database's message, a host, a file path) is for
// the operator's log only: /ready answers whoever asks.
const FAILING_REASON = 'unavailable';

/**
 * `GET /health` without yoga's `x-yoga-id`; `GET /ready`: 200 when every check passes, 503 otherwise, with a JSON body naming each check's result, so
 * a load balancer stops sending traffic to an instance that cannot serve. Why a check failed goes to the log,
 * through yoga's logger.
 */
export function useReadiness(checks: readonly ReadinessCheck[]): Plugin {
  let logger: YogaLogger | undefined;
  return {
    onYogaInit({ yoga }) {
      logger = yoga.logger;
    },
    // yoga answers /health itself, before any plugin's request hook, naming its instance in `x-yoga-id`: nothing a
    // probe needs, and a fingerprint for anyone else.
    onResponse({ response }) {
      response.headers.delete('x-yoga-id');
    },
    // Synchronous for every request but /ready's: a hook that returns a promise costs every request a hop.
    onRequest(payload) {
      const { request, url, fetchAPI } = payload;
      if (url.pathname !== READY_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return;
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
          checks: Object.fromEntries(
            results.map(({ name, facts, ok }) => [
              name,
              ok ? { status: 'ok', ...facts } : { status: 'failing', reason: FAILING_REASON, ...facts },
            ]),
          ),
        };
        payload.endResponse(
          new fetchAPI.Response(JSON.stringify(body), {
            status: ready ? 200 : 503,
            headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
          }),
        );
      });
    },
  };
}
