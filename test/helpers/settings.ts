import { loadConfig, type Config } from '../../src/config.js';
import type { AppDependencies } from '../../src/server/app.js';
import { LiveHub } from '../../src/live/subscription-hub.js';
import { createMetrics } from '../../src/server/metrics.js';
import { OperationNames } from '../../src/server/operation-names.js';
import { createPersistedQueryStore } from '../../src/server/persisted-query-store.js';

/** Every setting at its default: the configuration of an empty environment, from the one declaration. */
export const DEFAULTS: Config = (() => {
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return loaded.config;
})();

/** What openAccessService needs besides the URL and the token, at the defaults. */
export const STORE_SETTINGS = { keys: DEFAULTS.keys, postgres: DEFAULTS.database };

/** The parts of createApp's dependencies that follow from settings, at the defaults. */
export function appSettings(): Pick<
  AppDependencies,
  'limits' | 'http' | 'responseCacheMaxMb' | 'metrics' | 'live' | 'heartbeatMs' | 'persistedQueries'
> {
  return {
    limits: DEFAULTS.limits,
    http: DEFAULTS.http,
    responseCacheMaxMb: DEFAULTS.cache.responseMaxMb,
    metrics: createMetrics(new OperationNames({ limit: DEFAULTS.metricsOperationNames })),
    live: new LiveHub(DEFAULTS.live.subscriptions),
    heartbeatMs: DEFAULTS.live.subscriptions.heartbeatS * 1_000,
    persistedQueries: createPersistedQueryStore({
      maxBytes: DEFAULTS.persistedOperations.apqMaxMb * 1_048_576,
      maxDocumentBytes: DEFAULTS.limits.maxBodyBytes,
    }),
  };
}
