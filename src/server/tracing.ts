import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';

/** OpenTelemetry tracing of GraphQL operations, exported over OTLP/HTTP. */
export interface Tracing {
  readonly plugin: Plugin;
  /** Exports what is pending, then stops. */
  close(): Promise<void>;
}

const SERVICE_NAME = 'thai-edu-graphql';

/**
 * Starts tracing to the collector at `endpoint` (OTEL_EXPORTER_OTLP_ENDPOINT: spans go to `<endpoint>/v1/traces`).
 * The SDK is imported here, lazily, so a server without the variable never loads it. Spans: one per operation
 * and one per resolver (@envelop/opentelemetry); variables and results are left out: they may be large, and
 * a request id in the logs says more.
 */
export async function startTracing(endpoint: string, logger: Logger): Promise<Tracing> {
  const [{ useOpenTelemetry }, { BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { Resource }] = await Promise.all([
    import('@envelop/opentelemetry'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: new Resource({ 'service.name': SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  logger.info({ endpoint }, 'OpenTelemetry tracing on: spans exported over OTLP/HTTP');
  return {
    plugin: useOpenTelemetry({ resolvers: true, variables: false, result: false, document: true }, provider, undefined, undefined, SERVICE_NAME) as Plugin,
    close: () => provider.shutdown(),
  };
}
