import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { PayloadCache, PayloadMeta } from './cache.js';
import { acquireLease } from './redis-lease.js';
import { observeRedisCommands, type RedisCommandEvent } from './redis-commands.js';

export interface RedisCacheOptions {
  readonly url: string;
  /** Bound on the parsed bodies kept in this process. */
  readonly maxBytes: number;
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

// After a 304: new meta for the entry, only if it still holds the version that was revalidated.
const TOUCH_SCRIPT = `
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'meta', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

// ioredis is loaded by the first Redis cache made, so a process without REDIS_URL never holds its modules (several
// MB resident); required rather than imported because this factory is synchronous.
const loadIORedis = (): typeof IORedis => createRequire(import.meta.url)('ioredis') as typeof IORedis;

interface ParsedCopy {
  readonly version: string;
  readonly value: unknown;
  readonly bytes: number;
}

/**
 * Payloads shared by every instance through Redis (ioredis): one hash per payload (meta, version, body text)
 * whose Redis TTL is how long it may still be served, and fill locks (leases, see redis-lease.ts) so that
 * instances fill a key once. Bodies are parsed on read; parsed copies are kept in a small local lru-cache, by key
 * and checked by version.
 */
export function createRedisCache(options: RedisCacheOptions): PayloadCache {
  const { url, maxBytes, keyPrefix, lockLeaseMs, logger, onEvict, onCommand } = options;
  // Fail fast rather than queue: a cache that is down must cost a request little, the source then calls upstream.
  const { Redis } = loadIORedis();
  const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 2_000 });
  redis.on('error', (error: Error) => logger?.warn({ err: error, cache: 'redis' }, 'redis cache connection trouble'));
  if (onCommand !== undefined) observeRedisCommands(redis, onCommand);
  const parsed = new LRUCache<string, ParsedCopy>({
    maxSize: maxBytes,
    sizeCalculation: (copy) => Math.max(1, copy.bytes),
    ...(onEvict && { dispose: (_copy, _key, reason) => reason === 'evict' && onEvict() }),
  });
  const payloadKey = (key: string): string => `${keyPrefix}payload:${key}`;
  const lockKey = (key: string): string => `${keyPrefix}lock:${key}`;

  return {
    kind: 'redis',
    async get(key) {
      const local = parsed.get(key);
      const reply = await redis.eval(GET_SCRIPT, 1, payloadKey(key), local?.version ?? '');
      if (!Array.isArray(reply) || typeof reply[0] !== 'string') return undefined;
      const meta = readMeta(reply[0]);
      if (meta === undefined) return undefined;
      const body: unknown = reply[1];
      if (typeof body !== 'string') return local && { meta, value: local.value };
      const value = parseBody(body);
      if (value === undefined) return undefined;
      parsed.set(key, { version: meta.version, value: value.parsed, bytes: Buffer.byteLength(body) });
      return { meta, value: value.parsed };
    },
    async set(key, payload, keepMs) {
      const stored = payloadKey(key);
      await redis
        .multi()
        .hset(stored, { meta: JSON.stringify(payload.meta), version: payload.meta.version, body: payload.body })
        .pexpire(stored, keepMs)
        .exec();
      parsed.set(key, { version: payload.meta.version, value: payload.value, bytes: Buffer.byteLength(payload.body) });
    },
    async touch(key, meta, keepMs) {
      await redis.eval(TOUCH_SCRIPT, 1, payloadKey(key), meta.version, JSON.stringify(meta), keepMs);
    },
    async delete(key) {
      parsed.delete(key);
      await redis.del(payloadKey(key));
    },
    async deletePrefix(prefix, scope) {
      let dropped = 0;
      for (const key of [...parsed.keys()]) if (key.startsWith(prefix) && parsed.delete(key)) dropped += 1;
      if (scope === 'shared') await deleteMatching(redis, `${globEscaped(payloadKey(prefix))}*`);
      return dropped;
    },
    async lock(key) {
      // A lease renewed while the fetch runs rather than one long expiry: a holder that dies mid-fetch keeps the
      // other instances waiting for lockLeaseMs, not for the whole upstream time-out.
      const lease = await acquireLease(redis, lockKey(key), { ttlMs: lockLeaseMs });
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
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Keys a SCAN visits per round trip: small enough not to stall Redis, large enough to finish in few rounds. */
const SCAN_BATCH = 500;

/** Deletes (UNLINK, freed in the background) every key matching `pattern`, walking the keyspace with SCAN. */
async function deleteMatching(redis: IORedis.Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_BATCH);
    if (keys.length > 0) await redis.unlink(...keys);
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
