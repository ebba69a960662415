import type { Route } from '../../http/route.js';
import { getOperationAST, GraphQLError, type DocumentNode } from 'graphql';
import { isAsyncIterable, type Plugin, type YogaLogger } from 'graphql-yoga';
import { Counter, Histogram, Summary } from 'prom-client';
import { maskError } from '../../graphql/errors.js';
import { clientLibraryLabel, httpLabels, type Metrics, type OperationLabel } from './metrics.js';
import { CODE, isErrorCode } from '../../errors/registry.js';
import type { OperationState, PipelineContext, PipelineRequestState, PipelineServerContext } from '../request-state.js';

export const METRICS_PATH = '/metrics';

const OPERATION_TYPES: ReadonlySet<string> = new Set(['query', 'mutation', 'subscription']);

type Labels = Record<OperationLabel, string>;

/** What the metrics read of an operation's context: its state, its request's, and the parameters yoga gave it. */
interface OperationContext {
  readonly operation: OperationState;
  readonly state: PipelineRequestState;
  readonly params?: { readonly operationName?: unknown; readonly extensions?: unknown };
}

/**
 * What /metrics shows of GraphQL (the page itself is `metricsRoute`, below):
 * operations counted and timed (count and sum) by operation type and name, duration
 * histograms by operation type, errors by code and phase, HTTP durations by method and status, beside the server's
 * own metrics on the same registry (metrics.ts). Every label is bounded (operation names by
 * `metrics.operationNames`), so no traffic can grow the page past about 500 KB, and none carries anything of a
 * request's URL, document or variables.
 *
 * The series and their meaning are those of @graphql-yoga/plugin-prometheus (over @envelop/prometheus), which this
 * server used before: the same names, help, labels, phases and timings. Counted here in one plugin, with one hook
 * per phase, because those two ran a dozen hooks, filters and allocations on every request for six metrics.
 *
 * A failure while counting is logged and the request goes on: metrics never fail an operation.
 */
