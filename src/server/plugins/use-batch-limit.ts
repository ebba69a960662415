import type { Plugin } from 'graphql-yoga';
import { isPromise } from 'graphql-yoga';
import { CODE } from '../../errors/registry.js';
import { errorResponse } from '../error-answer.js';

/**
 * Refuses a batch of more than `maxBatch` operations with HTTP 413 and, because the body was an array, an array
 * of answers: one coded error per operation sent, so that a batching client (Apollo's BatchHttpLink) gives each
 * query its code instead of failing them all with one object it cannot split. yoga's own limit (`batching.limit`,
 * set to the same number) answers a single object; this answers first, when the parameters are read.
 */
export function useBatchLimit(maxBatch: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      if (requestParser === undefined) return;
      const refused = (parsed: unknown): unknown => {
        if (!Array.isArray(parsed) || parsed.length <= maxBatch) return parsed;
        const details = { maxBatch, operations: parsed.length };
        const single = errorResponse(fetchAPI, request, {
          status: 413,
          code: CODE.BAD_REQUEST,
          message: `Batching is limited to ${maxBatch} operations per request; this one holds ${parsed.length}.`,
          details,
        });
        return single.text().then((body) => {
          const answer = JSON.parse(body) as unknown;
          const answers = JSON.stringify(parsed.map(() => answer));
          const headers = new fetchAPI.Headers(single.headers);
          headers.delete('content-length');
          return new fetchAPI.Response(answers, { status: 413, headers });
        });
      };
      setRequestParser((request) => {
        const parsed = requestParser(request);
        return (isPromise(parsed) ? parsed.then(refused) : refused(parsed)) as ReturnType<typeof requestParser>;
      });
    },
  };
}
