import type { PayloadCache } from './cache.js';
import { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from './client.js';
import { createPayloadCache, type PayloadCacheOptions } from './create-cache.js';
import { createUpstreamSource, type UpstreamSource, type UpstreamSourceOptions } from './source.js';

/** The upstream as the server uses it: the HTTP client, the payload cache beneath it, and the source over both. */
export interface Upstream {
  readonly client: UpstreamClient;
  readonly cache: PayloadCache;
  readonly source: UpstreamSource;
  /** Stops background refreshes first, then the cache's connections, then the client's pool. */
  readonly close: () => Promise<void>;
}

export interface UpstreamOptions {
  readonly client: UpstreamClientOptions;
  readonly cache: Omit<PayloadCacheOptions, 'logger'>;
  readonly source: Omit<UpstreamSourceOptions, 'client' | 'cache' | 'logger'>;
}

/** Assembles the three pieces with one logger, so the server and the tests build the same upstream. */
export function createUpstream(options: UpstreamOptions): Upstream {
  const { logger } = options.client;
  const client = createUpstreamClient(options.client);
  const cache = createPayloadCache({ ...options.cache, logger });
  const source = createUpstreamSource({ ...options.source, client, cache, logger });
  return {
    client,
    cache,
    source,
    close: async () => {
      await source.close();
      await cache.close();
      await client.close();
    },
  };
}
