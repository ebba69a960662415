import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import type { RequestListener } from 'node:http';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { AccessService } from '../access/model.js';
import type { HttpConfig, OperationLimits } from '../config.js';
import { createContextFactory, type Context } from '../graphql/context.js';
import type { FetchBudgets } from '../graphql/fetch-budgets.js';
import type { IpLimits } from '../graphql/ip-budgets.js';
import { maskError } from '../graphql/errors.js';
import { RequestCallers } from '../graphql/request-callers.js';
import { GRAPHIQL_DEFAULT_QUERY, GRAPHIQL_TABS } from './graphiql-examples.js';
import { yogaLoggerFrom } from './logger.js';
import type { Metrics } from './metrics.js';
import type { PersistedQueryStore } from './persisted-query-store.js';
import { corsOptions } from './plugins/cors.js';
import { useBatchLimit } from './plugins/use-batch-limit.js';
import { useCsrfPrevention } from './plugins/use-csrf-prevention.js';
import { withErrorBoundary } from './plugins/error-boundary.js';
import { useRequestDecompression } from './plugins/use-compression.js';
import type { HttpCachingPolicy } from './plugins/use-freshness.js';
import { GraphiQLPage } from './graphiql-page.js';
import { graphiqlPageBytes, useGraphiQLPage } from './plugins/use-graphiql-page.js';
import { useLanguage } from './plugins/use-language.js';
import { useMaskedIncrementalErrors } from './plugins/use-masked-incremental-errors.js';
import { useMetrics } from './plugins/use-metrics.js';
import { useOperationLimits } from './plugins/use-operation-limits.js';
import { useOperationLog } from './plugins/use-operation-log.js';
import { usePortal } from './plugins/use-portal.js';
import { useDownloads } from '../downloads/use-downloads.js';
import { useHarvest } from '../harvest/use-harvest.js';
import type { DatasetCode } from '../catalogue.js';
import { errorResponse } from './error-answer.js';
import {
  useAutomaticPersistedQueries,
  useTrustedDocuments,
  type PersistedManifest,
} from './plugins/use-persisted-operations.js';
import { rateLimitCharges, type RateLimitOptions } from './plugins/use-rate-limit.js';
import { useRateLimitFields } from './plugins/use-rate-limit-fields.js';
import { useReadiness, YOGA_HEALTH_CHECK_DISABLED, type Readiness } from './plugins/use-readiness.js';
import { useRequestId } from './plugins/use-request-id.js';
import { useRequestShape } from './plugins/use-request-shape.js';
import { useResponseDelivery } from './plugins/use-response-delivery.js';
import { useSecurityHeaders } from './plugins/use-security-headers.js';
import { useSimulatedUpstream } from './plugins/use-simulated-upstream.js';
import type { ResponseCache } from './response-cache/cache.js';
import { createHotPath } from './response-cache/hot-path.js';
import { guardRequests } from './request-guard.js';
import type { Tracing } from './tracing.js';
import { useAnswerBudget } from './plugins/use-answer-budget.js';
import { useSlicedSerialisation } from './plugins/use-sliced-serialisation.js';
import { useWarnings } from './plugins/use-warnings.js';
import type { PayloadSizes } from '../graphql/payload-sizes.js';
import type { InFlightBodies } from '../graphql/response-ledger.js';
import { boundedParseCache, useValidationErrorsReleased } from './parse-cache.js';
import { schema } from '../graphql/schema.js';
import type { ShapeDriftWatch } from '../records/shape-drift.js';
import type { ShapeWatch } from '../records/shape-watch.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamSource } from '../upstream/source.js';
import type { LiveHub } from '../live/subscription-hub.js';
import type { DatasetVersions } from '../live/dataset-versions.js';
import { useEventStreamHeartbeat } from './plugins/use-event-stream-heartbeat.js';
import { useSubscriptionRelease } from './plugins/use-subscription-release.js';
import { useMultipartSubscriptions } from './plugins/use-multipart-subscriptions.js';
import { createGraphQLWebSockets, type GraphQLWebSockets } from './websocket.js';

