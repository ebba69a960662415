import type { DatasetCode } from '../catalogue.js';
import type { Licence, ReferencePeriod } from '../catalogue-metadata.js';
import type { PeriodSource } from '../live/reference-periods.js';
import type { YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import { operatorActor, type AccessService, type Caller } from '../access/model.js';
import { fetchBudgetOf, type FetchBudgets } from '../rate-limit/fetch-budgets.js';
import type { IpLimits } from '../rate-limit/ip-budgets.js';
import { createLoaders, type Loaders } from './loaders.js';
import type { Language } from '../http/language.js';
import type { PayloadSizes } from './payload-sizes.js';
import { AnswerFreshness, ResponseLedger, type InFlightBodies } from './response-ledger.js';
import type { SpentBudgets } from '../rate-limit/spent-budgets.js';
import { AnswerBudget } from '../records/index.js';
import type { GraphQLRequestState } from './request-state.js';
import type { ShapeDriftWatch } from '../records/shape-drift.js';
import type { ShapeWatch } from '../records/shape-watch.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { DatasetVersions } from '../live/dataset-versions.js';
import type { UpstreamSource } from '../upstream/source.js';
import type { LiveHub } from '../live/subscription-hub.js';
import { AnswerWarnings } from './warnings.js';

/**
 * What every resolver receives: who is calling, the per-request loaders and the facts about this request. One per
 * operation (a batch's operations each have their own), made by the context factory below; the request's own state,
 * which a batch's operations share, is `state`.
 */
export interface Context {
  /** The request state (request-state.ts), as the server's entry made it and handed it to yoga. */
  readonly state: GraphQLRequestState;
  readonly requestId: string;
  /** The language of labels and messages, negotiated from Accept-Language; answers vary by it. */
  readonly language: Language;
  readonly caller: Caller;
  /** The caller's IP: the socket's peer, or the address the trusted proxy saw. */
  readonly clientIp: string;
  /** Per-IP budgets (see ip-budgets.ts); none unless configured. */
  readonly ipLimits: IpLimits | undefined;
  /** The budgets this request spent, which its answer's RateLimit fields name; resolvers that spend one record it. */
  readonly budgets: SpentBudgets;
  readonly loaders: Loaders;
  readonly access: AccessService;
  /** What this response read and whether it depends on the caller: payload fields record here (payload-field.ts). */
  readonly ledger: ResponseLedger;
  /** This operation's `extensions.stale` and `extensions.shapeDrift`: its own fields, not its batch's others. */
  readonly freshness: AnswerFreshness;
  /** This operation's `extensions.warnings`: what any field says of the request without failing (warnings.ts). */
  readonly warnings: AnswerWarnings;
  /** This operation's budget of records answers, shared by the untyped and the typed records fields. */
  readonly answerBudget: AnswerBudget;
  /** The stream this operation's subscription field opened (stream-key.ts), so an event can end it. */
  readonly liveFeed: { stream: AsyncIterator<unknown> | undefined };
  readonly shapes: ShapeWatch;
  /** Compares live record shapes with schema/shapes.json for the typed fields. */
  readonly shapeDrift: ShapeDriftWatch;
  /** Builds the upstream URLs shown as `apiUrl`; resolvers never call the upstream through it. */
  readonly upstreamUrls: Pick<UpstreamClient, 'datasetUrl' | 'summaryEndpointUrl'>;
  /** Ids one `nodes(ids:)` field may ask for (LIMIT_MAX_NODE_IDS). */
  readonly maxNodeIds: number;
  readonly logger: Logger;
  /** The raw `Idempotency-Key` request header, which registerClient honours; null when absent. */
  readonly idempotencyKey: string | null;
  /**
   * Ids of the clients this request registered: their registrant is that client for the answer's own fields (its
   * key, shown once, would otherwise come with a client it may not read).
   */
  readonly registeredClientIds: Set<string>;
  /** The raw `Authorization` request header: a subscription asks the store again, per event, whether it still holds. */
  readonly credential: string | null;
  /** This instance's open subscriptions, which subscription fields join. */
  readonly live: LiveHub;
  /** What the watcher last recorded of each dataset (`Dataset.version`, `changedAt`). */
  readonly datasetVersions: DatasetVersions;
  /** Days of usage the store keeps (USAGE_RETENTION_DAYS): the most `Client.usage(days:)` may ask for. */
  readonly usageRetentionDays: number;
  /** The licence and contact every dataset is published with (DATASET_LICENSE_*, DATASET_CONTACT_EMAIL). */
  readonly publishing: Publishing;
}

/** The licence and contact every dataset is published with, and how its reference period is read from its records. */
export interface Publishing {
  readonly licence: Licence;
  readonly contactEmail: string | undefined;
  /** A dataset's period from its unfiltered payload (live/reference-periods.ts periodScanner). */
  readonly periodOf: (code: DatasetCode, payload: PeriodSource) => ReferencePeriod;
}

export interface ContextDependencies {
  readonly payloadSizes: PayloadSizes;
  /** The process-wide budget of upstream bytes in answers not yet sent (see ResponseLedger.addBody). */
  readonly inFlightBodies?: InFlightBodies;
  /** Upstream body bytes one response may carry (see ResponseLedger.addBody). */
  readonly maxResponseBytes: number;
  readonly maxNodeIds: number;
  readonly upstream: UpstreamClient;
  readonly source: UpstreamSource;
  readonly shapes: ShapeWatch;
  readonly shapeDrift: ShapeDriftWatch;
  readonly access: AccessService;
  readonly logger: Logger;
  readonly live: LiveHub;
  readonly datasetVersions: DatasetVersions;
  readonly usageRetentionDays: number;
  /** Per-IP budgets: registrations spend them (authentication failures are RequestCallers'). */
  readonly ipLimits?: IpLimits | undefined;
  /** Each caller's budget of cache misses sent to the upstream; unbounded when undefined. */
  readonly fetchBudgets?: FetchBudgets | undefined;
  readonly publishing: Publishing;
}

/**
 * The yoga context factory: runs once per GraphQL operation, so loaders never outlive their request. The caller is
 * the one the request state found (a bad credential has refused the request there, with 401 or 429).
 */
export function createContextFactory(deps: ContextDependencies) {
  return async (initial: YogaInitialContext & { readonly state: GraphQLRequestState }): Promise<Context> => {
    const { state } = initial;
    const requestId = state.id;
    const { caller, ip } = await state.caller();
    // Usage per client: counted in memory, written in batches by the store.
    if (caller.kind === 'client') deps.access.countOperation(caller.client.id);
    const { language } = state;
    // One per response: a batch's later operations add to the ledger the first one made.
    const ledger = (state.ledger ??= new ResponseLedger(deps.maxResponseBytes, deps.inFlightBodies));
    return {
      state,
      requestId,
      language,
      caller,
      clientIp: ip,
      ipLimits: deps.ipLimits,
      // The request's one record: the rate limit and the caller's authentication wrote theirs there.
      budgets: state.budgets,
      loaders: createLoaders({
        upstream: deps.source,
        payloadSizes: deps.payloadSizes,
        access: deps.access,
        caller,
        fetchBudget: () => fetchBudgetOf(deps.fetchBudgets, caller, ip, state.budgets),
      }),
      access: deps.access,
      ledger,
      freshness: new AnswerFreshness(ledger),
      warnings: new AnswerWarnings(language),
      answerBudget: new AnswerBudget(),
      liveFeed: { stream: undefined },
      shapes: deps.shapes,
      shapeDrift: deps.shapeDrift,
      upstreamUrls: deps.upstream,
      maxNodeIds: deps.maxNodeIds,
      logger: lazyChild(deps.logger, () => ({ requestId, caller: callerLabel(caller) })),
      idempotencyKey: initial.request.headers.get('idempotency-key'),
      registeredClientIds: new Set(),
      credential: initial.request.headers.get('authorization'),
      live: deps.live,
      datasetVersions: deps.datasetVersions,
      usageRetentionDays: deps.usageRetentionDays,
      publishing: deps.publishing,
    };
  };
}

/**
 * A child of `logger` with `bindings`, made when it is first used. Few requests log through their context's logger
 * (an access line is written from the request, not from here), and a pino child made for each cost about 1 % of a
 * response-cache miss. A getter would not do: yoga copies the context's properties, reading each.
 */
function lazyChild(logger: Logger, bindings: () => Record<string, unknown>): Logger {
  let child: Logger | undefined;
  return new Proxy(logger, {
    get(_parent, property) {
      child ??= logger.child(bindings());
      const value: unknown = Reflect.get(child, property, child);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(child) : value;
    },
  });
}

/** How the caller appears in logs: never a credential, only who it is. */
export function callerLabel(caller: Caller): string {
  return caller.kind === 'client'
    ? `client:${caller.client.id}`
    : caller.kind === 'operator'
      ? operatorActor(caller)
      : caller.kind;
}
