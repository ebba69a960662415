import type { Logger } from 'pino';
import { shapeDrift, type RecordShape, type ShapeDrift } from './shapes.js';

/** Told of each answer made from a payload whose shape drifted from the checked-in one (for a metric). */
export type DriftListener = (dataset: string) => void;

/**
 * Compares each dataset's live record shape with the checked-in one (schema/shapes.json), once per payload
 * version, and logs the keys that moved once per change of the live shape. Holds one entry per dataset, so its
 * memory is bounded by the catalogue whatever the upstream sends.
 */
export class ShapeDriftWatch {
  private readonly seen = new Map<string, { readonly version: string; readonly drift: ShapeDrift | undefined; readonly logged: string }>();

  constructor(
    private readonly logger: Logger,
    private readonly onDrift: DriftListener = () => undefined,
  ) {}

  /** The drift of a payload version's live shape from the expected one, or undefined when it matches. */
  check(dataset: string, version: string, expected: RecordShape, live: () => RecordShape): ShapeDrift | undefined {
    const previous = this.seen.get(dataset);
    if (previous?.version === version) {
      if (previous.drift !== undefined) this.onDrift(dataset);
      return previous.drift;
    }
    const drift = shapeDrift(expected, live());
    const described = JSON.stringify(drift ?? null);
    if (drift !== undefined && described !== previous?.logged) {
      this.logger.warn(
        { dataset, vanished: drift.vanished, added: drift.added, retyped: drift.retyped },
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
