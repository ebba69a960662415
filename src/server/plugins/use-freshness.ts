import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';
import { isSingleResult } from '../../graphql/execution-result.js';
import { existingLedgerOf, maxAgeS } from '../../graphql/response-ledger.js';
import { addVary, etagOf, matchesEtag, publicCacheControl } from '../../http/caching.js';

/** What HTTP caches are told about how long answers stay fresh. */
export interface HttpCachingPolicy {
  /** max-age for a response that read no payload (the catalogue): as long as a payload would be fresh. */
  readonly catalogueMaxAgeS: number;
  /** stale-while-revalidate offered to HTTP caches, matching the upstream cache's own window. */
  readonly staleWhileRevalidateS: number;
}

export interface FreshnessOptions extends HttpCachingPolicy {
  readonly now: () => number;
}

/**
 * Says how current a response is, to clients and to HTTP caches:
 * - `extensions.stale` lists the payload fields served past their freshness, and since when;
 * - a query over HTTP GET gets an ETag and a Cache-Control derived from the freshness of the data it used
 *   (`public` for anonymous reads of datasets; `private, no-store` once a caller is authenticated or a field
 *   whose value depends on the caller was resolved), and a matching `If-None-Match` gets 304, so CDNs and mobile HTTP caches do the work.
 */
export function useFreshness(options: FreshnessOptions): Plugin<Context> {
  const { now } = options;
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          if (!isSingleResult(result)) return;
          const stale = args.contextValue.ledger.staleFields;
          if (stale.length > 0) setResult({ ...result, extensions: { ...result.extensions, stale } });
        },
      };
    },
    async onResponse(payload) {
      const { request, response, fetchAPI } = payload;
      const setResponse = (next: Response): void => payload.setResponse(next);
      if (request.method !== 'GET' || response.status !== 200) return;
      if (!(response.headers.get('content-type') ?? '').includes('json')) return;
      const ledger = existingLedgerOf(request);
      if (ledger === undefined) return;
      const headers = new fetchAPI.Headers(response.headers);
      if (request.headers.has('authorization') || ledger.dependsOnCaller) {
        headers.set('cache-control', 'private, no-store');
        setResponse(new fetchAPI.Response(response.body, { status: response.status, headers }));
        return;
      }
      const body = await response.text();
      const etag = etagOf(body);
      const maxAge = maxAgeS(ledger.lifetime(options.catalogueMaxAgeS), now());
      headers.set('etag', etag);
      headers.set('cache-control', publicCacheControl(maxAge, options.staleWhileRevalidateS));
      addVary(headers, 'accept', 'accept-encoding');
      if (matchesEtag(request.headers.get('if-none-match'), etag)) {
        headers.delete('content-length');
        setResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      setResponse(new fetchAPI.Response(body, { status: response.status, headers }));
    },
  };
}
