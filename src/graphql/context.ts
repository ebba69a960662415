import type { IncomingMessage } from 'node:http';
import type { YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import { AccessError } from '../access/errors.js';
import type { AccessService, Caller } from '../access/model.js';
import { codedGraphQLError, rateLimitedError } from './errors.js';
import { fetchBudgetOf, type FetchBudgets } from './fetch-budgets.js';
import type { IpLimits } from './ip-budgets.js';
import { createLoaders, type Loaders } from './loaders.js';
import { clientIp } from '../http/client-ip.js';
import { negotiateLanguage, type Language } from '../http/language.js';
import { requestIdOf } from '../http/request-id.js';
import type { PayloadSizes } from './payload-sizes.js';
import { ledgerOf, type InFlightBodies, type ResponseLedger } from './response-ledger.js';
import type { ShapeDriftWatch } from '../records/shape-drift.js';
import type { ShapeWatch } from '../records/shape-watch.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { DatasetVersions } from '../live/dataset-versions.js';
import type { UpstreamSource } from '../upstream/source.js';
import type { LiveHub } from '../live/subscription-hub.js';
import { CODE } from '../errors/registry.js';

/** What every resolver receives: who is calling, the per-request loaders and the facts about this request. */
export interface Context {
  readonly requestId: string;
  /** The language of labels and messages, negotiated from Accept-Language; answers vary by it. */
  readonly language: Language;
  readonly caller: Caller;
  /** The caller's IP: the socket's peer, or the address the trusted proxy saw. */
  readonly clientIp: string;
  /** Per-IP budgets (see ip-budgets.ts); none unless configured. */
  readonly ipLimits: IpLimits | undefined;
  readonly loaders: Loaders;
  readonly access: AccessService;
  /** What this response read and whether it depends on the caller: payload fields record here (payload-field.ts). */
  readonly ledger: ResponseLedger;
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
  /** This instance's open subscriptions, which subscription fields join. */
  readonly live: LiveHub;
  /** What the watcher last recorded of each dataset (`Dataset.version`, `changedAt`). */
  readonly datasetVersions: DatasetVersions;
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
  /** Refuse credentials from an IP that failed too often, and count its failures; registrations use them too. */
  readonly ipLimits?: IpLimits | undefined;
  /** Each caller's budget of cache misses sent to the upstream; unbounded when undefined. */
  readonly fetchBudgets?: FetchBudgets | undefined;
  /** Read the client IP from the last X-Forwarded-For entry, as the one trusted proxy in front wrote it. */
  readonly trustProxy?: boolean | undefined;
}

/**
 * The yoga context factory: runs once per GraphQL request, so loaders never outlive their request. A bad
 * credential refuses the whole request with HTTP 401: a client whose key was mistyped must hear so, not be
 * served silently as anonymous. An IP whose credentials failed too often lately is refused with HTTP 429 before
 * its credential is looked up, whatever it sends.
 */
export function createContextFactory(deps: ContextDependencies) {
  return async (initial: YogaInitialContext & { req?: IncomingMessage }): Promise<Context> => {
    const requestId = requestIdOf(initial.request);
    const ip = clientIp(initial.request.headers.get('x-forwarded-for'), initial.req, deps.trustProxy ?? false);
    const caller = await authenticate(deps, ip, initial.request.headers.get('authorization'));
    return {
      requestId,
      language: negotiateLanguage(initial.request.headers.get('accept-language')),
      caller,
      clientIp: ip,
      ipLimits: deps.ipLimits,
      loaders: createLoaders({
        upstream: deps.source,
        payloadSizes: deps.payloadSizes,
        access: deps.access,
        caller,
        fetchBudget: fetchBudgetOf(deps.fetchBudgets, caller, ip),
      }),
      access: deps.access,
      ledger: ledgerOf(initial.request, deps.maxResponseBytes, deps.inFlightBodies),
      shapes: deps.shapes,
      shapeDrift: deps.shapeDrift,
      upstreamUrls: deps.upstream,
      maxNodeIds: deps.maxNodeIds,
      logger: deps.logger.child({ requestId, caller: callerLabel(caller) }),
      idempotencyKey: initial.request.headers.get('idempotency-key'),
      live: deps.live,
      datasetVersions: deps.datasetVersions,
    };
  };
}

async function authenticate(
  { access, ipLimits }: Pick<ContextDependencies, 'access' | 'ipLimits'>,
  ip: string,
  authorization: string | null,
): Promise<Caller> {
  if (authorization !== null && ipLimits !== undefined) {
    // Even the right credential is refused: otherwise a guesser would go on guessing, and learn which guess was right.
    const retryAfterMs = await ipLimits.authenticationRefusal(ip);
    if (retryAfterMs !== undefined) throw rateLimitedError(retryAfterMs);
  }
  try {
    return await access.authenticate(authorization);
  } catch (error) {
    if (error instanceof AccessError && error.code === CODE.UNAUTHENTICATED) {
      await ipLimits?.authenticationFailed(ip);
      throw codedGraphQLError(CODE.UNAUTHENTICATED, {
        message: error.message,
        http: { status: 401, headers: { 'www-authenticate': 'Bearer realm="thai-edu-graphql"' } },
      });
    }
    if (error instanceof AccessError && error.code === CODE.CLIENT_DISABLED) {
      // 403, not 401: the key is genuine and names the client; it is the client that may not be served. A 401
      // would tell its developers to fix or replace a key that is fine, and count as a failed guess.
      throw codedGraphQLError(CODE.CLIENT_DISABLED);
    }
    throw error;
  }
}

/** How the caller appears in logs: never a credential, only who it is. */
function callerLabel(caller: Caller): string {
  return caller.kind === 'client' ? `client:${caller.client.id}` : caller.kind;
}
