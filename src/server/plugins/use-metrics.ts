import { createCounter, usePrometheus } from '@graphql-yoga/plugin-prometheus';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maskError } from '../../graphql/errors.js';
import type { Metrics } from '../metrics.js';

export const METRICS_PATH = '/metrics';

/**
 * Prometheus text at /metrics (@graphql-yoga/plugin-prometheus): operations and their duration by operation
 * name and type, errors by code and phase, HTTP durations, beside the server's own metrics on the same
 * registry (metrics.ts: upstream calls, cache reads, breaker, rate-limit refusals).
 */
export function useMetrics(metrics: Metrics): Plugin {
  const { registry } = metrics;
  return usePrometheus({
    registry,
    endpoint: METRICS_PATH,
    metrics: {
      graphql_envelop_request: true,
      graphql_envelop_request_duration: true,
      graphql_envelop_phase_parse: true,
      graphql_envelop_phase_validate: true,
      graphql_envelop_phase_execute: true,
      graphql_yoga_http_duration: true,
      graphql_envelop_error_result: createCounter({
        registry,
        counter: {
          name: 'graphql_envelop_error_result',
          help: 'Errors in GraphQL results, by code, phase and operation name.',
          labelNames: ['code', 'phase', 'operationName'],
        },
        fillLabelsFn: (params) => ({
          code: params.error === undefined ? 'UNKNOWN' : codeOf(params.error),
          phase: params.errorPhase ?? 'unknown',
          operationName: params.operationName ?? 'Anonymous',
        }),
      }),
    },
  });
}

/** The code the client sees: execution errors are counted before masking gives domain errors their code. */
function codeOf(error: GraphQLError): string {
  const masked = maskError(error, 'Unexpected error.');
  const code = error.extensions['code'] ?? (masked instanceof GraphQLError ? masked.extensions['code'] : undefined);
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}
