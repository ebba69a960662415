import type { Plugin } from 'graphql-yoga';

/** The response header that says an answer's data came from the embedded simulator, not the ministry's service. */
export const SIMULATED_HEADER = 'x-upstream-simulated';

/**
 * Marks every answer of an instance whose upstream is the embedded simulator, where neither a client nor an
 * operator can miss it: the header `x-upstream-simulated: true` on every response (the node:http listener sets it
 * too, for the answers made before yoga: request-guard.ts) and `extensions.upstream = "simulated"` in every
 * GraphQL result. The response cache stores the marked answer, so its hits carry the mark as well.
 */
export function useSimulatedUpstream(): Plugin {
  return {
    onResultProcess(payload) {
      const { result } = payload;
      if (Array.isArray(result)) payload.setResult(result.map(marked));
      else if (!(Symbol.asyncIterator in result)) payload.setResult(marked(result));
    },
    onResponse({ response }) {
      response.headers.set(SIMULATED_HEADER, 'true');
    },
  };
}

function marked<Result extends { extensions?: Record<string, unknown> }>(result: Result): Result {
  return { ...result, extensions: { ...result.extensions, upstream: 'simulated' } };
}
