import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isSingleResult } from '../../graphql/execution-result.js';
import type { PipelineContext, PipelineServerContext } from '../request-state.js';

/**
 * Notes, for the plugins that decide whether an answer may be kept (HTTP caching and the response cache), whether
 * the answer carries any error, whatever its HTTP status: a failed field (an upstream failure, SERVER_BUSY that
 * a caller can provoke, a refused input) inside a 200 must never be served to others. Read from the final result,
 * after every plugin that adds errors, so no field, batch member or plugin can slip one past it. An incremental
 * answer is never stored, so it is not inspected. Likewise whether it carries `extensions.warnings`, which are about
 * this request alone and are never kept for another caller either (see use-warnings.ts). Noted in the request
 * state's `answer` (server/request-state.ts).
 */
export function useAnswerErrors(): Plugin<PipelineContext, PipelineServerContext> {
  return {
    onResultProcess({ result, serverContext }) {
      const { answer } = serverContext.state;
      const results: unknown[] = Array.isArray(result) ? result : [result];
      if (results.some((one) => isSingleResult(one) && hasErrors(one))) answer.hasErrors = true;
      if (results.some((one) => isSingleResult(one) && hasWarnings(one))) answer.hasWarnings = true;
    },
  };
}

function hasErrors(result: ExecutionResult): boolean {
  return (result.errors?.length ?? 0) > 0;
}

function hasWarnings(result: ExecutionResult): boolean {
  const warnings = result.extensions?.['warnings'];
  return Array.isArray(warnings) && warnings.length > 0;
}
