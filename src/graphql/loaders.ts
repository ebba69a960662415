import DataLoader from 'dataloader';
import type {
  AccessService,
  Caller,
  ClientEventRecord,
  ClientRecord,
  UseRequestEventRecord,
  UsageDayRecord,
  UseRequestRecord,
} from '../access/model.js';
import type { DatasetCode, SummaryEndpointEntry } from '../catalogue.js';
import type { JsonObject } from '../json.js';
import { stableJson } from '../upstream/query.js';
import type { FetchBudgetOf, PayloadRead, UpstreamSource } from '../upstream/source.js';
import type { PayloadSizes } from './payload-sizes.js';

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
  readonly datasetPayload: DataLoader<DatasetPayloadKey, PayloadRead, string>;
  readonly summaryPayload: DataLoader<SummaryPayloadKey, PayloadRead, string>;
  /** The caller's own status per summary endpoint id; undefined where it never asked. */
  readonly callerUseStatus: DataLoader<number, UseRequestRecord['status'] | undefined>;
  readonly client: DataLoader<string, ClientRecord>;
  readonly useRequestHistory: DataLoader<string, readonly UseRequestEventRecord[]>;
  readonly clientHistory: DataLoader<string, readonly ClientEventRecord[]>;
  /** A client's requests for use, newest first (the directory shows them per client: one query per page). */
  readonly clientUseRequests: DataLoader<string, readonly UseRequestRecord[]>;
  /** A client's operations per day over the last `days` days: one loader per `days` asked for. */
  clientUsage(days: number): DataLoader<string, readonly UsageDayRecord[]>;
}

export interface LoaderDependencies {
  readonly upstream: UpstreamSource;
  /** Told the size of every unfiltered dataset body read, which prices `payload` fields (see payload-sizes.ts). */
  readonly payloadSizes: PayloadSizes;
  readonly access: AccessService;
  readonly caller: Caller;
  /** The caller's budget of upstream fetches, made and spent on cache misses only; none when unbounded. */
  readonly fetchBudget: FetchBudgetOf | undefined;
}

/**
 * The loaders of one GraphQL request. Made afresh per request (in the context factory) so that de-duplication
 * never leaks one caller's answers to another: within an operation, every field asking for the same
 * (dataset, query) shares one read, distinct reads go out together, and the store is asked once per kind of
 * fact however many requests a list shows. Sharing across requests is the upstream source's job (its cache
 * and single-flight), beneath these loaders. Each loader is made when a field first asks for it: most operations
 * use one or two of them.
 */
export function createLoaders(deps: LoaderDependencies): Loaders {
  return new RequestLoaders(deps);
}

class RequestLoaders implements Loaders {
  #datasetPayload: Loaders['datasetPayload'] | undefined;
  #summaryPayload: Loaders['summaryPayload'] | undefined;
  #callerUseStatus: Loaders['callerUseStatus'] | undefined;
  #client: Loaders['client'] | undefined;
  #useRequestHistory: Loaders['useRequestHistory'] | undefined;
  #clientHistory: Loaders['clientHistory'] | undefined;
  #clientUseRequests: Loaders['clientUseRequests'] | undefined;
  #usage: Map<number, DataLoader<string, readonly UsageDayRecord[]>> | undefined;

  constructor(private readonly deps: LoaderDependencies) {}

