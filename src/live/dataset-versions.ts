import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { DatasetCode } from '../catalogue.js';

/** What the watcher last recorded of a dataset's unfiltered payload. */
export interface DatasetVersion {
  /** A content hash of the body (sha256): equal bodies, equal versions, whatever the upstream's ETag says. */
  readonly version: string;
  readonly recordCount: number;
  /** The records engine's shape fingerprint (field names and types), to tell a reshaped payload. */
  readonly shapeFingerprint: string;
  /** When this version was first seen (ms since the epoch): its Last-Modified when the first look found it. */
  readonly changedAt: number;
  /** The validators of the answer that carried it, for the next conditional request. */
  readonly etag?: string | undefined;
  readonly lastModified?: string | undefined;
}

/**
 * The versions the watcher recorded, per dataset: in this process without Redis, in one Redis hash with it, so
 * that a new leader goes on from where the last one stopped and every instance answers `Dataset.version` alike.
 */
export interface DatasetVersions {
  get(code: DatasetCode): Promise<DatasetVersion | undefined>;
  set(code: DatasetCode, version: DatasetVersion): Promise<void>;
}

// A bound on each text read back from Redis, which another (or a hostile) writer may have filled.
const MAX_TEXT = 1_024;
const versionSchema = z.object({
  version: z.string().min(1).max(MAX_TEXT),
  recordCount: z.number().int().min(0),
  shapeFingerprint: z.string().max(MAX_TEXT),
  changedAt: z.number().int().min(0),
  etag: z.string().max(MAX_TEXT).optional(),
  lastModified: z.string().max(MAX_TEXT).optional(),
});

export function createMemoryVersions(): DatasetVersions {
  const versions = new Map<DatasetCode, DatasetVersion>();
  return {
    get: (code) => Promise.resolve(versions.get(code)),
    set: (code, version) => {
      versions.set(code, version);
      return Promise.resolve();
    },
  };
}

/** One hash, `<prefix>dataset-versions`, a field per dataset code holding its version as JSON. */
export function createRedisVersions(redis: Redis, keyPrefix: string): DatasetVersions {
  const key = `${keyPrefix}dataset-versions`;
  return {
    async get(code) {
      const text = await redis.hget(key, code);
      if (text === null || text.length > 16 * MAX_TEXT) return undefined;
      try {
        const checked = versionSchema.safeParse(JSON.parse(text));
        return checked.success ? checked.data : undefined;
      } catch {
        return undefined;
      }
    },
    async set(code, version) {
      await redis.hset(key, code, JSON.stringify(version));
    },
  };
}
