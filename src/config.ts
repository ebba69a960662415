/**
 * The validated configuration, as the rest of the code imports it. Its parts live in config/: the one declaration
 * of every setting (settings.ts), loading it from the environment (load.ts), the check of misspelt names
 * (misspellings.ts), the checks of settings against each other (conflicts.ts), the Redis key prefix
 * (redis-key-prefix.ts) and the operators' table of variables (settings-table.ts).
 */
export { loadConfig, loadStoreConfig, type ConfigResult, type LoadResult } from './config/load.js';
export { KNOWN_PREFIXES } from './config/misspellings.js';
export { redisKeyPrefixOf } from './config/redis-key-prefix.js';
export {
  connectionsPerPeer,
  DEFAULT_CONNECTIONS_PER_PEER,
  DEFAULT_DATABASE_URL,
  DEFAULT_SERVICE_NAME,
  KNOWN_NAMES,
  SETTING_LIST,
  type AdminListenerConfig,
  type BucketConfig,
  type CacheConfig,
  type ClientAddressDetail,
  type Config,
  type ConnectionLimits,
  type DatabaseConfig,
  type HttpConfig,
  type KeyPolicy,
  type LiveConfig,
  type LogLevel,
  type OperationLimits,
  type PersistedOperationsConfig,
  type RateLimitConfig,
  type ShutdownConfig,
  type StoreConfig,
  type SubscriptionConfig,
  type TracingConfig,
  type UpstreamConfig,
} from './config/settings.js';
