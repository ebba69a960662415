import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { requestStateOf } from '../../helpers/request-state.js';
import { createReadiness, readyRoute, type ReadinessCheck } from '../../../src/server/observability/use-readiness.js';

const CHECK_TIMEOUT_MS = 100;

/** A check whose answers the test gives, one per call, counting its calls. */
function controlledCheck(name: string): ReadinessCheck & { calls: number; answer(ok: boolean): void } {
  let settle: ((ok: boolean) => void) | undefined;
  const check = {
    name,
    calls: 0,
    check: () => {
      check.calls += 1;
      return new Promise<boolean>((resolve) => {
        settle = resolve;
      });
    },
    answer: (ok: boolean) => settle?.(ok),
  };
  return check;
}

/** /ready's route alone, over `checks`; each answer timed. */
function readyEndpoint(checks: readonly ReadinessCheck[]) {
  const readiness = createReadiness(
    checks,
    pino({ level: 'silent' }),
    { shuttingDown: () => false, upstreamSimulated: false },
    CHECK_TIMEOUT_MS,
  );
  const route = readyRoute(readiness);
  return async () => {
    const started = performance.now();
    const request = new Request('http://localhost/ready');
    const response = await route.handle(request, requestStateOf(request));
    const body = (await response.json()) as { status: string; checks: Record<string, { status: string }> };
    return { status: response.status, body, ms: performance.now() - started };
  };
}

describe('/ready with a check that hangs', () => {
  it('answers within READINESS_CHECK_TIMEOUT_MS, the check failing, and never runs it twice at once', async () => {
    const store = controlledCheck('store');
    const ready = readyEndpoint([store, { name: 'other', check: () => Promise.resolve(true) }]);

    const first = await ready();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'degraded',
      checks: { store: { status: 'failing' }, other: { status: 'ok' } },
    });
    // The bound, with room for a loaded machine: the point is that it does not wait for the check.
    expect(first.ms).toBeLessThan(CHECK_TIMEOUT_MS + 1_000);

    // Still hung: answered from that at once, and the hung check is not started again.
    const second = await ready();
    expect(second.body.checks['store']?.status).toBe('failing');
    expect(store.calls).toBe(1);

    // It answers at last: the next report runs it anew, and it passes.
    store.answer(true);
    await new Promise((resolve) => setImmediate(resolve));
    const answering = ready();
    while (store.calls < 2) await new Promise((resolve) => setImmediate(resolve));
    store.answer(true);
    const third = await answering;
    expect(store.calls).toBe(2);
    expect(third.body).toMatchObject({ status: 'ready', checks: { store: { status: 'ok' } } });
  });
});
