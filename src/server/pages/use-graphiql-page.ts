import type { Route } from '../../http/route.js';
import { matchesEtag } from '../../http/caching.js';
import { negotiate } from '../../http/content-encoding.js';
import type { GraphiQLPage } from './graphiql-page.js';

// The page changes only with a deployment, and its ETag with it: caches may keep it but ask every time, so a
// reload costs a 304 and a new deployment is seen at once.
const CACHE_CONTROL = 'no-cache';

export interface GraphiQLPageOptions {
  /** The GraphQL endpoint: the page is served there on GET with Accept: text/html, as yoga's own GraphiQL is. */
  readonly graphqlPath: string;
  /**
   * The page (graphiql-page.ts): its encodings and its variants are all that is read, so a test serves a page of
   * its own bytes.
   */
  readonly page: Pick<GraphiQLPage, 'variant' | 'encodings'>;
}

/**
 * GraphiQL in place of yoga's own, which renders the page on every request and leaves its 9 MB to the response
 * compression each time (0.35 s of CPU): here it is rendered and compressed by the build, or once (graphiql-page.ts),
 * and served
 * with an ETag, `Cache-Control: no-cache` and `Vary: Accept, Accept-Encoding`; a matching If-None-Match gets 304.
 * It chooses its own Content-Encoding (encodesItself), so the front door does not compress it. It answers where yoga's
 * GraphiQL would (GET on the GraphQL path, asking for HTML), ahead of yoga in the route table (turn yoga's off:
 * `graphiql: false`). It pays as an operation, and for the bytes it sends.
 */
export function graphiqlRoute(options: GraphiQLPageOptions): Route {
  const { page } = options;
  const paths = new Set([options.graphqlPath, `${options.graphqlPath}/`]);
  return {
    name: 'graphiql',
    price: 'operation',
    paths: [...paths],
    // Kept in brotli and gzip; a client that takes neither gets the page as it is, never compressed per request.
    encodesItself: true,
    // yoga's own rule (shouldRenderGraphiQL): a GET that accepts HTML.
    accepts: (_pathname, request) =>
      request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html'),
    async handle(request) {
      const encoding = negotiate(request.headers.get('accept-encoding'), page.encodings);
      const { body, etag } = await page.variant(encoding ?? 'identity');
      // Content-Type on a 304 too: caches update the stored page's headers from it, and the security headers
      // choose GraphiQL's Content-Security-Policy by it.
      const headers = new Headers({
        'content-type': 'text/html; charset=utf-8',
        etag,
        'cache-control': CACHE_CONTROL,
        vary: 'accept, accept-encoding',
      });
      if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
      if (encoding !== undefined) headers.set('content-encoding', encoding);
      headers.set('content-length', String(body.length));
      // zlib and Buffer.from give ArrayBuffer-backed buffers (never shared memory), which is what BodyInit wants.
      return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers });
    },
  };
}
