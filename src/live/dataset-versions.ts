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
  /** The recorded versions of `codes` in one read (with Redis, one HMGET): what a catalogue of all 13 needs. */
  many(codes: readonly DatasetCode[]): Promise<ReadonlyMap<DatasetCode, DatasetVersion>>;
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
    many: (codes) => {
      const found = new Map<DatasetCode, DatasetVersion>();
      for (const code of codes) {
        const version = versions.get(code);
        if (version !== undefined) found.set(code, version);
      }
      return Promise.resolve(found);
    },
  };
}

/** One hash, `<prefix>dataset-versions`, a field per dataset code holding its version as JSON. */
export function createRedisVersions(redis: Redis, keyPrefix: string): DatasetVersions {
  const key = `${keyPrefix}dataset-versions`;
  return {
    async get(code) {
      return parsedVersion(await redis.hget(key, code));
    },
    async set(code, version) {
      await redis.hset(key, code, JSON.stringify(version));
    },
    async many(codes) {
      const versions = new Map<DatasetCode, DatasetVersion>();
      if (codes.length === 0) return versions;
      const texts = await redis.hmget(key, ...codes);
      codes.forEach((code, i) => {
        const version = parsedVersion(texts[i] ?? null);
        if (version !== undefined) versions.set(code, version);
      });
      return versions;
    },
  };
}

/** A version as stored in the hash; undefined when absent, too long or not one (another writer's). */
function parsedVersion(text: string | null): DatasetVersion | undefined {
  if (text === null || text.length > 16 * MAX_TEXT) return undefined;
  try {
    const checked = versionSchema.safeParse(JSON.parse(text));
    return checked.success ? checked.data : undefined;
  } catch {
    return undefined;
  }
}
