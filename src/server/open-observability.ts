import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { buildInfo } from './observability/build-info.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { OperationNames, operationNamesIn } from './observability/operation-names.js';
import { startTracing, tracesUrl, type Tracing } from './observability/tracing.js';
import type { PersistedManifest } from './operations/use-persisted-operations.js';
import type { Opened } from './opened.js';

export interface Observability {
  readonly metrics: Metrics;
  /** OpenTelemetry tracing; undefined when no traces endpoint is configured. */
  readonly tracing: Tracing | undefined;
}

/** The metrics registry (trusted documents name the operations it counts) and tracing, when configured. */
export async function openObservability(
  config: Config,
  logger: Logger,
  trustedDocuments: PersistedManifest | undefined,
): Promise<Opened<Observability>> {
  const metrics = createMetrics(
    new OperationNames({
      known: operationNamesIn(trustedDocuments?.values() ?? []),
      limit: config.metricsOperationNames,
    }),
    buildInfo(),
  );
  const spansUrl = tracesUrl(config.tracing);
  const tracing =
    spansUrl === undefined
      ? undefined
      : await startTracing(
          spansUrl,
          config.tracing,
          logger,
          metrics.operationNames,
          config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgresql',
        );
  return { parts: { metrics, tracing }, close: async () => tracing?.close() };
}
