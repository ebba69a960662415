import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.js';
import { maxAgeS, ResponseFreshness } from '../response-freshness.js';
import { isSingleResult } from './execution-result.js';
import { addVary } from './use-compression.js';

const ledgers = new WeakMap<Request, ResponseFreshness>();

/** The freshness ledger of this HTTP request's GraphQL response. */
export function freshnessOf(request: Request): ResponseFreshness {
  let ledger = ledgers.get(request);
  if (ledger === undefined) {
    ledger = new ResponseFreshness();
    ledgers.set(request, ledger);
  }
  return ledger;
}

export interface FreshnessOptions {
  /** max-age for a response that read no payload (the catalogue): as long as a payload would be fresh. */
  readonly catalogueMaxAgeS: number;
  /** stale-while-revalidate offered to HTTP caches, matching the upstream cache's own window. */
  readonly staleWhileRevalidateS: number;
  readonly now?: () => number;
}

/**
 * Says how current a response is, to clients and to HTTP caches:
 * - `extensions.stale` lists the payload fields served past their freshness, and since when;
 * - a query over HTTP GET gets an ETag and a Cache-Control derived from the freshness of the data it used
 *   (`public` for anonymous reads of datasets; `private, no-store` once a caller is authenticated or a summary
 *   payload is involved), and a matching `If-None-Match` gets 304, so CDNs and mobile HTTP caches do the work.
 */
export function useFreshness(options: FreshnessOptions): Plugin<Context> {
  const now = options.now ?? Date.now;
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          if (!isSingleResult(result)) return;
          const stale = args.contextValue.freshness.staleFields;
          if (stale.length > 0) setResult({ ...result, extensions: { ...result.extensions, stale } });
        },
      };
    },
    async onResponse(payload) {
      const { request, response, fetchAPI } = payload;
      const setResponse = (next: Response): void => payload.setResponse(next);
      if (request.method !== 'GET' || response.status !== 200) return;
      if (!(response.headers.get('content-type') ?? '').includes('json')) return;
      const ledger = ledgers.get(request);
      if (ledger === undefined) return;
      const headers = new fetchAPI.Headers(response.headers);
      if (request.headers.has('authorization') || ledger.involvesSummary) {
        headers.set('cache-control', 'private, no-store');
        setResponse(new fetchAPI.Response(response.body, { status: response.status, headers }));
        return;
      }
      const body = await response.text();
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      const maxAge = maxAgeS(ledger.freshness(options.catalogueMaxAgeS), now());
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

/** The Cache-Control of an anonymous GET answer that stays fresh for `maxAgeS`. */
export function publicCacheControl(maxAgeS: number, staleWhileRevalidateS: number): string {
  return `public, max-age=${maxAgeS}, stale-while-revalidate=${staleWhileRevalidateS}`;
}

/** Whether an If-None-Match header names `etag` (weak comparison, RFC 9110 §13.1.2). */
export function matchesEtag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (ifNoneMatch === null || ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === etag;
  });
}
