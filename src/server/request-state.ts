/**
 * The request state, whole: what every door shares (http/request-state.ts), what the GraphQL layer keeps
 * (graphql/request-state.ts), and here what the stages of the GraphQL pipeline hand each other, by concern. One
 * object per HTTP request, made by `requestStates` (front-door.ts) where the request enters (app.ts's
 * `routedListener` and `routedFetch`; the WebSocket server makes one per operation, which has no HTTP request of its
 * own), then handed to the route that answers it, or to the hot path and yoga, whose stages and resolvers read it
 * as `serverContext.state` and `context.state`. Each operation of a request (one per member of a batch) also has its
 * own state, `context.operation`, made by the first stage of the pipeline (`useOperationState`).
 *
 * A stage that must tell a later one something about a request writes a field here, declared once below with who
 * writes it and who reads it; no module keeps a map keyed by the request or its context
 * (test/unit/request-state.test.ts).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { DocumentNode } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import type { Context } from '../graphql/context.js';
import type { GraphQLRequestState } from '../graphql/request-state.js';
import type { ArrivalPayment } from '../rate-limit/byte-price.js';
import type { AccessNotes } from './observability/access-log.js';
import type { OperationLabel } from './observability/metrics.js';
import type { CacheCandidate } from './response-cache/cache.js';
import type { AnswerChunks } from './response-cache/sliced-json.js';

/** The state of one request: what every door shares, the GraphQL layer's, and the pipeline's, by concern. */
export interface PipelineRequestState extends GraphQLRequestState {
  /**
   * What the parts that answered the request tell its access line (observability/access-log.ts, which writes it):
   * undefined when no access line is written (the fetch handler, a WebSocket's operation).
   */
  readonly accessNotes: AccessNotes | undefined;
  readonly responseCache: ResponseCacheState;
  readonly rateLimit: RateLimitState;
  readonly metrics: RequestMetricsState;
  readonly answer: AnswerState;
  readonly transport: TransportState;
}

/** The response cache's: the hot path's hand-off to the plugin that stores yoga's answer (response-cache/). */
export interface ResponseCacheState {
  /** Set by the hot path for a request it could not answer from the cache; read by use-response-cache.ts. */
  candidate: CacheCandidate | undefined;
  /** The hot path's key, once yoga runs the parameters that key was computed from (use-response-cache.ts). */
  executedKey: string | undefined;
  /** Set when its operation was a query that ran without errors, with its name: its answer may be stored. */
  reusable: { readonly operationName: string | undefined } | undefined;
}

/** The rate limit's (rate-limit/use-rate-limit.ts). */
export interface RateLimitState {
  /** What the request paid on arrival and from which bucket, so its answer's bytes are priced beyond that. */
  payment: ArrivalPayment | undefined;
  /** Its operations were paid for when its parameters were read (else they pay when they execute). */
  chargedAtParse: boolean;
}

/** The metrics plugin's (observability/use-metrics.ts). */
export interface RequestMetricsState {
  /** When yoga's pipeline took the request (the HTTP duration's start). */
  arrivedAt: number | undefined;
  /** Whether any of its operations parsed: only those are in the HTTP duration histogram. */
  parsed: boolean;
}

/** What is known of the answer once yoga made it. */
export interface AnswerState {
  /** The final result carries an error, or a warning (response-cache/answer-errors.ts): no cache may keep it. */
  hasErrors: boolean;
  hasWarnings: boolean;
  /** RESPONSE_TOO_LARGE is reported once per answer (per event of a subscription): it was (use-answer-budget.ts). */
  tooLargeReported: boolean;
  /**
   * The chunks of the answer's large members, in the order their marks appear in the processor's text: written by
   * onResultProcess, put in the body by onResponse (response-cache/use-sliced-serialisation.ts).
   */
  pendingChunks: AnswerChunks[] | undefined;
}

