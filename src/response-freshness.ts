import type { PayloadRead } from './upstream/source.js';

/** A payload field of the response that is served past its freshness, and why. */
export interface StaleField {
  readonly path: readonly (string | number)[];
  readonly state: Exclude<PayloadRead['state'], 'fresh'>;
  /** When it went stale (ISO 8601). */
  readonly since: string;
  /** When the upstream last sent or confirmed it (ISO 8601). */
  readonly fetchedAt: string;
}

/**
 * What one GraphQL response is made of, as far as its caching goes: every upstream payload it read, how fresh
 * each was, and whether any was a summary payload (private to an approved client). Resolvers record into it;
 * the freshness plugin reads it to add `extensions.stale` and to choose the response's Cache-Control.
 */
export class ResponseFreshness {
  private readonly stale: StaleField[] = [];
  private earliestFreshUntil: number | undefined;
  private summaryRead = false;

  record(path: readonly (string | number)[], read: PayloadRead, kind: 'dataset' | 'summary'): void {
    if (kind === 'summary') this.summaryRead = true;
    const freshUntil = read.freshUntil.getTime();
    this.earliestFreshUntil = Math.min(this.earliestFreshUntil ?? freshUntil, freshUntil);
    if (read.state !== 'fresh') {
      this.stale.push({
        path,
        state: read.state,
        since: (read.staleSince ?? read.freshUntil).toISOString(),
        fetchedAt: read.validatedAt.toISOString(),
      });
    }
  }

  get staleFields(): readonly StaleField[] {
    return this.stale;
  }

  get involvesSummary(): boolean {
    return this.summaryRead;
  }

  /** When the first payload in the response stops being fresh (ms since the epoch); undefined when it read none. */
  get freshUntilMs(): number | undefined {
    return this.earliestFreshUntil;
  }

  /** Seconds for which every payload in the response stays fresh; undefined when it read none. */
  freshForS(nowMs: number): number | undefined {
    return this.earliestFreshUntil === undefined ? undefined : secondsUntil(this.earliestFreshUntil, nowMs);
  }
}

/** Whole seconds from `nowMs` until `untilMs`, never negative: a max-age. */
export function secondsUntil(untilMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((untilMs - nowMs) / 1000));
}
