import DataLoader from 'dataloader';
import type { DatasetCode, SummaryEndpointEntry } from './catalogue.js';
import type { JsonObject } from './json.js';
import type { UpstreamClient } from './upstream/client.js';

export interface DatasetPayloadKey {
  readonly code: DatasetCode;
  /** Canonical query string (see upstream/query.ts): equal strings mean the same upstream call. */
  readonly queryString: string;
}

export interface SummaryPayloadKey {
  readonly endpoint: SummaryEndpointEntry;
  readonly input: JsonObject;
}

export interface Loaders {
  readonly datasetPayload: DataLoader<DatasetPayloadKey, unknown, string>;
  readonly summaryPayload: DataLoader<SummaryPayloadKey, unknown, string>;
}

/**
 * The loaders of one GraphQL request. Made afresh per request (in the context factory) so that de-duplication
 * never leaks one caller's answers to another: within an operation, every field asking for the same
 * (dataset, query) shares one upstream call, and distinct calls go out together.
 */
export function createLoaders(upstream: UpstreamClient): Loaders {
  return {
    datasetPayload: new DataLoader(
      (keys) => settleEach(keys, (key) => upstream.fetchDataset(key.code, key.queryString)),
      { cacheKeyFn: (key) => `${key.code}?${key.queryString}` },
    ),
    summaryPayload: new DataLoader(
      (keys) => settleEach(keys, (key) => upstream.callSummaryEndpoint(key.endpoint, key.input)),
      { cacheKeyFn: (key) => `${key.endpoint.id}:${stableJson(key.input)}` },
    ),
  };
}

/**
 * Runs one call per key concurrently and returns results in key order, a failed key as its `Error`: the
 * DataLoader contract that lets one field fail while its siblings keep their data. The upstream has no
 * batch endpoint, so a batch is only a concurrent fan-out.
 */
async function settleEach<K>(keys: readonly K[], load: (key: K) => Promise<unknown>): Promise<unknown[]> {
  const settled = await Promise.allSettled(keys.map(load));
  return settled.map((result) =>
    result.status === 'fulfilled' ? result.value : toError(result.reason),
  );
}

function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/** JSON with object keys sorted at every depth, so inputs that differ only in key order share a key. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
