import type { Logger } from 'pino';

/**
 * Remembers the shape (field fingerprint) last seen for each dataset and warns once when a new version of a
 * payload has another: the upstream changed its fields, and clients built against the old ones deserve to know.
 */
export class ShapeWatch {
  private readonly seen = new Map<string, { fingerprint: string; version: string }>();

  constructor(private readonly logger: Logger) {}

  observe(dataset: string, version: string, fingerprint: string): void {
    const previous = this.seen.get(dataset);
    if (previous?.version === version) return;
    this.seen.set(dataset, { fingerprint, version });
    if (previous !== undefined && previous.fingerprint !== fingerprint) {
      this.logger.warn(
        { dataset, previousFingerprint: previous.fingerprint, fingerprint },
        'upstream record shape changed: clients built against the old fields may break',
      );
    }
  }
}
