import { CODE } from '../errors/registry.js';
import { callerWithoutStore } from './client-keys.js';
import { StoreUnreachableError } from './database.js';
import { AccessError } from './errors.js';
import type { AccessService } from './model.js';
import { openAccessService, operatorTokensOf, type AccessServiceOptions } from './service.js';

// Tries again after 1 s, then twice as long each time up to 30 s: a store back from an outage is found within
// 30 s, and an outage of hours costs two attempts a minute.
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;
// What STORE_UNAVAILABLE tells a caller to wait meanwhile.
const RETRY_AFTER_S = 5;

export interface WhenReachableOptions extends AccessServiceOptions {
  /** Told of each failed attempt to open the store (the first included) and when the next one is. */
  readonly onAttemptFailed: (error: unknown, retryInMs: number) => void;
  /** Told when the store is open, at once or after attempts that failed. */
  readonly onOpened: () => void;
}

/**
 * Opens the store as openAccessService does, except that a store that cannot be reached now (refused, timed out,
 * hung: StoreUnreachableError) does not stop the start. Open data needs no store, so the server starts without it:
 * every operation answers STORE_UNAVAILABLE meanwhile (what needs no store still works: anonymous callers, operator
 * tokens, and refusing what cannot be a key), while the store is opened again in the background, migrations
 * applied or checked then, until it is. Any other failure (a wrong password, a failed migration, a schema behind with
 * MIGRATE_ON_START=false) is thrown at start as before; met in the background, it is reported and tried again.
 */
export async function openAccessServiceWhenReachable(options: WhenReachableOptions): Promise<AccessService> {
  try {
    const opened = await openAccessService(options);
    options.onOpened();
    return opened;
  } catch (error) {
    if (!(error instanceof StoreUnreachableError)) throw error;
    return new StoreWhenReachable(options, error);
  }
}

/** The store while it is being opened in the background, then the opened store itself. */
class StoreWhenReachable implements AccessService {
  #opened: AccessService | undefined;
  #retry: NodeJS.Timeout | undefined;
  #retryInMs = FIRST_RETRY_MS;
  #closed = false;

  constructor(
    private readonly options: WhenReachableOptions,
    firstError: unknown,
  ) {
    this.#tryAgainLater(firstError);
  }

  #tryAgainLater(error: unknown): void {
    this.options.onAttemptFailed(error, this.#retryInMs);
    this.#retry = setTimeout(() => this.#attempt(), this.#retryInMs);
    this.#retryInMs = Math.min(this.#retryInMs * 2, LONGEST_RETRY_MS);
  }

  #attempt(): void {
    this.#retry = undefined;
    openAccessService(this.options).then(
      (opened) => {
        if (this.#closed) {
          void opened.close();
          return;
        }
        this.#opened = opened;
        this.options.onOpened();
      },
      (error: unknown) => {
        if (!this.#closed) this.#tryAgainLater(error);
      },
    );
  }

  /** The opened store, or STORE_UNAVAILABLE while it is not. */
  #store(): Promise<AccessService> {
    if (this.#opened !== undefined) return Promise.resolve(this.#opened);
    return Promise.reject(new AccessError(CODE.STORE_UNAVAILABLE, undefined, { retryAfterS: RETRY_AFTER_S }));
  }

  get keyPolicy(): AccessService['keyPolicy'] {
    return this.options.keys;
  }

  readonly authenticate: AccessService['authenticate'] = async (authorization) => {
    if (this.#opened !== undefined) return this.#opened.authenticate(authorization);
    const known = callerWithoutStore(operatorTokensOf(this.options), authorization);
    if (!('apiKey' in known)) return known;
    return (await this.#store()).authenticate(authorization);
  };

  readonly registerClient: AccessService['registerClient'] = async (...args) =>
    (await this.#store()).registerClient(...args);
  readonly rotateApiKey: AccessService['rotateApiKey'] = async (...args) => (await this.#store()).rotateApiKey(...args);
  readonly setClientDisabled: AccessService['setClientDisabled'] = async (...args) =>
    (await this.#store()).setClientDisabled(...args);
  readonly setClientQuota: AccessService['setClientQuota'] = async (...args) =>
    (await this.#store()).setClientQuota(...args);
  readonly deleteClient: AccessService['deleteClient'] = async (...args) => (await this.#store()).deleteClient(...args);
  readonly clientEvents: AccessService['clientEvents'] = async (...args) => (await this.#store()).clientEvents(...args);
  readonly requestEndpointUse: AccessService['requestEndpointUse'] = async (...args) =>
    (await this.#store()).requestEndpointUse(...args);
  readonly reviewUseRequest: AccessService['reviewUseRequest'] = async (...args) =>
    (await this.#store()).reviewUseRequest(...args);
  readonly revokeUseRequest: AccessService['revokeUseRequest'] = async (...args) =>
    (await this.#store()).revokeUseRequest(...args);
  readonly findUseRequest: AccessService['findUseRequest'] = async (...args) =>
    (await this.#store()).findUseRequest(...args);
  readonly listUseRequests: AccessService['listUseRequests'] = async (...args) =>
    (await this.#store()).listUseRequests(...args);
  readonly historyOf: AccessService['historyOf'] = async (...args) => (await this.#store()).historyOf(...args);
  readonly findClients: AccessService['findClients'] = async (...args) => (await this.#store()).findClients(...args);
  readonly statusesOf: AccessService['statusesOf'] = async (...args) => (await this.#store()).statusesOf(...args);
  readonly changedBy: AccessService['changedBy'] = async (...args) => (await this.#store()).changedBy(...args);
  readonly pageUseRequests: AccessService['pageUseRequests'] = async (...args) =>
    (await this.#store()).pageUseRequests(...args);
  readonly useRequestsOfClients: AccessService['useRequestsOfClients'] = async (...args) =>
    (await this.#store()).useRequestsOfClients(...args);
  readonly pageClients: AccessService['pageClients'] = async (...args) => (await this.#store()).pageClients(...args);
  readonly eraseClient: AccessService['eraseClient'] = async (...args) => (await this.#store()).eraseClient(...args);
  readonly usageOf: AccessService['usageOf'] = async (...args) => (await this.#store()).usageOf(...args);
  readonly pageSummaryReads: AccessService['pageSummaryReads'] = async (...args) =>
    (await this.#store()).pageSummaryReads(...args);
  readonly flushUsage: AccessService['flushUsage'] = async () => (await this.#store()).flushUsage();
  readonly recordDatasetVersion: AccessService['recordDatasetVersion'] = async (...args) =>
    (await this.#store()).recordDatasetVersion(...args);
  readonly datasetDates: AccessService['datasetDates'] = async () => (await this.#store()).datasetDates();
  readonly ping: AccessService['ping'] = async () => (await this.#store()).ping();
  readonly clock: AccessService['clock'] = async () => (await this.#store()).clock();

  // Only a client's operations are counted, and no client is known without the store: nothing to count before it.
  countOperation(clientId: string): void {
    this.#opened?.countOperation(clientId);
  }

  recordSummaryRead(clientId: string, endpointId: number): void {
    this.#opened?.recordSummaryRead(clientId, endpointId);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.#opened?.close();
  }
}
