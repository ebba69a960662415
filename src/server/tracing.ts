import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { OperationNames } from './operation-names.js';

/** OpenTelemetry tracing of GraphQL operations, exported over OTLP/HTTP. */
export interface Tracing {
  readonly plugin: Plugin;
  /** Exports what is pending, then stops. */
  close(): Promise<void>;
}

const SERVICE_NAME = 'thai-edu-graphql';

// @envelop/opentelemetry's attribute names (its AttributeName enum, which would load the SDK with it).
const OPERATION_NAME = 'graphql.execute.operationName';
const OPERATION_TYPE = 'graphql.execute.operationType';
// What a span may carry: the operation's type and (bounded) name, a resolver's field and types, an error's kind.
// Never the document, variables, resolver arguments, result or an error's message: they are the caller's data.
const KEPT_ATTRIBUTES = [
  OPERATION_TYPE,
  'graphql.resolver.fieldName',
  'graphql.resolver.typeName',
  'graphql.resolver.resultType',
];
const KEPT_EVENT_ATTRIBUTES = ['exception.type'];

/**
 * Starts tracing to the collector at `endpoint` (OTEL_EXPORTER_OTLP_ENDPOINT: spans go to `<endpoint>/v1/traces`).
 * The SDK is imported here, lazily, so a server without the variable never loads it. Spans: one per operation
 * and one per resolver (@envelop/opentelemetry). Spans say what ran, never with what: the plugin is told to
 * leave out the document, variables and result, and the exporter drops what it records regardless (resolver
 * arguments, error messages, which may quote a variable's value). Operation names go through `operationNames`,
 * as they do in /metrics; a request id in the logs says more about one request.
 */
export async function startTracing(endpoint: string, logger: Logger, operationNames: OperationNames): Promise<Tracing> {
  const [{ useOpenTelemetry }, { BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { Resource }] =
    await Promise.all([
      import('@envelop/opentelemetry'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const exporter = withoutRequestContent(
    new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    operationNames,
  );
  const provider = new BasicTracerProvider({
    resource: new Resource({ 'service.name': SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  logger.info({ endpoint }, 'OpenTelemetry tracing on: spans exported over OTLP/HTTP');
  return {
    plugin: useOpenTelemetry(
      { resolvers: true, variables: false, result: false, document: false },
      provider,
      undefined,
      undefined,
      SERVICE_NAME,
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