/** The transport stages' (transport/). */
export interface TransportState {
  /** The number of operations of a batch as read, so a refusal is repeated for each (use-batch-limit.ts). */
  batchSize: number | undefined;
  /** Its parameters were read as a batch: its subscriptions' streams are never sent (use-subscription-release.ts). */
  batched: boolean;
  /** The streams its subscriptions opened, ended unless its answer is their event stream (use-subscription-release.ts). */
  openedStreams: AsyncIterableIterator<unknown>[] | undefined;
  /** One of its operations subscribed: its answer may be Apollo's multipart stream (use-multipart-subscriptions.ts). */
  subscribed: boolean;
  /** A WebSocket operation's first result carried the RateLimit fields already (websocket-server.ts). */
  rateLimitReported: boolean;
}

/** The state of one GraphQL operation (`context.operation`): one per member of a batch, one per socket operation. */
export interface OperationState {
  /** The metrics plugin's (observability/use-metrics.ts). */
  readonly metrics: {
    /** When the operation was enveloped: the start of the time summary. */
    envelopedAt: number | undefined;
    /** The document it parsed: undefined until it did (or when it failed to), so nothing more is counted of it. */
    parsed: DocumentNode | undefined;
    /** Its labels, worked out once for the document they were worked out from. */
    labels:
      { readonly document: DocumentNode | undefined; readonly labels: Record<OperationLabel, string> } | undefined;
  };
  /** An automatic persisted query's registration, stored once the operation runs (use-persisted-operations.ts). */
  apqRegistration: { readonly hash: string; readonly document: string } | undefined;
}

/** What yoga's server context carries for the pipeline's stages: the request state (and node's req/res). */
export interface PipelineServerContext {
  readonly state: PipelineRequestState;
}

/**
 * What the pipeline's stages find in yoga's context: yoga's own (request, params), the resolvers' context, the
 * request's state and the operation's.
 */
export type PipelineContext = YogaInitialContext &
  Context & { readonly state: PipelineRequestState; readonly operation: OperationState };

/** What yoga's onParams hooks are given as the operation's context, once the first stage gave it its state. */
export type OperationServerContext = PipelineServerContext & { readonly operation: OperationState };

/**
 * A stage's plugin (or one it adds) as yoga's `createYoga` and `addPlugin` take it: their types know neither the
 * server context the request state comes in nor the context the stages share, though every request brings both.
 */
export function pipelinePlugin<PluginContext extends object, ServerContext extends object>(
  plugin: Plugin<PluginContext, ServerContext>,
): Plugin<PipelineContext> {
  return plugin as unknown as Plugin<PipelineContext>;
}

/** Where a request entered, as its state is made from it. */
export interface RequestEntry {
  /** Its header fields (node:http's or the fetch API's). */
  readonly headers: Pick<Headers, 'get'>;
  /** Its URL, parsed only when something reads `state.url`. */
  readonly url: () => URL;
  readonly node: IncomingMessage | undefined;
  /** The notes of the access line the guard started for it (node:http only). */
  readonly accessNotes?: AccessNotes | undefined;
}

/** A node:http listener of the GraphQL path (the hot path, yoga), given the request's state. */
export type GraphQLListener = (
  request: IncomingMessage & { body?: Buffer },
  response: ServerResponse,
  state: PipelineRequestState,
) => unknown;

/**
 * A node:http listener of whatwg-node's adapter (yoga's among them), given a server context beside the request: its
 * requestListener takes one (createServerAdapter.js), though it is typed as node's RequestListener.
 */
export type NodeListener<ServerContext> = (
  request: IncomingMessage,
  response: ServerResponse,
  serverContext: ServerContext,
) => void;

/** yoga's node:http listener, handed each request's state in its server context. */
export function withRequestState(listener: RequestListener): GraphQLListener {
  const given = listener as NodeListener<PipelineServerContext>;
  return (request, response, state) => given(request, response, { state });
}

/** A new operation's state. */
export function operationState(): OperationState {
  return { metrics: { envelopedAt: undefined, parsed: undefined, labels: undefined }, apqRegistration: undefined };
}

/**
 * The first stage: gives each operation its own state (`context.operation`) when yoga takes its parameters, before
 * any other stage's hook sees the operation. A batch's operations each have a context of their own (yoga makes one
 * per member over the server context), a single operation's context is the server context itself.
 */
export function useOperationState(): Plugin<object, PipelineServerContext> {
  return {
    onParams({ context }) {
      Object.assign(context, { operation: operationState() });
    },
  };
}
