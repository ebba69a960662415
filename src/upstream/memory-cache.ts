import { LRUCache } from 'lru-cache';
import type { PayloadCache, PayloadMeta } from './cache.js';

interface MemoryEntry {
  readonly meta: PayloadMeta;
  readonly value: unknown;
  /** The body's size in bytes: what the bound counts (the parsed value itself is not measurable cheaply). */
  readonly bytes: number;
}

const grantedEverywhere = (): Promise<void> => Promise.resolve();

/**
 * Payloads in this process: lru-cache, bounded by the bytes of the bodies (maxSize + sizeCalculation), least
 * recently used out first, each entry dropped after its `keepMs`. The parsed value is kept, so a body is parsed
 * once however often it is read. lru-cache's own fetch/stale machinery is not used: the source applies the same
 * freshness rules to both caches, and Redis has no such machinery.
 */
export function createMemoryCache({ maxBytes, onEvict }: { maxBytes: number; onEvict?: () => void }): PayloadCache {
  const entries = new LRUCache<string, MemoryEntry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
    ...(onEvict && { dispose: (_entry, _key, reason) => reason === 'evict' && onEvict() }),
  });
  return {
    kind: 'memory',
    get(key) {
      const entry = entries.get(key);
      return Promise.resolve(entry && { meta: entry.meta, value: entry.value });
    },
    set(key, payload, keepMs) {
      entries.set(
        key,
        { meta: payload.meta, value: payload.value, bytes: Buffer.byteLength(payload.body) },
        { ttl: keepMs },
      );
      return Promise.resolve();
    },
    touch(key, meta, keepMs) {
      const entry = entries.peek(key);
      if (entry?.meta.version === meta.version) entries.set(key, { ...entry, meta }, { ttl: keepMs });
      return Promise.resolve();
    },
    delete(key) {
      entries.delete(key);
      return Promise.resolve();
    },
    // Nothing is shared with other instances: both scopes are this process's entries.
    deletePrefix(prefix) {
      let dropped = 0;
      for (const key of [...entries.keys()]) if (key.startsWith(prefix) && entries.delete(key)) dropped += 1;
      return Promise.resolve(dropped);
    },
    lock: () => Promise.resolve(grantedEverywhere),
    localBytes: () => entries.calculatedSize,
    close() {
      entries.clear();
      return Promise.resolve();
    },
  };
}
