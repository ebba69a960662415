import type { ExecutionResult } from 'graphql';

/** True for a single result; false for the async iterable of an incremental (@defer/@stream) delivery. */
export function isSingleResult(result: unknown): result is ExecutionResult {
  return typeof result === 'object' && result !== null && !(Symbol.asyncIterator in result);
}
