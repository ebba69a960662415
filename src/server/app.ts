import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createYoga, type Plugin, type YogaServerOptions } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { AccessService } from '../access/model.js';
import type { HttpConfig, OperationLimits } from '../config.js';
import { createContextFactory, type Context } from '../graphql/context.js';
import type { FetchBudgets } from '../rate-limit/fetch-budgets.js';
import type { IpLimits } from '../rate-limit/ip-budgets.js';
import { maskError } from '../graphql/errors.js';
import { RequestCallers } from '../http/request-callers.js';
import { yogaLoggerFrom } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import type { PersistedQueryStore } from './operations/persisted-query-store.js';
import { corsOptions } from './transport/cors.js';
import { useBatchLimit } from './transport/use-batch-limit.js';
import { useCsrfPrevention } from './transport/use-csrf-prevention.js';
import { withErrorBoundary } from './answers/error-boundary.js';
import { useRequestDecompression } from './transport/use-compression.js';
import type { HttpCachingPolicy } from './response-cache/use-freshness.js';
import { GraphiQLPage } from './pages/graphiql-page.js';
import { graphiqlRoute } from './pages/use-graphiql-page.js';
import { useLanguage } from './answers/use-language.js';
import { useMaskedIncrementalErrors } from './answers/use-masked-incremental-errors.js';
import { metricsRoute, useMetrics } from './observability/use-metrics.js';
import { errorResponse } from './answers/error-answer.js';
import { useOperationLimits } from './operations/use-operation-limits.js';
import { useOperationLog } from './observability/use-operation-log.js';
import { portalRoute } from './pages/use-portal.js';
import { downloadsRoute } from '../downloads/use-downloads.js';
import { harvestRoute } from '../harvest/use-harvest.js';
import { createFrontDoor, requestStates, type FrontDoor } from './front-door.js';
import type { Route } from '../http/route.js';
import { createServerAdapter } from '@whatwg-node/server';
import { schemaFiles } from './schema-files/schema-files.js';
import { schemaFilesRoute } from './schema-files/route.js';
import { mcpRoute } from '../mcp/route.js';
import type { DatasetCode } from '../catalogue.js';
import { datasetDatesReader } from '../live/dataset-dates.js';
import { periodScanner, referencePeriodReader } from '../live/reference-periods.js';
import { fileSizeReader } from '../downloads/file-sizes.js';
import {
  useAutomaticPersistedQueries,
  useTrustedDocuments,
  type PersistedManifest,
} from './operations/use-persisted-operations.js';
import { rateLimitCharges, type RateLimitOptions } from './rate-limit/use-rate-limit.js';
import { useRateLimitFields } from './rate-limit/use-rate-limit-fields.js';
import { healthRoute, readyRoute, YOGA_HEALTH_CHECK_DISABLED, type Readiness } from './observability/use-readiness.js';
import { useRequestId } from './transport/use-request-id.js';
import { useRequestShape } from './transport/use-request-shape.js';
import { useResponseDelivery } from './response-cache/use-response-delivery.js';
import { useSecurityHeaders } from './transport/use-security-headers.js';
import { useSimulatedUpstream } from './answers/use-simulated-upstream.js';
import type { ResponseCache } from './response-cache/cache.js';
import { createHotPath } from './response-cache/hot-path.js';
import {
  pipelinePlugin,
  useOperationState,
  withRequestState,
  type GraphQLListener,
  type NodeListener,
  type PipelineRequestState,
  type PipelineServerContext,
  type RequestEntry,
} from './request-state.js';
import { targetPathname } from '../http/request-target.js';
import type { AccessNotes } from './observability/access-log.js';
import { guardRequests, type BufferedListener } from './transport/request-guard.js';
import type { Tracing } from './observability/tracing.js';
import { useAnswerBudget } from './operations/use-answer-budget.js';
import { useSlicedSerialisation } from './response-cache/use-sliced-serialisation.js';
import { useWarnings } from './answers/use-warnings.js';
import type { PayloadSizes } from '../graphql/payload-sizes.js';
import type { InFlightBodies } from '../graphql/response-ledger.js';
import { boundedParseCache, useValidationErrorsReleased } from './operations/parse-cache.js';
import { schema } from '../graphql/schema.js';
import type { ShapeDriftWatch } from '../records/shape-drift.js';
import type { ShapeWatch } from '../records/shape-watch.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamSource } from '../upstream/source.js';
import type { LiveHub } from '../live/subscription-hub.js';
import type { DatasetVersions } from '../live/dataset-versions.js';
import { useEventStreamHeartbeat } from './transport/use-event-stream-heartbeat.js';
import { useSubscriptionRelease } from './transport/use-subscription-release.js';
import { useMultipartSubscriptions } from './transport/use-multipart-subscriptions.js';
import { createGraphQLWebSockets, type GraphQLWebSockets } from './transport/websocket.js';
import { createSubgraphYoga, routeSubgraphFetch, routeSubgraphListener } from '../federation/subgraph-yoga.js';

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
  /** How long a WebSocket running no operation stays open (WEBSOCKET_IDLE_TIMEOUT_MS). */
  readonly webSocketIdleMs: number;
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
  /** The names of the pipeline's stages, in order (the order app.ts states its rules for). */
  readonly pipeline: readonly string[];
  /** The names of the front door's routes (front-door.ts), in the order they are matched. */
  readonly routes: readonly string[];
  /** The whole app as a fetch handler (the front door's routes, then yoga): no socket, so tests call it directly. */
  readonly fetch: AppFetch;
  /** For node:http: answers from the response cache before yoga when it can, and hands the rest to yoga. */
  readonly requestListener: RequestListener;
  /** graphql-ws on the GraphQL path, for node:http's `upgrade` event; the same pipeline as `fetch`. */
  readonly webSockets: GraphQLWebSockets;
}