/** Every part the app is made of, built and wired once by `assemble` (assemble.ts). */
export interface AppDependencies {
  /** Builds `apiUrl`s; payloads are read through `source`, never from the client directly. */
  readonly upstream: UpstreamClient;
  /** Upstream payloads through the cross-request cache. */
  readonly source: UpstreamSource;
  /** What HTTP caches and the response cache are told about how long answers stay fresh. */
  readonly httpCaching: HttpCachingPolicy;
  /** The clock of the response cache and the freshness headers. */
  readonly now: () => number;
  /** Serialised answers to anonymous queries, served before yoga; undefined when the response cache is off. */
  readonly responseCache: ResponseCache | undefined;
  readonly access: AccessService;
  readonly logger: Logger;
  /** What /ready answers: the dependencies' checks. */
  readonly readiness: Readiness;
  readonly limits: OperationLimits;
  /** CORS origins, GraphiQL and introspection. */
  readonly http: HttpConfig;
  /** Trusted documents: when given, only these operations run, and APQ registration is off. */
  readonly trustedDocuments: PersistedManifest | undefined;
  /** No rate limit when undefined. */
  readonly rateLimit: Omit<RateLimitOptions, 'onRefusal'> | undefined;
  /** Per-IP budgets of failed authentications and client registrations; none when both are off. */
  readonly ipLimits: IpLimits | undefined;
  /** Each caller's budget of upstream fetches (cache misses); none when off. */
  readonly fetchBudgets: FetchBudgets | undefined;
  /** Client IPs (for the per-IP budgets) are the last X-Forwarded-For entry when true, else the socket's peer. */
  readonly trustProxy: boolean;
  /** The registry /metrics shows; the upstream client and source report into the same one. */
  readonly metrics: Metrics;
  /** Serve GET /metrics here; false when the operators' own listener does (ADMIN_LISTEN_PORT). */
  readonly metricsPage: boolean;
  /** Where APQ documents are registered (unused with trusted documents). */
  readonly persistedQueries: PersistedQueryStore;
  /** OpenTelemetry tracing, when configured (see tracing.ts). */
  readonly tracing: Pick<Tracing, 'plugin' | 'traceRequest'> | undefined;
  /** The subscriptions of this instance. */
  readonly live: LiveHub;
  /** What the watcher recorded of each dataset. */
  readonly datasetVersions: DatasetVersions;
  /** Days of usage the store keeps (USAGE_RETENTION_DAYS). */
  readonly usageRetentionDays: number;
  /** How often an idle subscription stream gets a comment line. */
  readonly heartbeatMs: number;
  /** Upstream record shapes as first seen, and the drift from them. */
  readonly shapes: ShapeWatch;
  readonly shapeDrift: ShapeDriftWatch;
  /** Sizes of the upstream payloads, for the operation cost limits. */
  readonly payloadSizes: PayloadSizes;
  /** The bound on the upstream bodies that answers in flight hold. */
  readonly inFlightBodies: InFlightBodies;
  /** The upstream is the embedded simulator: every answer says so (use-simulated-upstream.ts). */
  readonly simulatedUpstream: boolean;
}

export interface App {
  /** The GraphQL server as a fetch handler (yoga's): no socket, no side effects, so tests call it directly. */
  readonly fetch: YogaServerInstance<Record<string, unknown>, Context>['fetch'];
  /** For node:http: answers from the response cache before yoga when it can, and hands the rest to yoga. */
  readonly requestListener: RequestListener;
  /** graphql-ws on the GraphQL path, for node:http's `upgrade` event; the same pipeline as `fetch`. */
  readonly webSockets: GraphQLWebSockets;
}

export const GRAPHQL_PATH = '/graphql';
/** What parsed documents and their validation results may hold (an estimate; see parse-cache.ts). */
export const PARSE_CACHE_MAX_BYTES = 32 * 1024 * 1024;

