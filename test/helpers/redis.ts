import type { Logger } from 'pino';
import { createLogger } from '../../src/logger.js';
import { createRedisLink, type RedisLink } from '../../src/upstream/redis-link.js';

/** A link to the Redis at `url`, as a server makes one; its connections close with whatever opened them. */
export function testRedisLink(url: string, logger: Logger = createLogger('silent')): RedisLink {
  return createRedisLink({ url, logger });
}
