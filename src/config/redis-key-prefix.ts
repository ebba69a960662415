import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * The prefix of every key and channel this server uses in Redis: REDIS_KEY_PREFIX, or one derived from what
 * tells deployments apart. Redis pub/sub ignores the database number, so the number goes into the prefix; and two
 * deployments on one database number are told apart by where their store is (DATABASE_URL without its user and
 * password, a SQLite path made absolute), which every instance of one deployment shares by definition, and which
 * a change of password does not move.
 */
export function redisKeyPrefixOf(settings: {
  readonly redisUrl: string | undefined;
  readonly redisKeyPrefix: string | undefined;
  readonly databaseUrl: string;
}): string {
  const { redisKeyPrefix, redisUrl } = settings;
  if (redisKeyPrefix !== undefined) return redisKeyPrefix;
  const redis = redisUrl === undefined ? undefined : new URL(redisUrl);
  const db = Number(redis?.searchParams.get('db') ?? (redis?.pathname.slice(1) || '0'));
  const place = storePlace(settings.databaseUrl);
  return `teg:${db}:${createHash('sha256').update(place).digest('hex').slice(0, 12)}:`;
}

function storePlace(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) return `sqlite:${resolve(databaseUrl.slice('sqlite:'.length))}`;
  const url = new URL(databaseUrl);
  return `postgres://${url.host}${url.pathname}${url.search}`;
}
