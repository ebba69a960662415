import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import type { Logger } from 'pino';

export type BreakerState = 'closed' | 'open' | 'half-open';

/** Consecutive outages (time-outs, connection failures) that open the circuit. */
const BREAKER_THRESHOLD = 3;

export interface Breaker {
  /**
   * Runs one attempt through the circuit. Only errors `isOutage` accepts count against it; any other outcome,
   * an error status or a body that is not JSON included, shows the upstream is there and resets the count.
   * While the circuit is open, and while its one probe is out, it rejects at once with a BrokenCircuitError.
   */
  run<T>(attempt: () => Promise<T>): Promise<T>;
  /** 'half-open' also once the cool-down is over and the next call will be the probe. */
  state(): BreakerState;
}

export interface BreakerOptions {
  /** What the circuit guards, as log lines name it; default 'upstream'. */
  readonly dependency?: string;
  /** Names the instance of it in log lines, e.g. the upstream's origin. */
  readonly name: string;
  readonly cooldownMs: number;
  readonly isOutage: (error: Error) => boolean;
  readonly logger: Logger;
  /** The clock the cool-down is timed by, in ms; default Date.now. */
  readonly now?: () => number;
}

type Outcome<T> = { readonly value: T } | { readonly error: unknown };

/**
 * The circuit breaker of one upstream origin: cockatiel's policy (consecutive-failure breaker, half-open probe
 * after the cool-down), which keeps the state machine and its events out of our code. cockatiel times the
 * cool-down on Date.now, so it is told there is none and the cool-down is timed here, on `now`: an open circuit
 * lets no call reach cockatiel until it is over, and the next one is then cockatiel's probe.
 */
export function createBreaker({
  dependency = 'upstream',
  name,
  cooldownMs,
  isOutage,
  logger,
  now = () => Date.now(),
}: BreakerOptions): Breaker {
  const policy = circuitBreaker(handleWhen(isOutage), {
    halfOpenAfter: 0,
    breaker: new ConsecutiveBreaker(BREAKER_THRESHOLD),
  });
  let openedAt = 0;
  let shown: BreakerState = 'closed';
  const coolingDown = (): boolean => now() - openedAt < cooldownMs;
  policy.onBreak(() => {
    openedAt = now();
  });
  policy.onStateChange((state) => {
    const next = describe(state);
    if (next === shown) return;
    const line = { [dependency]: name, from: shown, to: next, cooldownMs };
    if (next === 'open') logger.warn(line, `${dependency} circuit opened: calls fail at once until the cool-down ends`);
    else logger.info(line, `${dependency} circuit ${next === 'closed' ? 'closed' : 'half-open: probing'}`);
    shown = next;
  });

  return {
    async run<T>(attempt: () => Promise<T>): Promise<T> {
      if (policy.state === CircuitState.Open && coolingDown()) throw new BrokenCircuitError();
      // cockatiel queues callers behind the probe; we fail them fast instead, so no call outlives its budget.
      if (policy.state === CircuitState.HalfOpen) throw new BrokenCircuitError();
      const outcome = await policy.execute(async (): Promise<Outcome<T>> => {
        try {
          return { value: await attempt() };
        } catch (error) {
          if (error instanceof Error && isOutage(error)) throw error;
          return { error };
        }
      });
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    },
    state() {
      const state = describe(policy.state);
      return state === 'open' && !coolingDown() ? 'half-open' : state;
    },
  };
}

function describe(state: CircuitState): BreakerState {
  if (state === CircuitState.Closed) return 'closed';
  if (state === CircuitState.HalfOpen) return 'half-open';
  return 'open';
}