/**
 * A fetch handler; `serverContext` is what node:http's adapter would give (`req`, whose socket names the client's
 * address): tests give a stand-in to be another client.
 */
export type AppFetch = (
  input: string | URL | Request,
  init?: RequestInit,
  serverContext?: Readonly<Record<string, unknown>>,
) => Promise<Response>;

/** One stage of the pipeline: a yoga plugin and the name the pinned order knows it by. */
interface PipelineStage {
  readonly name: string;
  readonly plugin: Plugin<Context>;
}

function stage<PluginContext extends object, ServerContext extends object>(
  name: string,
  plugin: Plugin<PluginContext, ServerContext>,
): PipelineStage {
  // Every stage runs in the same yoga, whose context is Context and whose server context carries the request state
  // (request-state.ts); each plugin names only the part it reads.
  return { name, plugin: pipelinePlugin(plugin) as Plugin<Context> };
}

export const GRAPHQL_PATH = '/graphql';
/** How long the feeds wait for a dataset's records to state its reference period before they omit it. */
const REFERENCE_PERIOD_WAIT_MS = 2_000;
/** What parsed documents and their validation results may hold (an estimate; see parse-cache.ts). */
export const PARSE_CACHE_MAX_BYTES = 32 * 1024 * 1024;

export function createApp(deps: AppDependencies): App {
  const { limits, http, metrics, now, responseCache } = deps;
  const callers = new RequestCallers({ access: deps.access, ipLimits: deps.ipLimits, trustProxy: deps.trustProxy });
  // Every request's state is made by this, where it enters (routedListener, routedFetch; a socket's operations).
  const requestState = requestStates(callers);
  // One page for the plugin that serves it and the rate limit that prices it by the bytes it sends.
  const graphiqlPage = http.graphiql ? new GraphiQLPage() : undefined;
  const rateLimit =
    deps.rateLimit === undefined
      ? undefined
      : rateLimitCharges({
          ...deps.rateLimit,
          onRefusal: (kind) => metrics.rateLimited(kind),
          heldBackPrice: (state) => state.responseCache.candidate?.heldBackPrice,
          logger: deps.logger,
        });
  // The licence, contact and dates (from the store) that catalogues, harvesters and the portal's pages publish.
  // One scan of a dataset's years per payload version, whether a feed or a GraphQL field asks first.
  const periodOf = periodScanner();
  const publishing = {
    periodOf,
    licence: { id: http.licenceId, name: http.licenceName, url: http.licenceUrl },
    contactEmail: http.contactEmail,
    apiUrl: (code: DatasetCode) => deps.upstream.datasetUrl(code),
    dates: datasetDatesReader(deps.access, deps.datasetVersions),
    periods: referencePeriodReader(deps.source, REFERENCE_PERIOD_WAIT_MS, periodOf),
    byteSizes: fileSizeReader(
      deps.source,
      { maxRows: http.downloadMaxRows, maxBytes: limits.maxResponseBytes },
      REFERENCE_PERIOD_WAIT_MS,
    ),
  };
  // The pipeline, in yoga's order: request hooks run down this list, and so do response hooks, each over the response
  // the stage before it made. The rules that fix the order, stated here only (test/contract/pipeline-order.test.ts pins it):
  // - operation-state first: every later stage's hooks find each operation's state (request-state.ts).
  // - request-id next: every answer, a refusal of any later stage included, carries the id its log lines carry.
  // Only GraphQL is answered here: every other door is a route of the front door (front-door.ts), ahead of yoga.
  // - security-headers, simulated-upstream and language before any stage that answers by itself (a refusal): their
  //   response hooks then reach those answers too.
  // - event-stream-heartbeat and subscription-release before the rate limit: a stream refused later is still released.
  // - rate-limit-fields before the rate limit and every budget, so a refusal carries the fields of what it spent;
  //   rate-limit before any parsing.
  // - request-decompression, then request-shape, then batch-limit: the body is decoded before its shape is checked,
  //   and the shape before anything counts the operations in it.
  // - metrics and tracing before the operation stages, so they see every refusal those make.
  // - csrf-prevention before persisted-operations and the operation limits (validation-bounds to cost-limit): a
  //   forged request is refused unparsed.
  // - persisted-operations before the operation limits: they measure the document a hash stands for; validation-bounds
  //   first among them, since it refuses what the others would be slow to measure.
  // - defer-stream before masked-incremental-errors, which masks the increments it makes.
  // - answer-budget, warnings, sliced-serialisation and operation-log over the finished result, in that order: the
  //   budget may add an error, warnings go in `extensions`, the text is written, and the log reads what was sent.
  // - response-delivery last: freshness, then the response cache, then compression, over the final answer.
  const pipeline: readonly PipelineStage[] = [
    stage('operation-state', useOperationState()),
    stage('request-id', useRequestId()),
    stage('validation-errors-released', useValidationErrorsReleased()),
    stage('security-headers', useSecurityHeaders()),
    ...(deps.simulatedUpstream ? [stage('simulated-upstream', useSimulatedUpstream())] : []),
    stage('language', useLanguage(GRAPHQL_PATH)),
    stage('event-stream-heartbeat', useEventStreamHeartbeat(deps.heartbeatMs)),
    stage('subscription-release', useSubscriptionRelease()),
    stage('rate-limit-fields', useRateLimitFields()),
    ...(rateLimit === undefined ? [] : [stage('rate-limit', rateLimit.plugin)]),
    stage('multipart-subscriptions', useMultipartSubscriptions(deps.heartbeatMs, deps.logger)),
    stage('request-decompression', useRequestDecompression(limits.maxBodyBytes)),
    stage('request-shape', useRequestShape()),
    stage('batch-limit', useBatchLimit(limits.maxBatch)),
    stage('metrics', useMetrics(metrics)),
    ...(deps.tracing === undefined ? [] : [stage('tracing', deps.tracing.plugin)]),
    stage('csrf-prevention', useCsrfPrevention()),
    deps.trustedDocuments === undefined
      ? stage('persisted-operations', useAutomaticPersistedQueries(deps.persistedQueries))
      : stage('persisted-operations', useTrustedDocuments(deps.trustedDocuments)),
    ...useOperationLimits(limits, deps.payloadSizes).map(([name, plugin]) => stage(name, plugin)),
    ...(http.introspection ? [] : [stage('introspection-disabled', useDisableIntrospection())]),
    stage('defer-stream', useDeferStream()),
    stage('masked-incremental-errors', useMaskedIncrementalErrors(maskError)),
    stage('answer-budget', useAnswerBudget()),
    stage('warnings', useWarnings()),
    stage('sliced-serialisation', useSlicedSerialisation()),
    stage('operation-log', useOperationLog(metrics)),
    stage(
      'response-delivery',
      useResponseDelivery({
        ...deps.httpCaching,
        now,
        responseCache,
        metrics,
        graphqlPath: GRAPHQL_PATH,
        priceSentBytes: rateLimit?.priceSentBytes,
      }),
    ),
  ];
  const contextOf = createContextFactory({
    ...deps,
    publishing,
    maxResponseBytes: limits.maxResponseBytes,
    maxNodeIds: limits.maxNodeIds,
  });
  const yogaOptions: YogaServerOptions<Record<string, unknown>, Context> = {
    schema,
    // Every request brings its state in the server context (routedListener, routedFetch, the WebSocket server).
    context: (initial) => contextOf(initial as typeof initial & PipelineServerContext),
    graphqlEndpoint: GRAPHQL_PATH,
    healthCheckEndpoint: YOGA_HEALTH_CHECK_DISABLED,
    landingPage: false,
    logging: yogaLoggerFrom(deps.logger),
    maskedErrors: { maskError },
    cors: corsOptions(http.corsOrigins),
    batching: { limit: limits.maxBatch },
    // Parameters common clients send beside the standard four, accepted and ignored rather than refused with 400:
    // Apollo Client's operation object (as a graphql-sse link sends it whole) carries `operationType`, and
    // persisted-document clients send `documentId` (codegen's client preset), `doc_id` (Relay) or `id` (Strawberry Shake).
    extraParamNames: ['operationType', 'documentId', 'doc_id', 'id'],
    // The body is bounded before yoga (request-guard.ts) at a tighter limit, its decoded form by useRequestDecompression;
    // yoga's own 25 MB check would pipe every body through a stream transform again (a few % of a miss).
    maxRequestBodySize: false,
    parserAndValidationCache: boundedParseCache(PARSE_CACHE_MAX_BYTES),
    // Served by the front door's graphiql route instead, which renders and compresses the page once.
    graphiql: false,
    plugins: pipeline.map(({ plugin }) => withErrorBoundary(plugin, deps.logger)),
  };
  const yoga = createYoga(yogaOptions);
  // The Federation v2 subgraph at /subgraph: the same options and pipeline over the subgraph schema (src/federation/).
  const subgraph = createSubgraphYoga({ yoga: yogaOptions, token: http.subgraphToken, refuse: errorResponse });
  const webSockets = createGraphQLWebSockets({
    yoga,
    graphqlPath: GRAPHQL_PATH,
    maxPayloadBytes: limits.maxBodyBytes,
    heartbeatMs: deps.heartbeatMs,
    idleMs: deps.webSocketIdleMs,
    trustedDocuments: deps.trustedDocuments,
    payForOperation: rateLimit?.payForSocketOperation,
    corsOrigins: http.corsOrigins,
    metrics,
    logger: deps.logger,
    requestState,
  });
  // The doors that are not GraphQL, in the order they are matched: GraphiQL's page first, since it shares the
  // GraphQL path (a GET asking for HTML).
  const routes: readonly Route[] = [
    healthRoute,
    readyRoute(deps.readiness),
    ...(deps.metricsPage ? [metricsRoute(metrics)] : []),
    ...(graphiqlPage === undefined ? [] : [graphiqlRoute({ graphqlPath: GRAPHQL_PATH, page: graphiqlPage })]),
    ...(http.portal ? [portalRoute(publishing)] : []),
    harvestRoute(publishing),
    schemaFilesRoute(schemaFiles(schema, http.introspection)),
    // MCP's tools run their GraphQL operations back through yoga, as the caller: each pays what its operation costs.
    mcpRoute({
      // Each tool's operation is a request of its own to yoga, with a state of its own.
      graphql: (request, serverContext) =>
        Promise.resolve(
          yoga.fetch(request, {
            ...serverContext,
            state: requestState({ headers: request.headers, url: () => new URL(request.url), node: serverContext.req }),
          }),
        ),
      graphqlPath: GRAPHQL_PATH,
      corsOrigins: http.corsOrigins,
      maxResultBytes: http.mcpMaxResultBytes,
    }),
    downloadsRoute({
      ...deps,
      publishing,
      maxBytes: limits.maxResponseBytes,
      maxRows: http.downloadMaxRows,
      staleWhileRevalidateS: deps.httpCaching.staleWhileRevalidateS,
    }),
  ];
  const frontDoor = createFrontDoor(routes, {
    rateLimit:
      deps.rateLimit === undefined
        ? undefined
        : { limiter: deps.rateLimit.limiter, onRefusal: (kind) => metrics.rateLimited(kind) },
    cors: corsOptions(http.corsOrigins),
    logger: deps.logger,
    simulatedUpstream: deps.simulatedUpstream,
  });
  // yoga's node:http listeners, given the request state in their server context.
  const yogaListener = withRequestState(yoga.requestListener);
  const subgraphListener = withRequestState(subgraph.requestListener);
  const graphqlListener =
    responseCache === undefined
      ? yogaListener
      : createHotPath({
          cache: responseCache,
          yoga: yogaListener,
          graphqlPath: GRAPHQL_PATH,
          metrics,
          rateLimit: deps.rateLimit,
        });
  return {
    pipeline: pipeline.map(({ name }) => name),
    routes: frontDoor.routes,
    webSockets,
    fetch: routedFetch(frontDoor, requestState, async (input, init, serverContext = {}) => {
      // whatwg-node defines fetch as an arrow function, so it needs no binding (and bind() would lose its overloads).
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const graphql = routeSubgraphFetch(yoga.fetch, subgraph.fetch);
      return input instanceof Request
        ? graphql(input, serverContext)
        : graphql(String(input), init ?? {}, serverContext);
    }),
    requestListener: guardRequests(
      routedListener(frontDoor, requestState, routeSubgraphListener(graphqlListener, subgraphListener)),
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

/** Makes a request's state (request-state.ts). */
type RequestStates = (entry: RequestEntry) => PipelineRequestState;

/**
 * The fetch handler of the whole app: a route's request through the front door, any other to yoga, each with the
 * request state made here (yoga finds it in its server context).
 */
function routedFetch(frontDoor: FrontDoor, requestState: RequestStates, graphql: AppFetch): AppFetch {
  return async (input, init, serverContext = {}) => {
    const given = input instanceof Request ? input : undefined;
    const url = new URL(given?.url ?? (input instanceof URL ? input.href : (input as string)));
    const head = {
      method: init?.method ?? given?.method ?? 'GET',
      headers: new Headers(init?.headers ?? given?.headers),
    };
    const node = serverContext['req'] as IncomingMessage | undefined;
    const state = requestState({ headers: head.headers, url: () => url, node });
    const route = frontDoor.routeOf(url.pathname, head);
    // yoga makes its own Request (its fetch API's) from what it is given, as it would for a socket.
    if (route === undefined) return graphql(input, init, { ...serverContext, state });
    const request = given !== undefined && init === undefined ? given : new Request(input, init);
    return frontDoor.serve(route, request, state);
  };
}

/**
 * The node:http listener behind the guard. The route table is asked once, by the target's path (no URL is made for
 * it): a route's request goes through the front door (whatwg-node's adapter makes its fetch Request, which the
 * request state is made from, and writes its Response), any other to the GraphQL listener (the hot path, then
 * yoga) with its request state.
 */
function routedListener(frontDoor: FrontDoor, requestState: RequestStates, graphql: GraphQLListener): BufferedListener {
  const routes = createServerAdapter<{ req: IncomingMessage; res: ServerResponse; route: Route; notes: AccessNotes }>(
    (request, { req, route, notes }) =>
      frontDoor.serve(
        route,
        request,
        requestState({ headers: request.headers, url: () => new URL(request.url), node: req, accessNotes: notes }),
      ),
  );
  const routeListener = routes.requestListener as NodeListener<{ route: Route; notes: AccessNotes }>;
  return (request, response, notes) => {
    const head = {
      method: request.method ?? 'GET',
      headers: { get: (name: string) => headerOf(request, name) },
    };
    const route = frontDoor.routeOf(targetPathname(request.url ?? '/'), head);
    if (route !== undefined) return routeListener(request, response, { route, notes });
    const url = (): URL => new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
    return graphql(request, response, requestState({ headers: head.headers, url, node: request, accessNotes: notes }));
  };
}

function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}