export function createApp(deps: AppDependencies): App {
  const { limits, http, metrics, now, responseCache } = deps;
  const callers = new RequestCallers({ access: deps.access, ipLimits: deps.ipLimits, trustProxy: deps.trustProxy });
  // One page for the plugin that serves it and the rate limit that prices it by the bytes it sends.
  const graphiqlPage = http.graphiql
    ? new GraphiQLPage({
        title: 'thai-edu-graphql: สถิติการศึกษา',
        defaultQuery: GRAPHIQL_DEFAULT_QUERY,
        defaultTabs: GRAPHIQL_TABS,
      })
    : undefined;
  const rateLimit =
    deps.rateLimit === undefined
      ? undefined
      : rateLimitCharges({
          ...deps.rateLimit,
          callers,
          graphqlPath: GRAPHQL_PATH,
          graphiqlBytes: graphiqlPage === undefined ? undefined : graphiqlPageBytes(graphiqlPage),
          onRefusal: (kind) => metrics.rateLimited(kind),
        });
  // The licence, contact and last change that catalogues, harvesters and the portal's pages publish.
  const publishing = {
    licence: { name: http.licenceName, url: http.licenceUrl },
    contactEmail: http.contactEmail,
    apiUrl: (code: DatasetCode) => deps.upstream.datasetUrl(code),
    modified: async (code: DatasetCode) => {
      const seen = await deps.datasetVersions.get(code);
      return seen === undefined ? undefined : new Date(seen.changedAt);
    },
  };
  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    context: createContextFactory({
      ...deps,
      callers,
      publishing,
      maxResponseBytes: limits.maxResponseBytes,
      maxNodeIds: limits.maxNodeIds,
    }),
    graphqlEndpoint: GRAPHQL_PATH,
    healthCheckEndpoint: YOGA_HEALTH_CHECK_DISABLED,
    landingPage: false,
    logging: yogaLoggerFrom(deps.logger),
    maskedErrors: { maskError },
    cors: corsOptions(http.corsOrigins),
    batching: { limit: limits.maxBatch },
    // Parameters common clients send beside the standard four, accepted and ignored rather than refused with 400:
    // Apollo Client's operation object (as a graphql-sse link sends it whole) carries `operationType`, and
    // persisted-document clients send `documentId` (codegen's client preset) or `doc_id` (Relay).
    extraParamNames: ['operationType', 'documentId', 'doc_id'],
    // The body is bounded before yoga (request-guard.ts) at a tighter limit, its decoded form by useRequestDecompression;
    // yoga's own 25 MB check would pipe every body through a stream transform again (a few % of a miss).
    maxRequestBodySize: false,
    parserAndValidationCache: boundedParseCache(PARSE_CACHE_MAX_BYTES),
    // Served by useGraphiQLPage instead, which renders and compresses the page once.
    graphiql: false,
    plugins: (
      [
        useRequestId(),
        useValidationErrorsReleased(),
        useSecurityHeaders(),
        ...(deps.simulatedUpstream ? [useSimulatedUpstream()] : []),
        useLanguage(GRAPHQL_PATH),
        useEventStreamHeartbeat(deps.heartbeatMs),
        useSubscriptionRelease(),
        useRateLimitFields(),
        // Before the pages it meters (GraphiQL, /metrics); its GraphQL tokens are taken when parameters are read.
        ...(rateLimit === undefined ? [] : [rateLimit.plugin]),
        useMultipartSubscriptions(deps.heartbeatMs, deps.logger),
        ...(graphiqlPage === undefined ? [] : [useGraphiQLPage({ graphqlPath: GRAPHQL_PATH, page: graphiqlPage })]),
        ...(http.portal ? [usePortal(publishing)] : []),
        useHarvest(publishing),
        useDownloads({
          ...deps,
          callers,
          pay: rateLimit?.payForSocketOperation,
          refuse: errorResponse,
          maxBytes: limits.maxResponseBytes,
          maxRows: http.downloadMaxRows,
          staleWhileRevalidateS: deps.httpCaching.staleWhileRevalidateS,
        }),
        useRequestDecompression(limits.maxBodyBytes),
        useRequestShape(),
        useBatchLimit(limits.maxBatch),
        useMetrics(metrics, { page: deps.metricsPage }),
        ...(deps.tracing === undefined ? [] : [deps.tracing.plugin]),
        useReadiness(deps.readiness),
        useCsrfPrevention(),
        deps.trustedDocuments === undefined
          ? useAutomaticPersistedQueries(deps.persistedQueries)
          : useTrustedDocuments(deps.trustedDocuments),
        ...useOperationLimits(limits, deps.payloadSizes),
        ...(http.introspection ? [] : [useDisableIntrospection()]),
        useDeferStream(),
        useMaskedIncrementalErrors(maskError),
        useAnswerBudget(),
        useWarnings(),
        useSlicedSerialisation(),
        useOperationLog(metrics),
        // Last: freshness, then the response cache, then compression, each over the response the one before made.
        useResponseDelivery({ ...deps.httpCaching, now, responseCache, metrics, graphqlPath: GRAPHQL_PATH }),
      ] as Plugin<Context>[]
    ).map((plugin) => withErrorBoundary(plugin, deps.logger)),
  });
  const webSockets = createGraphQLWebSockets({
    yoga,
    graphqlPath: GRAPHQL_PATH,
    maxPayloadBytes: limits.maxBodyBytes,
    heartbeatMs: deps.heartbeatMs,
    trustedDocuments: deps.trustedDocuments,
    payForOperation: rateLimit?.payForSocketOperation,
    corsOrigins: http.corsOrigins,
    metrics,
    logger: deps.logger,
  });
  return {
    webSockets,
    // whatwg-node defines fetch as an arrow function, so it needs no binding (and bind() would lose its overloads).
    // eslint-disable-next-line @typescript-eslint/unbound-method
    fetch: yoga.fetch,
    requestListener: guardRequests(
      responseCache === undefined
        ? yoga.requestListener
        : createHotPath({
            cache: responseCache,
            yoga: yoga.requestListener,
            graphqlPath: GRAPHQL_PATH,
            metrics,
            rateLimit: deps.rateLimit,
          }),
      {
        logger: deps.logger,
        maxBodyBytes: limits.maxBodyBytes,
        cors: corsOptions(http.corsOrigins),
        trustProxy: deps.trustProxy,
        clientDetails: { address: http.accessLogClientAddress, userAgent: http.accessLogUserAgent },
        simulatedUpstream: deps.simulatedUpstream,
        traceRequest: deps.tracing?.traceRequest,
        onAnswered: (method, status) => metrics.httpRequest(method, status),
      },
    ),
  };
}
