import type * as IORedis from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { PayloadCache, PayloadMeta } from './cache.js';
import { acquireLease, type Lease } from './redis-lease.js';
import { observeRedisCommands, type RedisCommandEvent } from './redis-commands.js';
import { closeRedis, type RedisLink } from './redis-link.js';

export interface RedisCacheOptions {
  /** This instance's connections to Redis, and the breaker its commands go through. */
  readonly link: RedisLink;
  /** Bound on the parsed bodies kept in this process: copies of Redis's entries, and the fallback while it is down. */
  readonly maxBytes: number;
  /** Bound on the payload bytes kept in Redis by every instance together. */
  readonly sharedMaxBytes: number;
  readonly keyPrefix: string;
  /** The fill lock's lease: how long a holder that died keeps the other instances waiting. */
  readonly lockLeaseMs: number;
  readonly logger: Logger | undefined;
  /** A parsed copy pushed out by `maxBytes`. */
  readonly onEvict?: (() => void) | undefined;
  /** Every command's round trip. */
  readonly onCommand?: ((event: RedisCommandEvent) => void) | undefined;
}

// Meta read back from Redis is checked like any outside input: another version of this server may have written it.
const metaSchema = z.object({
  version: z.string(),
  fetchedAt: z.number(),
  validatedAt: z.number(),
  cacheControl: z.string().optional(),
  etag: z.string().optional(),
  lastModified: z.string().optional(),
});

// The meta, and the body only when the caller's local copy is not of the stored version: a hit on a parsed copy
// moves a few hundred bytes instead of the whole body, and meta and body are read in one atomic step.
const GET_SCRIPT = `
local fields = redis.call('HMGET', KEYS[1], 'meta', 'version')
if not fields[1] then return nil end
if fields[2] == ARGV[1] then return {fields[1]} end
return {fields[1], redis.call('HGET', KEYS[1], 'body')}`;

/*
 * The byte bound of the shared cache, whatever Redis's own eviction policy: a ledger beside the entries, changed
 * only by these scripts so that every instance agrees. KEYS[1] is a sorted set of entry keys by expiry time,
 * KEYS[2] a hash of each entry's size, KEYS[3] their total; the entries follow. A write first forgets what has
 * expired (Redis dropped those entries itself), then deletes the entries nearest their expiry until the new one
 * fits; an entry larger than the whole bound is not stored. An entry Redis evicted on its own stays counted until
 * its expiry time: the ledger may over-count, never under-count, so the bound holds. The ledger keys live as long
 * as the longest-lived entry.
 */
const LEDGER = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local total = tonumber(redis.call('GET', KEYS[3]) or '0')
local function forget(key)
  total = total - tonumber(redis.call('HGET', KEYS[2], key) or '0')
  redis.call('HDEL', KEYS[2], key)
  redis.call('ZREM', KEYS[1], key)
end
local function save_ledger()
  if total < 0 then total = 0 end
  redis.call('SET', KEYS[3], total)
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
  local ttl = math.max(1, (tonumber(last) or now) - now)
  for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ttl) end
end
`;

// KEYS: the ledger, then the entry. ARGV: meta, version, body, keepMs, bound, overhead per entry. 1 when stored.
const SET_SCRIPT = `${LEDGER}
local keep = tonumber(ARGV[4])
local max = tonumber(ARGV[5])
local size = string.len(ARGV[1]) + string.len(ARGV[3]) + tonumber(ARGV[6])
for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, 100)) do forget(key) end
forget(KEYS[4])
if size > max then
  redis.call('UNLINK', KEYS[4])
  save_ledger()
  return 0
end
while total + size > max do
  local first = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if first == nil then total = 0 break end
  forget(first)
  redis.call('UNLINK', first)
