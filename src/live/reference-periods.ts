/**
 * Each dataset's reference period, read from its records: the smallest and largest of its year field (ACADEMIC_YEAR
 * or ปีการศึกษา), or "as of" the day they were read when it has none. Through the upstream cache (the feeds read what
 * queries and downloads read, usually a cache hit), scanned once per payload version, and bounded: a read that fails
 * or is slower than `waitMs` gives no period (the feeds then omit it) rather than a failed or late feed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatasetCode } from '../catalogue.js';
import type { ReferencePeriod } from '../catalogue-metadata.js';
import { FIELD_NAMES, recordsView, type RecordSequence } from '../records/index.js';
import type { PayloadRead, UpstreamSource } from '../upstream/source.js';

/** The years a year field holds, or undefined when no record has one (a year is a 4-digit B.E. number). */
export function yearsOf(records: RecordSequence): { first: number; last: number } | undefined {
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < records.length; i++) {
    const record = records.record(i);
    for (const [key, value] of Object.entries(record)) {
      if (FIELD_NAMES[key] !== 'academicYear') continue;
      const year = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
      if (!Number.isInteger(year) || year < 2400 || year > 2700) continue;
      first = Math.min(first, year);
      last = Math.max(last, year);
    }
  }
  return first === Infinity ? undefined : { first, last };
}

/** What a period is read from: a dataset payload (its body, version and when it was fetched). */
export type PeriodSource = Pick<PayloadRead, 'value' | 'version' | 'fetchedAt'>;

/**
 * A dataset's period from a payload read, scanned once per payload version (the last version's answer is
 * remembered): one per server, shared by the feeds and GraphQL's `DatasetCoverage.referencePeriod`.
 */
export function periodScanner(): (code: DatasetCode, payload: PeriodSource) => ReferencePeriod {
  const known = new Map<DatasetCode, { version: string; period: ReferencePeriod }>();
  return (code, payload) => {
    const last = known.get(code);
    if (last?.version === payload.version) return last.period;
    const years = yearsOf(recordsView(payload.value, `${code}?#${payload.version}`).matches());
    const period: ReferencePeriod =
      years === undefined ? { kind: 'AS_OF', date: payload.fetchedAt } : { kind: 'YEARS', ...years };
    known.set(code, { version: payload.version, period });
    return period;
  };
}

/** A reader of each dataset's period for the feeds, bounded by `waitMs`. */
export function referencePeriodReader(
  source: Pick<UpstreamSource, 'readDataset'>,
  waitMs: number,
  scan: (code: DatasetCode, payload: PeriodSource) => ReferencePeriod = periodScanner(),
): (code: DatasetCode) => Promise<ReferencePeriod | undefined> {
  const read = async (code: DatasetCode): Promise<ReferencePeriod> => scan(code, await source.readDataset(code, ''));
  return (code) => {
    const stop = new AbortController();
    const late = sleep(waitMs, undefined, { signal: stop.signal }).catch(() => undefined);
    return Promise.race([read(code).catch(() => undefined), late]).finally(() => stop.abort());
  };
}
