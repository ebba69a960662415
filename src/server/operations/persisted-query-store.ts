import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** Where automatic persisted queries are remembered, by the SHA-256 hash of their text. */
export interface PersistedQueryStore {
  /** The document registered under this hash; undefined when unknown, forgotten, or the store is unreachable. */
  get(hash: string): Promise<string | undefined>;
  /** Remembers a document, evicting the oldest to stay within the bound; never rejects. */
  set(hash: string, document: string): Promise<void>;
}

export interface PersistedQueryStoreOptions {
  /** Bound on the documents held, each counted at its UTF-8 length plus ENTRY_OVERHEAD_BYTES. */
  readonly maxBytes: number;
  /** A longer document runs but is not remembered (its client just sends it again). */
  readonly maxDocumentBytes: number;
  /** A document not registered again for this long is forgotten; a week unless given. */
  readonly ttlS?: number | undefined;
  /** Shared by every instance when given; this process's memory otherwise. */
  readonly redis?: Redis | undefined;
  /** Prefix of the Redis keys (`<prefix>:documents`, `:registered`, `:bytes`). */
  readonly keyPrefix?: string | undefined;
}

/**
 * What one entry costs besides its text: the 64-character hash and the store's bookkeeping. Counting it keeps
 * a flood of tiny documents (`{__typename}` with ever different whitespace) within the bound too.
 */
export const ENTRY_OVERHEAD_BYTES = 256;

// Registered documents outlive a deployment of the app that sent them only by this much.
const DEFAULT_TTL_S = 7 * 24 * 3_600;

/**
 * The store of registered documents, bounded in bytes: anyone may register (that is the protocol), so only its
 * size keeps registrations from filling the memory or the Redis of the deployment.
 */
export function createPersistedQueryStore(options: PersistedQueryStoreOptions): PersistedQueryStore {
  const ttlMs = (options.ttlS ?? DEFAULT_TTL_S) * 1_000;
  const store =
    options.redis === undefined
      ? memoryStore(options.maxBytes, ttlMs)
      : redisStore(options.redis, options.keyPrefix ?? 'apq', options.maxBytes, ttlMs);
  return {
    get: (hash) => store.get(hash),
    set: (hash, document) =>
      Buffer.byteLength(document) > options.maxDocumentBytes ? Promise.resolve() : store.set(hash, document),
  };
}

function entryBytes(document: string): number {
  return Buffer.byteLength(document) + ENTRY_OVERHEAD_BYTES;
}

/** Least recently used first out, when the next one would pass the bound. */
function memoryStore(maxBytes: number, ttlMs: number): PersistedQueryStore {
  const documents = new LRUCache<string, string>({ maxSize: maxBytes, sizeCalculation: entryBytes, ttl: ttlMs });
  return {
    get: (hash) => Promise.resolve(documents.get(hash)),
    set: (hash, document) => {
      documents.set(hash, document);
      return Promise.resolve();
    },
  };
}

/*
 * A capped sorted set: the documents in one hash, their registration times in a sorted set, and the bytes they
 * count in a counter, changed together by one script, so the bound holds across instances exactly. Registering
 * drops what has expired (a few at a time), then the oldest until the new document fits. Unlike a counter that
 * refuses registrations once full, the store keeps working after a flood, which only pushes older documents out
 * (their clients register them again); unlike one key per document with a TTL, its size does not depend on how
 * fast documents arrive. Reads are a plain HGET: a document matches its hash however old it is.
 */
const SET_SCRIPT = `
local max = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
local overhead = tonumber(ARGV[5])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bytes = tonumber(redis.call('GET', KEYS[3]) or '0')
local function drop(hash)
  bytes = bytes - redis.call('HSTRLEN', KEYS[1], hash) - overhead
  redis.call('HDEL', KEYS[1], hash)
  redis.call('ZREM', KEYS[2], hash)
end
for _, hash in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl, 'LIMIT', 0, 100)) do drop(hash) end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then drop(ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], now, ARGV[1])
bytes = bytes + string.len(ARGV[2]) + overhead
while bytes > max do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if oldest == nil then bytes = 0 break end
  drop(oldest)
end
redis.call('SET', KEYS[3], bytes)
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ttl) end
return bytes
`;

/** When Redis fails, a hash is just not found: the client sends its document again, and nothing breaks. */
function redisStore(redis: Redis, prefix: string, maxBytes: number, ttlMs: number): PersistedQueryStore {
  const keys = [`${prefix}:documents`, `${prefix}:registered`, `${prefix}:bytes`] as const;
  return {
    get: (hash) =>
      redis.hget(keys[0], hash).then(
        (document) => document ?? undefined,
        () => undefined,
      ),
    set: (hash, document) =>
      redis.eval(SET_SCRIPT, keys.length, ...keys, hash, document, maxBytes, ttlMs, ENTRY_OVERHEAD_BYTES).then(
        () => undefined,
        () => undefined,
      ),
  };
}
