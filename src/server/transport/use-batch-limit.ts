import type { Plugin } from 'graphql-yoga';
import { isPromise } from 'graphql-yoga';
import { CODE } from '../../errors/registry.js';
import { errorResponse } from '../answers/error-answer.js';
import type { PipelineServerContext } from '../request-state.js';

/**
 * A batch is answered with one result per operation it holds, refused or not, so that a batching client (Apollo's
 * BatchHttpLink, which throws "results with length 1, expected length of 2" otherwise) gives each query its code:
 *
 * - more than `maxBatch` operations: HTTP 413 with one coded error per operation sent (up to REPEATED_AT_MOST).
 *   yoga's own limit (`batching.limit`, set to the same number) answers a single object; this answers first, when
 *   the parameters are read;
 * - a batch refused whole after its parameters were read (401 for an unknown key, 403, 429 rate limited: one error
 *   object from the plugin that refused it): that answer repeated for each operation, with its status and headers.
 */
/**
 * Above this many operations a refusal is answered once, not once per operation: a body of `{}`s within the body
 * limit holds tens of thousands, and their repeated refusals would be a hundred times its size. Batching clients send
 * a handful (Apollo's BatchHttpLink 10 by default).
 */
const REPEATED_AT_MOST = 100;

export function useBatchLimit(maxBatch: number): Plugin<object, PipelineServerContext> {
  return {
    onResponse(payload) {
      const { response, fetchAPI, serverContext } = payload;
      // The operations of the batch, once its body was read.
      const size = serverContext.state.transport.batchSize;
      if (
        size === undefined ||
        size > REPEATED_AT_MOST ||
        response.status < 400 ||
        response.headers.has('content-encoding') ||
        !(response.headers.get('content-type') ?? '').includes('json')
      )
        return;
      return response.text().then((body) => {
        const answer = JSON.parse(body) as unknown;
        // Copied name by name, in lower case: yoga writes `Content-Type`, which a copy of its headers keeps as
        // written and the new Response would not find, answering text/plain.
        const headers = new fetchAPI.Headers();
        for (const [name, value] of response.headers)
          if (name.toLowerCase() !== 'content-length') headers.set(name.toLowerCase(), value);
        payload.setResponse(
          new fetchAPI.Response(
            Array.isArray(answer) ? body : JSON.stringify(Array.from({ length: size }, () => answer)),
            {
              status: response.status,
              headers,
            },
          ),
        );
      });
    },
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI, serverContext }) {
      if (requestParser === undefined) return;
      const { state } = serverContext;
      // The refusal is one answer; onResponse repeats it for each operation of the batch.
      const refused = (parsed: unknown): unknown => {
        if (Array.isArray(parsed)) state.transport.batchSize = parsed.length;
        if (!Array.isArray(parsed) || parsed.length <= maxBatch) return parsed;
        return errorResponse(fetchAPI, request, state.id, {
          status: 413,
          code: CODE.BAD_REQUEST,
          message: `Batching is limited to ${maxBatch} operations per request; this one holds ${parsed.length}.`,
          details: { maxBatch, operations: parsed.length },
        });
      };
      setRequestParser((request) => {
        const parsed = requestParser(request);
        return (isPromise(parsed) ? parsed.then(refused) : refused(parsed)) as ReturnType<typeof requestParser>;
      });
    },
  };
}
