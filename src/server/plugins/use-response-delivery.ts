import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';
import type { Metrics } from '../metrics.js';
import type { ResponseCache } from '../response-cache/cache.js';
import { useResponseCompression } from './use-compression.js';
import { useFreshness, type HttpCachingPolicy } from './use-freshness.js';
import { useResponseCache } from './use-response-cache.js';

export interface ResponseDeliveryOptions extends HttpCachingPolicy {
  readonly now: () => number;
  /** Stores answers to anonymous queries; none when the response cache is off. */
  readonly responseCache: ResponseCache | undefined;
  readonly metrics: Metrics;
  readonly graphqlPath: string;
}

/**
 * How an answer leaves the server, as three plugins whose order is the contract: freshness sets its
 * Cache-Control and ETag (and answers 304), the response cache stores that final answer and renders it as a hit
 * would be, and compression encodes whatever they produced. Added here in that order (yoga's addPlugin), so no
 * list elsewhere can put them out of it. Place this plugin after every plugin that changes the response.
 */
export function useResponseDelivery(options: ResponseDeliveryOptions): Plugin<Context> {
  const { responseCache, metrics, now, graphqlPath, ...policy } = options;
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(useFreshness({ ...policy, now, graphqlPath }));
      if (responseCache !== undefined) addPlugin(useResponseCache({ ...policy, cache: responseCache, metrics }));
      addPlugin(useResponseCompression());
    },
  };
}
