import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../graphql/context.js';
import { isSingleResult } from '../graphql/execution-result.js';

const withErrors = new WeakSet<Request>();

/**
 * Notes, for the plugins that decide whether an answer may be kept (HTTP caching and the response cache), whether
 * the answer carries any error, whatever its HTTP status: a failed field (an upstream failure, SERVER_BUSY that
 * a caller can provoke, a refused input) inside a 200 must never be served to others. Read from the final result,
 * after every plugin that adds errors, so no field, batch member or plugin can slip one past it. An incremental
 * answer is never stored, so it is not inspected.
 */
export function useAnswerErrors(): Plugin<Context> {
  return {
    onResultProcess({ request, result }) {
      const results: unknown[] = Array.isArray(result) ? result : [result];
      if (results.some((one) => isSingleResult(one) && hasErrors(one))) withErrors.add(request);
    },
  };
}

function hasErrors(result: ExecutionResult): boolean {
  return (result.errors?.length ?? 0) > 0;
}

/** Whether the answer to this request carries an error (see useAnswerErrors). */
export function answerHasErrors(request: Request): boolean {
  return withErrors.has(request);
}
