import type { Plugin } from 'graphql-yoga';

/** One dependency the server needs before it can answer well, e.g. the request-for-use store. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves when usable; rejects (or resolves false) with the reason otherwise. */
  check(): Promise<boolean>;
  /** Facts worth showing whatever the outcome, e.g. the upstream breaker's state. */
  describe?(): Record<string, string>;
}

export const READY_PATH = '/ready';

/**
 * `GET /ready`: 200 when every check passes, 503 otherwise, with a JSON body naming each check's result, so
 * a load balancer stops sending traffic to an instance that cannot serve and an operator can see why.
 */
export function useReadiness(checks: readonly ReadinessCheck[]): Plugin {
  return {
    async onRequest(payload) {
      const { request, url, fetchAPI } = payload;
      if (url.pathname !== READY_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      const results = await Promise.all(
        checks.map(async (readiness) => {
          const { name } = readiness;
          const facts = readiness.describe?.() ?? {};
          try {
            return { name, facts, ok: await readiness.check(), reason: undefined };
          } catch (error) {
            return { name, facts, ok: false, reason: error instanceof Error ? error.message : String(error) };
          }
        }),
      );
      const ready = results.every((result) => result.ok);
      const body = {
        status: ready ? 'ready' : 'not_ready',
        checks: Object.fromEntries(
          results.map(({ name, facts, ok, reason }) => [
            name,
            ok ? { status: 'ok', ...facts } : { status: 'failing', reason: reason ?? 'check failed', ...facts },
          ]),
        ),
      };
      payload.endResponse(
        new fetchAPI.Response(JSON.stringify(body), {
          status: ready ? 200 : 503,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        }),
      );
    },
  };
}
