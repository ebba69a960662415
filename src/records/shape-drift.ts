import type { Logger } from 'pino';
import { shapeDrift, type RecordShape, type ShapeDrift } from './shapes.js';

/**
 * What a drift report (an answer's `extensions.shapeDrift`, a log line) lists at most: a hostile or broken
 * upstream may send any number of keys of any length, and every answer would carry them.
 */
export const MAX_REPORTED_DRIFT_KEYS = 50;
export const MAX_REPORTED_KEY_LENGTH = 256;

/** A drift as reported: each list cut to MAX_REPORTED_DRIFT_KEYS keys of at most MAX_REPORTED_KEY_LENGTH characters. */
export interface ReportedDrift extends ShapeDrift {
  /** How many keys the lists leave out; present only when they leave some out. */
  readonly omitted?: number;
}

function reported(drift: ShapeDrift): ReportedDrift {
  const key = (text: string): string =>
    text.length > MAX_REPORTED_KEY_LENGTH ? `${text.slice(0, MAX_REPORTED_KEY_LENGTH)}…` : text;
  const vanished = drift.vanished.slice(0, MAX_REPORTED_DRIFT_KEYS).map(key);
  const added = drift.added.slice(0, MAX_REPORTED_DRIFT_KEYS).map(key);
  const retyped = drift.retyped.slice(0, MAX_REPORTED_DRIFT_KEYS).map((entry) => ({ ...entry, key: key(entry.key) }));
  const omitted =
    drift.vanished.length + drift.added.length + drift.retyped.length - vanished.length - added.length - retyped.length;
  return omitted > 0 ? { vanished, added, retyped, omitted } : { vanished, added, retyped };
}

/** Told of each answer made from a payload whose shape drifted from the checked-in one (for a metric). */
export type DriftListener = (dataset: string) => void;

/**
 * Compares each dataset's live record shape with the checked-in one (schema/shapes.json), once per payload
 * version, and logs the keys that moved once per change of the live shape. Holds one entry per dataset, so its
 * memory is bounded by the catalogue whatever the upstream sends.
 */
export class ShapeDriftWatch {
  private readonly seen = new Map<
    string,
    { readonly version: string; readonly drift: ReportedDrift | undefined; readonly logged: string }
  >();

  constructor(
    private readonly logger: Logger,
    private readonly onDrift: DriftListener = () => undefined,
  ) {}

  /** The drift of a payload version's live shape from the expected one, as reported, or undefined when it matches. */
  check(dataset: string, version: string, expected: RecordShape, live: () => RecordShape): ReportedDrift | undefined {
    const previous = this.seen.get(dataset);
    if (previous?.version === version) {
      if (previous.drift !== undefined) this.onDrift(dataset);
      return previous.drift;
    }
    const found = shapeDrift(expected, live());
    const drift = found === undefined ? undefined : reported(found);
    const described = JSON.stringify(drift ?? null);
    if (drift !== undefined && described !== previous?.logged) {
      this.logger.warn(
        { dataset, ...drift },
        'upstream record keys no longer match schema/shapes.json: vanished keys answer null, new keys are only in `node`; run `npm run shapes -- --check`',
      );
    } else if (drift === undefined && previous?.drift !== undefined) {
      this.logger.info({ dataset }, 'upstream record keys match schema/shapes.json again');
    }
    this.seen.set(dataset, { version, drift, logged: described });
    if (drift !== undefined) this.onDrift(dataset);
    return drift;
  }
}
