/**
 * What one simulator instance serves: the world of its seed, built on first use, and per dataset the records and
 * the serialised bytes of the unfiltered answer with their ETag, each made once on first request.
 */
import { createHash } from 'node:crypto';
import type { DatasetCode } from '../catalogue.js';
import { datasetRecords, type DataRecord } from './datasets.js';
import { summaryRecords } from './summaries.js';
import { buildWorld, type World } from './world.js';

export interface ServedBody {
  readonly bytes: Buffer;
  /** Strong validator: a quoted hash of the bytes. */
  readonly etag: string;
}

/** The upstream's answer envelope, as bytes. */
export function envelope(records: readonly DataRecord[]): ServedBody {
  const bytes = Buffer.from(JSON.stringify({ status: 200, data: records, total: records.length }), 'utf8');
  return { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url')}"` };
}

export class DataStore {
  private world: World | undefined;
  private readonly records = new Map<string, readonly DataRecord[]>();
  private readonly bodies = new Map<DatasetCode, ServedBody>();
  private readonly revised = new Map<DatasetCode, Date>();

  constructor(readonly seed: number) {}

  private getWorld(): World {
    this.world ??= buildWorld(this.seed);
    return this.world;
  }

  datasetRecords(code: DatasetCode): readonly DataRecord[] {
    let records = this.records.get(code);
    if (!records) {
      records = datasetRecords(code, this.getWorld());
      this.records.set(code, records);
    }
    return records;
  }

  /** The unfiltered answer of a dataset. */
  datasetBody(code: DatasetCode): ServedBody {
    let body = this.bodies.get(code);
    if (!body) {
      body = envelope(this.datasetRecords(code));
      this.bodies.set(code, body);
    }
    return body;
  }

  /** Replaces a dataset's records, as when the agency publishes revised figures: new bytes, ETag and Last-Modified. */
  publish(code: DatasetCode, records: readonly DataRecord[], at: Date): void {
    this.records.set(code, records);
    this.bodies.delete(code);
    this.revised.set(code, at);
  }

  /**
   * Revised figures for a dataset, as an agency publishes them: every record's counts (its number fields) grow by
   * `step`, so the record count and the fields stay and only the figures change. Answers the records published.
   */
  revise(code: DatasetCode, step: number, at: Date): readonly DataRecord[] {
    const revised = this.datasetRecords(code).map((record) => {
      const copy: Record<string, string | number> = {};
      for (const [name, value] of Object.entries(record)) copy[name] = typeof value === 'number' ? value + step : value;
      return copy;
    });
    this.publish(code, revised, at);
    return revised;
  }

  /** When the dataset last changed: its revision, or else the fixed date of the generated data. */
  lastModified(code: DatasetCode, initial: string): string {
    return this.revised.get(code)?.toUTCString() ?? initial;
  }

  summaryRecords(id: number): readonly DataRecord[] {
    const key = `summary:${id}`;
    let records = this.records.get(key);
    if (!records) {
      records = summaryRecords(id, this.getWorld());
      this.records.set(key, records);
    }
    return records;
  }
}
