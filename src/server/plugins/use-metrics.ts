import {
  createCounter,
  createHistogram,
  createSummary,
  usePrometheus,
  type FillLabelsFnParams,
} from '@graphql-yoga/plugin-prometheus';
import { getOperationAST, GraphQLError } from 'graphql';
import type { Plugin, YogaLogger } from 'graphql-yoga';
import { maskError } from '../../graphql/errors.js';
import { httpLabels, type Metrics, type OperationLabel } from '../metrics.js';
import { CODE, isErrorCode } from '../../errors/registry.js';

export const METRICS_PATH = '/metrics';

const PHASES: ReadonlySet<string> = new Set(['parse', 'validate', 'context', 'execute', 'subscribe']);
const OPERATION_TYPES: ReadonlySet<string> = new Set(['query', 'mutation', 'subscription']);

/**
 * Prometheus text at /metrics (@graphql-yoga/plugin-prometheus): operations counted and timed (count and sum) by
 * operation type and name, duration histograms by operation type, errors by code and phase, HTTP durations by
 * method and status, beside the server's own metrics on the same registry (metrics.ts). Every label is bounded
 * (operation names by `metrics.operationNames`), so no traffic can grow the page past about 500 KB, and none
 * carries anything of a request's URL, document or variables.
 *
 * A failure while counting is logged and the request goes on: metrics never fail an operation.
 */
export function useMetrics(metrics: Metrics): Plugin {
  const { registry, operationNames, operations } = metrics;
  // The operation execution picks, as yoga's HTTP histogram and the response cache name it: worked out once per
  // document and context, though five metrics ask for it at different points of the same operation.
  const computed = new WeakMap<object, { document: unknown; labels: Record<OperationLabel, string> }>();
  const labels = (params: FillLabelsFnParams, context: unknown): Record<OperationLabel, string> => {
    const known = typeof context === 'object' && context !== null ? computed.get(context) : undefined;
    if (known !== undefined && known.document === params.document) return known.labels;
    const operation =
      params.document === undefined ? undefined : getOperationAST(params.document, requestedName(context));
    const found = {
      operationName: operationNames.label(operation?.name?.value),
      operationType: operationTypeLabel(operation?.operation),
    };
    if (typeof context === 'object' && context !== null)
      computed.set(context, { document: params.document, labels: found });
    return found;
  };
  const phaseHistogram = <Phase>(name: string, help: string, phases: [Phase, ...Phase[]]) =>
    createHistogram({
      registry,
      histogram: { name, help, labelNames: ['operationType'] },
      fillLabelsFn: (params, context) => ({ operationType: labels(params, context).operationType }),
      phases,
    });
  let logger: YogaLogger | undefined;
  const prometheus = usePrometheus({
    registry,
    endpoint: METRICS_PATH,
    metrics: {
      graphql_envelop_request: { counter: operations.requests, fillLabelsFn: labels },
      // By name only a count and a sum (2 lines a name): a histogram by name would be 14 lines, too many for 100 names.
      graphql_envelop_request_time_summary: createSummary({
        registry,
        summary: {
          name: 'graphql_envelop_request_time_summary',
          help: 'Time spent on GraphQL operations from parse to the end of execution, by type and name: _sum / _count is the mean.',
          labelNames: ['operationType', 'operationName'],
          percentiles: [],
        },
        fillLabelsFn: labels,
      }),
      graphql_envelop_request_duration: phaseHistogram(
        'graphql_envelop_request_duration',
        'Time spent executing GraphQL operations.',
        ['execute', 'subscribe'],
      ),
      graphql_envelop_phase_parse: phaseHistogram(
        'graphql_envelop_phase_parse',
        'Time spent parsing GraphQL documents.',
        ['parse'],
      ),
      graphql_envelop_phase_validate: phaseHistogram(
        'graphql_envelop_phase_validate',
        'Time spent validating documents.',
        ['validate'],
      ),
      graphql_yoga_http_duration: {
        histogram: operations.httpDuration,
        fillLabelsFn: (_params, { request, response }: { request: Request; response: Response }) =>
          httpLabels(request.method, response.status),
      },
      graphql_envelop_error_result: createCounter({
        registry,
        counter: {
          name: 'graphql_envelop_error_result',
          help: 'Errors in GraphQL results, by code and phase.',
          labelNames: ['code', 'phase'],
        },
        fillLabelsFn: (params) => ({
          code: codeLabel(params.error, params.errorPhase),
          phase: PHASES.has(params.errorPhase ?? '') ? (params.errorPhase ?? '') : 'unknown',
        }),
      }),
      // Off: the execute phase (envelop times it exactly as graphql_envelop_request_duration), phases this server
      // does not have, and schema events.
      graphql_envelop_phase_execute: false,
      graphql_envelop_phase_context: false,
      graphql_envelop_phase_subscribe: false,
      graphql_envelop_deprecated_field: false,
      graphql_envelop_schema_change: false,
      graphql_envelop_execute_resolver: false,
    },
  });
  return {
    ...guarded(prometheus, (error) => logger?.error('metrics failed; the request goes on without them', error)),
    onYogaInit({ yoga }) {
      logger = yoga.logger;
    },
  };
}

/** The operation name the request asked for (yoga's context carries the request's params). */
function requestedName(context: unknown): string | undefined {
  const params = (context as { params?: { operationName?: unknown } } | null | undefined)?.params;
  return typeof params?.operationName === 'string' ? params.operationName : undefined;
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

type Hook = (...args: unknown[]) => unknown;

/**
 * `plugin` with every hook, every hook it returns and every plugin it adds made unable to throw or reject:
 * a failure is reported and the hook does nothing, so the request is served as if metrics were off.
 */
function guarded<T extends object>(plugin: T, report: (error: unknown) => void): T {
  const guard = (value: unknown): unknown => {
    if (typeof value === 'function') {
      const hook = value as Hook;
      return (...args: unknown[]): unknown => {
        try {
          return guard(hook(...args));
        } catch (error) {
          report(error);
          return undefined;
        }
      };
    }
    if (value instanceof Promise) {
      return value.then(guard, (error: unknown) => {
        report(error);
      });
    }
    // A hook may return its later hooks as an object ({ onExecuteDone }, { onNext, onEnd }).
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value).map(([key, entry]) => [key, typeof entry === 'function' ? guard(entry) : entry]),
      );
    }
    return value;
  };
  const hooks = Object.entries(plugin).map(([key, value]): [string, unknown] => {
    if (key === 'onPluginInit' && typeof value === 'function') {
      // The plugins it adds (envelop's prometheus plugin, the /metrics endpoint) are guarded too.
      const init = value as Hook;
      return [
        key,
        guard((payload: { addPlugin(added: object): void; registerContextErrorHandler(handler: Hook): void }) =>
          init({
            ...payload,
            addPlugin: (added: object) => payload.addPlugin(guarded(added, report)),
            registerContextErrorHandler: (handler: Hook) => payload.registerContextErrorHandler(guard(handler) as Hook),
          }),
        ),
      ];
    }
    return [key, key.startsWith('on') ? guard(value) : value];
  });
  return Object.fromEntries(hooks) as T;
}