  get datasetPayload(): Loaders['datasetPayload'] {
    const { upstream, payloadSizes, fetchBudget } = this.deps;
    return (this.#datasetPayload ??= new DataLoader(
      (keys) =>
        settleEach(keys, async (key) => {
          const read = await upstream.readDataset(key.code, key.queryString, fetchBudget);
          if (key.queryString === '') payloadSizes.record(key.code, read.bytes);
          return read;
        }),
      // No batching: the upstream has no batch endpoint, and each field then resolves as soon as its own read does,
      // not when the slowest read of its tick does.
      { cacheKeyFn: (key) => `${key.code}?${key.queryString}`, batch: false },
    ));
  }

  get summaryPayload(): Loaders['summaryPayload'] {
    const { upstream, fetchBudget } = this.deps;
    return (this.#summaryPayload ??= new DataLoader(
      (keys) => settleEach(keys, (key) => upstream.readSummary(key.endpoint, key.input, fetchBudget)),
      {
        cacheKeyFn: (key) => `${key.endpoint.id}:${stableJson(key.input)}`,
        batch: false,
      },
    ));
  }

  get callerUseStatus(): Loaders['callerUseStatus'] {
    const { access, caller } = this.deps;
    return (this.#callerUseStatus ??= new DataLoader(async (endpointIds) => {
      if (caller.kind !== 'client') return endpointIds.map(() => undefined);
      const statuses = await access.statusesOf(caller.client.id);
      return endpointIds.map((id) => statuses.get(id));
    }));
  }

  get client(): Loaders['client'] {
    const { access } = this.deps;
    return (this.#client ??= new DataLoader(async (ids) => {
      const clients = new Map((await access.findClients(ids)).map((client) => [client.id, client]));
      return ids.map((id) => clients.get(id) ?? new Error(`Client ${id} not found`));
    }));
  }

  get useRequestHistory(): Loaders['useRequestHistory'] {
    const { access } = this.deps;
    return (this.#useRequestHistory ??= new DataLoader(async (requestIds) => {
      const byRequest = new Map<string, UseRequestEventRecord[]>();
      for (const event of await access.historyOf(requestIds)) {
        const events = byRequest.get(event.requestId);
        if (events === undefined) byRequest.set(event.requestId, [event]);
        else events.push(event);
      }
      return requestIds.map((id) => byRequest.get(id) ?? []);
    }));
  }

  get clientHistory(): Loaders['clientHistory'] {
    const { access } = this.deps;
    return (this.#clientHistory ??= new DataLoader(async (clientIds) => {
      const byClient = new Map<string, ClientEventRecord[]>();
      for (const event of await access.clientEvents(clientIds)) {
        const events = byClient.get(event.clientId);
        if (events === undefined) byClient.set(event.clientId, [event]);
        else events.push(event);
      }
      return clientIds.map((id) => byClient.get(id) ?? []);
    }));
  }

  get clientUseRequests(): Loaders['clientUseRequests'] {
    const { access } = this.deps;
    return (this.#clientUseRequests ??= new DataLoader(async (clientIds) =>
      groupByClient(clientIds, await access.useRequestsOfClients(clientIds)),
    ));
  }

  clientUsage(days: number): DataLoader<string, readonly UsageDayRecord[]> {
    const { access } = this.deps;
    const loaders = (this.#usage ??= new Map<number, DataLoader<string, readonly UsageDayRecord[]>>());
    let loader = loaders.get(days);
    if (loader === undefined) {
      loader = new DataLoader(async (clientIds) => groupByClient(clientIds, await access.usageOf(clientIds, days)));
      loaders.set(days, loader);
    }
    return loader;
  }
}

/** `records` grouped by client, one list per id in `clientIds` order (empty where it has none). */
function groupByClient<T extends { readonly clientId: string }>(
  clientIds: readonly string[],
  records: readonly T[],
): T[][] {
  const byClient = new Map<string, T[]>();
  for (const record of records) {
    const list = byClient.get(record.clientId);
    if (list === undefined) byClient.set(record.clientId, [record]);
    else list.push(record);
  }
  return clientIds.map((id) => byClient.get(id) ?? []);
}

/**
 * Runs one call per key concurrently and returns results in key order, a failed key as its `Error`: the
 * DataLoader contract that lets one field fail while its siblings keep their data. The upstream has no
 * batch endpoint, so a batch is only a concurrent fan-out.
 */
async function settleEach<K, V>(keys: readonly K[], load: (key: K) => Promise<V>): Promise<(V | Error)[]> {
  const settled = await Promise.allSettled(keys.map(load));
  return settled.map((result) => (result.status === 'fulfilled' ? result.value : toError(result.reason)));
}

function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
