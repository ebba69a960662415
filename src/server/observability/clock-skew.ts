import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';

/**
 * This instance's clock against the clocks it shares with the others. Instances decide with their own clock whether
 * a rotated key's grace is over or a key has expired, while the audit trail is written on the store's and the rate
 * limits count on Redis's: an instance whose clock is off accepts a key another refuses, and nothing else shows it.
 * So every CLOCK_SKEW_INTERVAL_MS each reference's clock is read, the round trip halved (the reference read its
 * clock, on average, half-way through), and the difference exported (`clock_skew_seconds`) and logged once each
 * time it crosses CLOCK_SKEW_WARN_S.
 */
export type ClockReference = 'store' | 'redis';

export interface ClockSource {
  readonly against: ClockReference;
  /** The reference's clock now in ms since the epoch; undefined when it has none of its own (SQLite). */
  readonly read: () => Promise<number | undefined>;
}

export interface ClockSkewOptions {
  readonly sources: readonly ClockSource[];
  /** This instance's wall clock (Date.now), the one its key expiries and graces are decided on. */
  readonly now: () => number;
  readonly logger: Logger;
  /** Told each measurement in seconds (positive: this instance ahead), or undefined when it could not be made. */
  readonly report: (against: ClockReference, skewS: number | undefined) => void;
  readonly intervalMs?: number;
  /** How soon a measurement that could not be made is tried again (CLOCK_SKEW_RETRY_MS). */
  readonly retryMs?: number;
  readonly warnS?: number;
}

export interface ClockSkewWatch {
  /** Measures against every reference now (one measurement at a time: a call while one runs waits for it). */
  measure(): Promise<void>;
  close(): void;
}

/** Once a minute: one cheap query to each reference, off the request path. */
export const CLOCK_SKEW_INTERVAL_MS = 60_000;
/**
 * A measurement that could not be made (the reference away or still opening, a round trip too long to say anything)
 * is tried again this soon rather than a whole interval later: the first one is made as the server starts, when the
 * store may still be opening and the machine busy, and its series would otherwise be missing for a minute.
 */
export const CLOCK_SKEW_RETRY_MS = 5_000;
/** Far beyond what NTP keeps hosts to (milliseconds), and well within what a key's expiry or grace tolerates. */
export const CLOCK_SKEW_WARN_S = 1;
// A reading whose round trip took longer than this says little (the reference may have read its clock anywhere in
// it): skipped, the previous measurement stands.
const MAX_ROUND_TRIP_MS = 1_000;

export function watchClockSkew(options: ClockSkewOptions): ClockSkewWatch {
  const { sources, now, logger, report } = options;
  const warnS = options.warnS ?? CLOCK_SKEW_WARN_S;
  const over = new Set<ClockReference>();

  const measureOne = async ({ against, read }: ClockSource): Promise<boolean> => {
    const sentAt = now();
    const started = performance.now();
    let theirs: number | undefined;
    try {
      theirs = await read();
      if (theirs !== undefined && !Number.isFinite(theirs)) throw new Error(`the ${against} told no time`);
    } catch (error) {
      // Unknown while the reference is away: no series rather than a stale one (its outage is reported elsewhere).
      logger.debug({ err: error, against }, 'clock skew not measured');
      report(against, undefined);
      return false;
    }
    const roundTripMs = performance.now() - started;
    if (theirs === undefined) {
      // No clock of its own (SQLite): nothing to measure, now or later.
      report(against, undefined);
      return true;
    }
    if (roundTripMs > MAX_ROUND_TRIP_MS) return false;
    const skewS = (sentAt + roundTripMs / 2 - theirs) / 1_000;
    report(against, skewS);
    const beyond = Math.abs(skewS) > warnS;
    if (beyond === over.has(against)) return true;
    const facts = { against, skewS: Math.round(skewS * 1_000) / 1_000, roundTripMs: Math.round(roundTripMs) };
    if (beyond) {
      over.add(against);
      logger.warn(
        facts,
        `this instance's clock is ${Math.abs(facts.skewS)} s ${skewS > 0 ? 'ahead of' : 'behind'} the ${against}'s: key expiries and graces are decided on it (fix its time synchronisation)`,
      );
    } else {
      over.delete(against);
      logger.info(facts, `this instance's clock agrees with the ${against}'s again`);
    }
    return true;
  };

  let running: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  const measure = (): Promise<void> => {
    running ??= Promise.all(sources.map(measureOne))
      .then((measured) => {
        if (closed || retry !== undefined || measured.every(Boolean)) return;
        retry = setTimeout(() => {
          retry = undefined;
          void measure();
        }, options.retryMs ?? CLOCK_SKEW_RETRY_MS).unref();
      })
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void measure(), options.intervalMs ?? CLOCK_SKEW_INTERVAL_MS).unref();
  void measure();
  return {
    measure,
    close: () => {
      closed = true;
      clearInterval(timer);
      clearTimeout(retry);
    },
  };
}
