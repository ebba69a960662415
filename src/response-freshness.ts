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

  /**
   * How long the response stays fresh: until its first payload goes stale, or, when it read none (the catalogue),
   * `noPayloadMaxAgeS` from whenever it is sent.
   */
  freshness(noPayloadMaxAgeS: number): Freshness {
    return this.earliestFreshUntil === undefined ? { fixedS: noPayloadMaxAgeS } : { untilMs: this.earliestFreshUntil };
  }
}

/** How long an answer stays fresh: until a moment, or for a fixed time after it is sent. */
export type Freshness = { readonly untilMs: number } | { readonly fixedS: number };

/** The max-age, in whole seconds, of an answer sent at `nowMs`. */
export function maxAgeS(freshness: Freshness, nowMs: number): number {
  return 'fixedS' in freshness ? freshness.fixedS : Math.max(0, Math.floor((freshness.untilMs - nowMs) / 1000));
}

/** When an answer made at `nowMs` stops being fresh (ms since the epoch). */
export function freshUntil(freshness: Freshness, nowMs: number): number {
  return 'fixedS' in freshness ? nowMs + freshness.fixedS * 1000 : freshness.untilMs;
}
