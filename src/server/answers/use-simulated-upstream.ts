import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import type { ExecutionResult } from 'graphql';

/** Set to `true` on every answer while the embedded simulator serves (the hot path sets it too: see app.ts). */
export const SIMULATED_HEADER = 'x-upstream-simulated';

function marked<Result extends ExecutionResult>(result: Result): Result {
  return { ...result, extensions: { ...result.extensions, upstream: 'simulated' } };
}

/**
 * While the embedded simulator serves, every GraphQL answer says so where a client cannot miss it: the header
 * `x-upstream-simulated: true` and `extensions.upstream: "simulated"` on every result, refusals and each event
 * of a stream included. Made-up figures must never pass for the ministry's.
 */
export function useSimulatedUpstream(): Plugin {
  return {
    onResultProcess(payload) {
      const { result } = payload;
      if (isAsyncIterable(result)) payload.setResult(mapAsyncIterator(result, marked));
      else payload.setResult(Array.isArray(result) ? result.map(marked) : marked(result));
    },
    onResponse({ response }) {
      response.headers.set(SIMULATED_HEADER, 'true');
    },
  };
}