end
redis.call('HSET', KEYS[4], 'meta', ARGV[1], 'version', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIRE', KEYS[4], keep)
redis.call('HSET', KEYS[2], KEYS[4], size)
redis.call('ZADD', KEYS[1], now + keep, KEYS[4])
total = total + size
save_ledger()
return 1`;

// After a 304: new meta for the entry, only if it still holds the version that was revalidated, and its new expiry.
// KEYS: the ledger, then the entry. ARGV: version, meta, keepMs.
const TOUCH_SCRIPT = `${LEDGER}
if redis.call('HGET', KEYS[4], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[4], 'meta', ARGV[2])
redis.call('PEXPIRE', KEYS[4], ARGV[3])
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[3]), KEYS[4])
save_ledger()
return 1`;

// KEYS: the ledger, then the entries to delete.
const DELETE_SCRIPT = `${LEDGER}
for i = 4, #KEYS do
  forget(KEYS[i])
  redis.call('UNLINK', KEYS[i])
end
save_ledger()
return 1`;

/** What the ledger counts for an entry besides its meta and body: Redis's own bookkeeping of a small hash. */
const ENTRY_OVERHEAD_BYTES = 200;

interface ParsedCopy {
  readonly meta: PayloadMeta;
  readonly value: unknown;
  readonly bytes: number;
}

/**
 * Payloads shared by every instance through Redis (ioredis): one hash per payload (meta, version, body text)
 * whose Redis TTL is how long it may still be served, a byte ledger that bounds them all (see LEDGER above),
 * and fill locks (leases, see redis-lease.ts) so that instances fill a key once. Bodies are parsed on read;
 * parsed copies are kept in a small local lru-cache, by key and checked by version. While Redis cannot be
 * used (down, or its breaker open: see redis-link.ts) those copies are the cache: reads, writes and locks go on
 * in this process alone, with no wait and no log line per command.
 */
export function createRedisCache(options: RedisCacheOptions): PayloadCache {
  const { link, maxBytes, sharedMaxBytes, keyPrefix, lockLeaseMs, logger, onEvict, onCommand } = options;
  const redis = link.connect('payload-cache');
  if (onCommand !== undefined) observeRedisCommands(redis, onCommand);
  const parsed = new LRUCache<string, ParsedCopy>({
    maxSize: maxBytes,
    sizeCalculation: (copy) => Math.max(1, copy.bytes),
    ...(onEvict && { dispose: (_copy, _key, reason) => reason === 'evict' && onEvict() }),
  });
  const payloadKey = (key: string): string => `${keyPrefix}payload:${key}`;
  const lockKey = (key: string): string => `${keyPrefix}lock:${key}`;
  const ledgerKeys = [`${keyPrefix}payloads:expiry`, `${keyPrefix}payloads:size`, `${keyPrefix}payloads:bytes`];
  const keepLocal = (key: string, copy: ParsedCopy, keepMs?: number): void => {
    parsed.set(key, copy, keepMs === undefined ? {} : { ttl: keepMs });
  };
  /** Runs a command; while Redis cannot be used, answers `fallback` instead (an error reply still rejects). */
  const orElse = async <T>(command: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await link.run(command);
    } catch (error) {
      if (link.isOutage(error)) return fallback;
      throw error;
    }
  };

  return {
    kind: 'redis',
    async get(key) {
      const local = parsed.get(key);
      const offline = Symbol('offline');
      const reply = await orElse<unknown>(
        () => redis.eval(GET_SCRIPT, 1, payloadKey(key), local?.meta.version ?? ''),
        offline,
      );
      if (reply === offline) return local && { meta: local.meta, value: local.value };
      if (!Array.isArray(reply) || typeof reply[0] !== 'string') {
        parsed.delete(key);
        return undefined;
      }
      const meta = readMeta(reply[0]);
      if (meta === undefined) return undefined;
      const body: unknown = reply[1];
      if (typeof body !== 'string') {
        if (local === undefined) return undefined;
        keepLocal(key, { ...local, meta });
        return { meta, value: local.value };
      }
      const value = parseBody(body);
      if (value === undefined) return undefined;
      keepLocal(key, { meta, value: value.parsed, bytes: Buffer.byteLength(body) });
      return { meta, value: value.parsed };
    },
    async set(key, payload, keepMs) {
      keepLocal(key, { meta: payload.meta, value: payload.value, bytes: Buffer.byteLength(payload.body) }, keepMs);
      const meta = JSON.stringify(payload.meta);
      await orElse(
        () =>
          redis.eval(
            SET_SCRIPT,
            4,
            ...ledgerKeys,
            payloadKey(key),
            meta,
            payload.meta.version,
            payload.body,
            keepMs,
            sharedMaxBytes,
            ENTRY_OVERHEAD_BYTES,
          ),
        undefined,
      );
    },
    async touch(key, meta, keepMs) {
      const local = parsed.peek(key);
      if (local?.meta.version === meta.version) keepLocal(key, { ...local, meta }, keepMs);
      await orElse(
        () => redis.eval(TOUCH_SCRIPT, 4, ...ledgerKeys, payloadKey(key), meta.version, JSON.stringify(meta), keepMs),
        undefined,
      );
    },
    async delete(key) {
      parsed.delete(key);
      await orElse(() => deleteEntries(redis, ledgerKeys, [payloadKey(key)]), undefined);
    },
    async deletePrefix(prefix, scope) {
      let dropped = 0;
      for (const key of [...parsed.keys()]) if (key.startsWith(prefix) && parsed.delete(key)) dropped += 1;
      // Not through orElse: entries another instance would go on serving must not be forgotten silently.
      if (scope === 'shared')
        await link.run(() => deleteMatching(redis, ledgerKeys, `${globEscaped(payloadKey(prefix))}*`));
      return dropped;
    },
    async lock(key) {
      // Without Redis this process fills the key alone (its single flight still shares one fetch per key).
      const offline = 'offline';
      // A lease renewed while the fetch runs rather than one long expiry: a holder that dies mid-fetch keeps the
      // other instances waiting for lockLeaseMs, not for the whole upstream time-out.
      const lease = await orElse<Lease | undefined | typeof offline>(
        () => acquireLease(redis, lockKey(key), { ttlMs: lockLeaseMs }),
        offline,
      );
      if (lease === offline) return () => Promise.resolve();
      if (lease === undefined) return undefined;
      // The fetch goes on (its answer is still good); another instance may meanwhile fetch the same payload.
      const warnLost = () =>
        logger?.warn(
          { err: lease.lost.reason as unknown, cache: 'redis', key },
          'redis cache fill lock lost during the fetch',
        );
      lease.lost.addEventListener('abort', warnLost, { once: true });
      return async () => {
        lease.lost.removeEventListener('abort', warnLost);
        await lease.release().catch((error: unknown) => {
          logger?.warn(
            { err: error, cache: 'redis', key },
            'redis cache fill lock not released; its lease runs out by itself',
          );
        });
      };
    },
    localBytes: () => parsed.calculatedSize,
    async close() {
      parsed.clear();
      await closeRedis(redis);
    },
  };
}

/** Deletes entries and their lines in the ledger, in one step. */
async function deleteEntries(redis: IORedis.Redis, ledgerKeys: readonly string[], keys: readonly string[]) {
  await redis.eval(DELETE_SCRIPT, ledgerKeys.length + keys.length, ...ledgerKeys, ...keys);
}

/** Keys a SCAN visits per round trip: small enough not to stall Redis, large enough to finish in few rounds. */
const SCAN_BATCH = 500;

/** Deletes (UNLINK, freed in the background) every entry matching `pattern`, walking the keyspace with SCAN. */
async function deleteMatching(redis: IORedis.Redis, ledgerKeys: readonly string[], pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_BATCH);
    if (keys.length > 0) await deleteEntries(redis, ledgerKeys, keys);
    cursor = next;
  } while (cursor !== '0');
}

/** `text` as a Redis glob that matches only itself: the query part of a key starts with `?`, a glob character. */
function globEscaped(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}

function readMeta(text: string): PayloadMeta | undefined {
  const body = parseBody(text);
  const checked = body === undefined ? undefined : metaSchema.safeParse(body.parsed);
  return checked?.success === true ? checked.data : undefined;
}

/** JSON.parse that answers undefined for text that is not JSON (a damaged entry counts as a miss). */
function parseBody(text: string): { parsed: unknown } | undefined {
  try {
    return { parsed: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