export function useMetrics(metrics: Metrics): Plugin<PipelineContext, PipelineServerContext> {
  const { registry, operationNames, operations } = metrics;
  const phaseHistogram = (name: string, help: string): Histogram<'operationType'> =>
    new Histogram({ name, help, labelNames: ['operationType'], registers: [registry] });
  // By name only a count and a sum (2 lines a name): a histogram by name would be 14 lines, too many for 100 names.
  const timeSummary = new Summary<OperationLabel>({
    name: 'graphql_envelop_request_time_summary',
    help: 'Time spent on GraphQL operations from parse to the end of execution, by type and name: _sum / _count is the mean.',
    labelNames: ['operationType', 'operationName'],
    percentiles: [],
    registers: [registry],
  });
  const executeDuration = phaseHistogram(
    'graphql_envelop_request_duration',
    'Time spent executing GraphQL operations.',
  );
  const parseDuration = phaseHistogram('graphql_envelop_phase_parse', 'Time spent parsing GraphQL documents.');
  const validateDuration = phaseHistogram('graphql_envelop_phase_validate', 'Time spent validating documents.');
  const errorResults = new Counter({
    name: 'graphql_envelop_error_result',
    help: 'Errors in GraphQL results, by code and phase.',
    labelNames: ['code', 'phase'],
    registers: [registry],
  });

  let logger: YogaLogger | undefined;
  const report = (error: unknown): void => logger?.error('metrics failed; the request goes on without them', error);
  const safely = (count: () => void): void => {
    try {
      count();
    } catch (error) {
      report(error);
    }
  };

  // The operation execution picks, as yoga's HTTP histogram and the response cache name it: worked out once per
  // document and operation (its state's `metrics`), though several metrics ask for it at different points of it.
  const labels = (document: DocumentNode | undefined, context: OperationContext): Labels => {
    const noted = context.operation.metrics;
    const known = noted.labels;
    if (known !== undefined && known.document === document) return known.labels;
    const operation = document === undefined ? undefined : getOperationAST(document, requestedName(context));
    const found = {
      operationName: operationNames.label(operation?.name?.value),
      operationType: operationTypeLabel(operation?.operation),
    };
    noted.labels = { document, labels: found };
    return found;
  };
  const countErrors = (errors: readonly unknown[] | undefined): void => {
    // A subscription's events are counted under `execute` too, as @envelop/prometheus counted them.
    for (const error of errors ?? []) errorResults.inc({ code: codeLabel(error, 'execute'), phase: 'execute' });
  };
  // The end of an execution or a subscription: its duration, the summary from enveloping, and the count.
  const ended = (document: DocumentNode, context: OperationContext, started: number): void => {
    const now = Date.now();
    const operation = labels(document, context);
    executeDuration.observe({ operationType: operation.operationType }, (now - started) / 1_000);
    const enveloped = context.operation.metrics.envelopedAt;
    if (enveloped !== undefined) timeSummary.observe(operation, (now - enveloped) / 1_000);
    operations.requests.inc(operation);
  };
  const resultHooks = (document: DocumentNode, context: OperationContext) => {
    const started = Date.now();
    const done = (result: unknown) => {
      if (isAsyncIterable(result))
        return {
          onNext: ({ result: part }: { result: { errors?: readonly unknown[] } }) =>
            safely(() => countErrors(part.errors)),
          onEnd: () => safely(() => ended(document, context, started)),
        };
      safely(() => {
        countErrors((result as { errors?: readonly unknown[] }).errors);
        ended(document, context, started);
      });
      return undefined;
    };
    return done;
  };

  const countClientLibrary = (context: OperationContext): void =>
    metrics.clientLibraryOperation(clientLibraryLabel(context.params?.extensions));

  return {
    onYogaInit({ yoga }) {
      logger = yoga.logger;
    },
    onPluginInit({ registerContextErrorHandler }) {
      registerContextErrorHandler(({ error }) =>
        safely(() => errorResults.inc({ code: codeLabel(error, 'context'), phase: 'context' })),
      );
    },
    onRequest({ serverContext }) {
      serverContext.state.metrics.arrivedAt = Date.now();
    },
    onEnveloped({ context }) {
      const noted = context?.operation.metrics;
      if (noted !== undefined) noted.envelopedAt ??= Date.now();
    },
    onParse({ context }) {
      const started = Date.now();
      return ({ result }) =>
        safely(() => {
          const seconds = (Date.now() - started) / 1_000;
          if (result === null || result instanceof Error) {
            context.operation.metrics.parsed = undefined;
            parseDuration.observe({ operationType: labels(undefined, context).operationType }, seconds);
            errorResults.inc({ code: codeLabel(result, 'parse'), phase: 'parse' });
            return;
          }
          const document = result as DocumentNode;
          context.operation.metrics.parsed = document;
          context.state.metrics.parsed = true;
          parseDuration.observe({ operationType: labels(document, context).operationType }, seconds);
        });
    },
    onValidate({ context }) {
      const document = context.operation.metrics.parsed;
      if (document === undefined) return undefined;
      const started = Date.now();
      return ({ valid }) =>
        safely(() => {
          const { operationType } = labels(document, context);
          validateDuration.observe({ operationType }, (Date.now() - started) / 1_000);
          // One count per refused document, whatever number of rules it broke.
          if (!valid) errorResults.inc({ code: CODE.GRAPHQL_VALIDATION_FAILED, phase: 'validate' });
        });
    },
    onExecute({ args }) {
      const context = args.contextValue;
      const document = context.operation.metrics.parsed;
      if (document === undefined) return undefined;
      safely(() => countClientLibrary(context));
      const done = resultHooks(document, context);
      return { onExecuteDone: ({ result }) => done(result) };
    },
    onSubscribe({ args }) {
      const context = args.contextValue;
      const document = context.operation.metrics.parsed;
      if (document === undefined) return undefined;
      safely(() => countClientLibrary(context));
      const done = resultHooks(document, context);
      return {
        onSubscribeResult: ({ result }) => done(result),
        // Counted without a code or phase of its own, as @envelop/prometheus counted it.
        onSubscribeError: () => safely(() => errorResults.inc({ code: CODE.INTERNAL_SERVER_ERROR, phase: 'unknown' })),
      };
    },
    onResponse({ request, response, serverContext }) {
      const { arrivedAt, parsed } = serverContext.state.metrics;
      if (arrivedAt === undefined || !parsed) return;
      safely(() =>
        operations.httpDuration.observe(httpLabels(request.method, response.status), (Date.now() - arrivedAt) / 1_000),
      );
    },
  };
}

/** The operation name the request asked for (yoga's context carries the request's params). */
function requestedName(context: OperationContext): string | undefined {
  const operationName = context.params?.operationName;
  return typeof operationName === 'string' ? operationName : undefined;
}

function operationTypeLabel(type: string | undefined): string {
  return type !== undefined && OPERATION_TYPES.has(type) ? type : 'unknown';
}

/**
 * The code the client sees, when the registry declares it, else `other`. Execution errors are counted before
 * masking gives domain errors their code; a parse or validation failure without a code of its own is counted
 * under the code yoga answers it with.
 */
function codeLabel(error: unknown, phase: string | undefined): string {
  let code = error instanceof GraphQLError ? error.extensions['code'] : undefined;
  if (code === undefined && error instanceof Error) {
    const masked = maskError(error, 'Unexpected error.');
    code = masked instanceof GraphQLError ? masked.extensions['code'] : undefined;
  }
  if (typeof code !== 'string') {
    if (phase === 'validate') return CODE.GRAPHQL_VALIDATION_FAILED;
    if (phase === 'parse' && error instanceof GraphQLError) return CODE.GRAPHQL_PARSE_FAILED;
    return CODE.INTERNAL_SERVER_ERROR;
  }
  return isErrorCode(code) ? code : 'other';
}

/**
 * `GET /metrics`: the Prometheus text of every series, on the public port unless ADMIN_LISTEN_PORT's listener
 * serves it (admin-listener.ts). Some 50 KB rendered from every series: it pays as an operation, and for its bytes.
 */
export function metricsRoute({ registry }: Pick<Metrics, 'registry'>): Route {
  return {
    name: 'metrics',
    price: 'operation',
    paths: [METRICS_PATH],
    accepts: (_pathname, request) => request.method === 'GET' || request.method === 'HEAD',
    handle: async () => new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } }),
  };
}
