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

/**
 * The data a seed generates before any revision: the world, records and unfiltered bodies, made once per process
 * and shared by every store of that seed (a test run starts dozens of simulators on a few seeds; generating and
 * serialising the same data for each was seconds of CPU). Nothing here is ever changed: a store's revisions live in
 * its own maps, over these. A process keeps at most a few seeds' data.
 */
interface Generated {
  world: World | undefined;
  readonly records: Map<string, readonly DataRecord[]>;
  readonly bodies: Map<DatasetCode, ServedBody>;
}

const MAX_SEEDS_KEPT = 4;
const generatedBySeed = new Map<number, Generated>();

function generatedFor(seed: number): Generated {
  let generated = generatedBySeed.get(seed);
  if (generated === undefined) {
    if (generatedBySeed.size >= MAX_SEEDS_KEPT) {
      const oldest = generatedBySeed.keys().next().value;
      if (oldest !== undefined) generatedBySeed.delete(oldest);
    }
    generated = { world: undefined, records: new Map(), bodies: new Map() };
    generatedBySeed.set(seed, generated);
  }
  return generated;
}

export class DataStore {
  private readonly generated: Generated;
  /** This store's published revisions, over the generated data. */
  private readonly records = new Map<string, readonly DataRecord[]>();
  private readonly bodies = new Map<DatasetCode, ServedBody>();
  private readonly revised = new Map<DatasetCode, Date>();

  constructor(readonly seed: number) {
    this.generated = generatedFor(seed);
  }

  private getWorld(): World {
    this.generated.world ??= buildWorld(this.seed);
    return this.generated.world;
  }

  datasetRecords(code: DatasetCode): readonly DataRecord[] {
    const published = this.records.get(code);
    if (published) return published;
    let records = this.generated.records.get(code);
    if (!records) {
      records = datasetRecords(code, this.getWorld());
      this.generated.records.set(code, records);
    }
    return records;
  }

  /** The unfiltered answer of a dataset. */
  datasetBody(code: DatasetCode): ServedBody {
    const revised = this.revised.has(code);
    const bodies = revised ? this.bodies : this.generated.bodies;
    let body = bodies.get(code);
    if (!body) {
      body = envelope(this.datasetRecords(code));
      bodies.set(code, body);
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
    let records = this.generated.records.get(key);
    if (!records) {
      records = summaryRecords(id, this.getWorld());
      this.generated.records.set(key, records);
    }
    return records;
  }
}
