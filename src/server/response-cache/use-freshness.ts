import type { Plugin } from 'graphql-yoga';
import { isSingleResult } from '../../graphql/execution-result.js';
import { maxAgeS } from '../../graphql/response-ledger.js';
import { addVary, etagOf, matchesEtag, publicCacheControl } from '../../http/caching.js';
import { isPathOf } from '../../http/request-target.js';
import { bodyChunks, chunkedResponse } from './chunked-body.js';
import type { PipelineContext, PipelineServerContext } from '../request-state.js';

/** What HTTP caches are told about how long answers stay fresh. */
export interface HttpCachingPolicy {
  /** max-age for a response that read no payload (the catalogue): as long as a payload would be fresh. */
  readonly catalogueMaxAgeS: number;
  /** stale-while-revalidate offered to HTTP caches, matching the upstream cache's own window. */
  readonly staleWhileRevalidateS: number;
}

export interface FreshnessOptions extends HttpCachingPolicy {
  readonly now: () => number;
  readonly graphqlPath: string;
}

/**
 * Every request header that can change a GraphQL answer, for HTTP caches: the media type and encoding, the
 * credential (an approved client sees its own status) and the Origin (CORS headers are added only when it is
 * present, and only for allowed origins). Not the CSRF header: a GET is answered the same with or without it.
 */
export const ANSWER_VARIES_BY = ['accept', 'accept-encoding', 'authorization', 'origin'] as const;

/**
 * Says how current a response is, to clients and to HTTP caches:
 * - `extensions.stale` lists the payload fields served past their freshness, and since when, and
 *   `extensions.shapeDrift` the datasets whose live record keys no longer match schema/shapes.json (typed fields);
 * - an error answer to any other method gets `no-store`;
 * - a query over HTTP GET gets an ETag and a Cache-Control derived from the freshness of the data it used
 *   (`public` for anonymous reads of datasets; `private, no-store` once a caller is authenticated or a field
 *   whose value depends on the caller was resolved; `no-store` for any other answer, and for any answer that
 *   carries an error whatever its status: a failed field in a 200 is no more reusable than a 4xx), and a
 *   Vary naming every request header that can change it, and a matching `If-None-Match` gets 304, so CDNs and mobile HTTP caches do the work.
 */
export function useFreshness(options: FreshnessOptions): Plugin<PipelineContext, PipelineServerContext> {
  const { now } = options;
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          if (!isSingleResult(result)) return;
          const { staleFields: stale, shapeDrift } = args.contextValue.freshness;
          if (stale.length === 0 && shapeDrift.length === 0) return;
          setResult({
            ...result,
            extensions: {
              ...result.extensions,
              ...(stale.length > 0 ? { stale } : {}),
              ...(shapeDrift.length > 0 ? { shapeDrift } : {}),
            },
          });
        },
      };
    },
    // Synchronous for every answer but a public GET one (which is read for its ETag): a promise is a hop per request.
    onResponse(payload) {
      const { request, response, fetchAPI, serverContext } = payload;
      const { state } = serverContext;
      const setResponse = (next: Response): void => payload.setResponse(next);
      const contentType = response.headers.get('content-type') ?? '';
      if (contentType.includes('text/html') || !isPathOf(request.url, options.graphqlPath)) return;
      if (request.method !== 'GET') {
        // No cache keeps a POST's answer without being told to; a refusal (a 404 for an unknown persisted query, a
        // 403 without the CSRF header) says so anyway, for caches that key by more than the method.
        if ((response.status >= 400 || state.answer.hasErrors) && !response.headers.has('cache-control'))
          response.headers.set('cache-control', 'no-store');
        return;
      }
      addVary(response.headers, ...ANSWER_VARIES_BY);
      const { ledger } = state;
      const callerDependent = request.headers.has('authorization') || ledger?.dependsOnCaller === true;
      // A warning is about this request alone: like an error, it is never kept for another caller.
      const failed = state.answer.hasErrors || state.answer.hasWarnings;
      if (
        ledger === undefined ||
        callerDependent ||
        failed ||
        response.status !== 200 ||
        !contentType.includes('json')
      ) {
        // Only an anonymous answer without any error that read nothing caller-dependent is public; errors (a failed
        // field in a 200, a 404 for an unknown persisted query) are never kept by any cache.
        if (callerDependent) response.headers.set('cache-control', 'private, no-store');
        else if (failed || !response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
        return;
      }
      const withEtag = async (): Promise<void> => {
        const headers = new fetchAPI.Headers(response.headers);
        // Its chunks, not its text: an answer's shared texts stay shared (see chunked-body.ts).
        const body = await bodyChunks(response);
        const etag = etagOf(body);
        const maxAge = maxAgeS(ledger.lifetime(options.catalogueMaxAgeS), now());
        headers.set('etag', etag);
        headers.set('cache-control', publicCacheControl(maxAge, options.staleWhileRevalidateS));
        if (matchesEtag(request.headers.get('if-none-match'), etag)) {
          headers.delete('content-length');
          setResponse(new fetchAPI.Response(null, { status: 304, headers }));
          return;
        }
        setResponse(chunkedResponse(fetchAPI, body, { status: response.status, headers }));
      };
      return withEtag();
    },
  };
}
