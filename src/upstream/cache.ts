/** What is kept beside a payload: when it was fetched and confirmed, and the upstream's caching headers. */
export interface PayloadMeta {
  /** The ETag, or a hash of the body: changes when the payload changes. */
  readonly version: string;
  /** When the body was downloaded (ms since the epoch, by the source's clock). */
  readonly fetchedAt: number;
  /** When the upstream last confirmed it: the download, or a later 304. */
  readonly validatedAt: number;
  readonly cacheControl?: string;
  readonly etag?: string;
  readonly lastModified?: string;
  /** The body's size in UTF-8 bytes. */
  readonly bytes?: number;
}

export interface CachedPayload {
  readonly meta: PayloadMeta;
  /** The body, parsed. */
  readonly value: unknown;
}

export interface PayloadToStore extends CachedPayload {
  /** The body's text: what Redis keeps, and what the byte bound counts. */
  readonly body: string;
}

/** Releases a fill lock; never rejects. */
export type ReleaseLock = () => Promise<void>;

/**
 * Upstream payloads shared across requests (and, in Redis, across instances). Keys are the source's logical
 * keys; the cache adds its own prefix. Entries carry their meta and the source decides freshness: the cache
 * only keeps entries for the `keepMs` it is told, and within its byte bound. Implemented by memory-cache.ts and
 * redis-cache.ts; create-cache.ts picks one.
 */
export interface PayloadCache {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<CachedPayload | undefined>;
  /** Keeps `payload` for `keepMs` (> 0) at most. */
  set(key: string, payload: PayloadToStore, keepMs: number): Promise<void>;
  /** After a 304: replaces the meta of the entry if it still holds that version, without sending the body again. */
  touch(key: string, meta: PayloadMeta, keepMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Deletes every entry whose key starts with `prefix`; answers how many this process held. `local` drops only
   * this process's copies; `shared` also the entries every instance reads (Redis), which one instance does once.
   */
  deletePrefix(prefix: string, scope: 'local' | 'shared'): Promise<number>;
  /**
   * Claims the right to fill `key`, so that instances sharing the cache call the upstream once: a release
   * function when this caller should fetch, undefined when another holds the claim. The claim lasts until
   * released, or until its holder dies and a short lease runs out (see redis-cache.ts). A cache that is not
   * shared always grants it (its process already shares one fetch per key).
   */
  lock(key: string): Promise<ReleaseLock | undefined>;
  /** Bytes of payload bodies held in this process now (the memory cache's entries, or Redis's parsed copies). */
  localBytes(): number;
  /** Drops local state and closes any connection. */
  close(): Promise<void>;
}
