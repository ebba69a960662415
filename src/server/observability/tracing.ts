import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import type { Attributes, Context, ContextManager } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { StoreObserver } from '../../access/database.js';
import { DEFAULT_SERVICE_NAME, type TracingConfig } from '../../config.js';
import type { UpstreamCallTracer } from '../../upstream/client.js';
import type { OperationNames } from './operation-names.js';
import type { RequestTracer } from '../transport/request-guard.js';

/** OpenTelemetry tracing of GraphQL operations, exported over OTLP/HTTP. */
export interface Tracing {
  readonly plugin: Plugin;
  /** The server span of each request, the parent of its operation spans (request-guard.ts). */
  readonly traceRequest: RequestTracer;
  /** Opens a span per upstream call under the operation that made it, and sends its `traceparent` upstream. */
  readonly traceUpstreamCall: UpstreamCallTracer;
  /** Opens a span per store statement under what sent it (pass to the store's observer). */
  readonly traceStoreStatement: NonNullable<StoreObserver['statementStarted']>;
  /** Exports what is pending, then stops. */
  close(): Promise<void>;
}

// The instrumentation scope of our own spans (the service's name is the resource's, which operators set).
const SCOPE = 'thai-edu-graphql';

// @envelop/opentelemetry's attribute names (its AttributeName enum, which would load the SDK with it).
const OPERATION_NAME = 'graphql.execute.operationName';
const OPERATION_TYPE = 'graphql.execute.operationType';
// What a span may carry: the operation's type and (bounded) name, a resolver's field and types, an error's kind.
// Never the document, variables, resolver arguments, result or an error's message: they are the caller's data.
const KEPT_ATTRIBUTES = [
  OPERATION_TYPE,
  'http.request.method',
  'http.response.status_code',
  'upstream.target',
  'upstream.outcome',
  'db.system',
  'db.operation.name',
  'graphql.resolver.fieldName',
  'graphql.resolver.typeName',
  'graphql.resolver.resultType',
];
const KEPT_EVENT_ATTRIBUTES = ['exception.type'];
// W3C Trace Context: version 00, trace id, parent span id, flags; all-zero ids are invalid.
const TRACEPARENT = /^00-(?!0{32})([0-9a-f]{32})-(?!0{16})([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Where spans go, as OpenTelemetry's variables say; undefined: tracing is off. */
export function tracesUrl(settings: TracingConfig): string | undefined {
  if (settings.tracesEndpoint !== undefined) return settings.tracesEndpoint;
  return settings.endpoint === undefined ? undefined : `${settings.endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Starts tracing to the collector at `url` (tracesUrl). The SDK is imported here, lazily, so a server without the
 * variables never loads it. Spans: one per operation (@envelop/opentelemetry) and, with TRACING_RESOLVER_SPANS, one
 * per resolver, under a server span per request that continues the caller's trace when it sends a W3C
 * `traceparent`; one per upstream call, under the operation that made it, whose `traceparent` goes with the call so
 * that an upstream that traces continues the trace; one per store statement. The resource carries
 * OTEL_RESOURCE_ATTRIBUTES and the service name (OTEL_SERVICE_NAME, else the attributes' service.name, else ours).
 * Spans say what ran, never with what: the plugin is told to leave out the document, variables and result, and the
 * exporter drops what it records regardless (resolver arguments, error messages, which may quote a variable's value).
 * Operation names go through `operationNames`, as they do in /metrics; a request id in the logs says more about one
 * request.
 */
export async function startTracing(
  url: string,
  settings: TracingConfig,
  logger: Logger,
  operationNames: OperationNames,
  storeSystem: 'postgresql' | 'sqlite',
): Promise<Tracing> {
  const [api, { useOpenTelemetry }, { BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { Resource }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@envelop/opentelemetry'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const exporter = withoutRequestContent(new OTLPTraceExporter({ url }), operationNames);
  const attributes = settings.resourceAttributes ?? {};
  const serviceName = settings.serviceName ?? attributes['service.name'] ?? DEFAULT_SERVICE_NAME;
  const provider = new BasicTracerProvider({
    resource: new Resource({ ...attributes, 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  // The request's span reaches the operation's through the async context (the plugin parents on the active one).
  const storage = new AsyncLocalStorage<Context>();
  const contexts: ContextManager = {
    active: () => storage.getStore() ?? api.ROOT_CONTEXT,
    with: (context, fn, thisArg, ...args) => storage.run(context, () => fn.apply(thisArg, args)),
    bind: (context, target) =>
      typeof target === 'function'
        ? (((...args: unknown[]) =>
            storage.run(context, () => (target as (...a: unknown[]) => unknown)(...args))) as typeof target)
        : target,
    enable: () => contexts,
    disable: () => {
      storage.disable();
      return contexts;
    },
  };
  api.context.setGlobalContextManager(contexts);
  const tracer = provider.getTracer(SCOPE);

  const traceRequest: RequestTracer = (request, response) => {
    const method = request.method ?? 'GET';
    const parent = callerContext(request) ?? api.ROOT_CONTEXT;
    const span = tracer.startSpan(
      `HTTP ${method}`,
      { kind: api.SpanKind.SERVER, attributes: { 'http.request.method': method } },
      parent,
    );
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const status = response.headersSent ? response.statusCode : 0;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500 || status === 0) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    };
    response.once('finish', end);
    response.once('close', end);
    const active = api.trace.setSpan(parent, span);
    return { traceId: span.spanContext().traceId, run: (serve) => api.context.with(active, serve) };
  };

  /** The caller's span from a valid `traceparent`, as the remote parent; else undefined (a new trace). */
  function callerContext(request: IncomingMessage): Context | undefined {
    const header = request.headers['traceparent'];
    const match = typeof header === 'string' ? TRACEPARENT.exec(header.trim().toLowerCase()) : null;
    if (match === null) return undefined;
    const [, traceId = '', spanId = '', flags = '00'] = match;
    return api.trace.setSpanContext(api.ROOT_CONTEXT, {
      traceId,
      spanId,
      traceFlags: Number.parseInt(flags, 16) & api.TraceFlags.SAMPLED,
      isRemote: true,
    });
  }

  // One span for the whole call (its retries included), opened before the first attempt so that each attempt can
  // name it as the upstream's parent.
  const traceUpstreamCall: UpstreamCallTracer = ({ target, method }) => {
    const span = tracer.startSpan(
      `upstream ${method} ${target}`,
      { kind: api.SpanKind.CLIENT, attributes: { 'upstream.target': target } },
      api.context.active(),
    );
    const { traceId, spanId, traceFlags } = span.spanContext();
    return {
      headers: { traceparent: `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}` },
      ended: (event) => {
        const failed = event.outcome !== 'ok' && event.outcome !== 'not_modified';
        span.setAttribute('upstream.outcome', event.outcome);
        if (event.status !== undefined) span.setAttribute('http.response.status_code', event.status);
        span.setStatus({ code: failed ? api.SpanStatusCode.ERROR : api.SpanStatusCode.UNSET }).end();
      },
    };
  };

  const traceStoreStatement: Tracing['traceStoreStatement'] = (verb) => {
    const span = tracer.startSpan(
      `store ${verb}`,
      { kind: api.SpanKind.CLIENT, attributes: { 'db.system': storeSystem, 'db.operation.name': verb } },
      api.context.active(),
    );
    return (failed) => span.setStatus({ code: failed ? api.SpanStatusCode.ERROR : api.SpanStatusCode.UNSET }).end();
  };

  logger.info(
    { url, serviceName, resolverSpans: settings.resolverSpans },
    'OpenTelemetry tracing on: spans exported over OTLP/HTTP',
  );
  return {
    traceRequest,
    traceUpstreamCall,
    traceStoreStatement,
    plugin: useOpenTelemetry(
      { resolvers: settings.resolverSpans, variables: false, result: false, document: false },
      provider,
      undefined,
      undefined,
      SCOPE,
    ) as Plugin,
    close: () => provider.shutdown(),
  };
}

/** `exporter`, sent a copy of each span that keeps only what KEPT_ATTRIBUTES allows, its operation name bounded. */
function withoutRequestContent(exporter: SpanExporter, operationNames: OperationNames): SpanExporter {
  return {
    export: (spans, done) =>
      exporter.export(
        spans.map((span) => redacted(span, operationNames)),
        done,
      ),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

function redacted(span: ReadableSpan, operationNames: OperationNames): ReadableSpan {
  const attributes = picked(span.attributes, KEPT_ATTRIBUTES);
  let name = span.name;
  const operationType = span.attributes[OPERATION_TYPE];
  if (typeof operationType === 'string') {
    const raw = span.attributes[OPERATION_NAME];
    // The plugin calls an operation without a name `anonymous`.
    const label = operationNames.label(typeof raw === 'string' && raw !== 'anonymous' ? raw : undefined);
    attributes[OPERATION_NAME] = label;
    name = `${operationType}.${label}`;
  }
  return {
    name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanId: span.parentSpanId,
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes,
    links: span.links.map((link) => ({ context: link.context })),
    events: span.events.map((event) => ({
      name: event.name,
      time: event.time,
      attributes: picked(event.attributes ?? {}, KEPT_EVENT_ATTRIBUTES),
    })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationLibrary: span.instrumentationLibrary,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function picked(attributes: Attributes, keys: readonly string[]): Attributes {
  const kept: Attributes = {};
  for (const key of keys) if (attributes[key] !== undefined) kept[key] = attributes[key];
  return kept;
}
