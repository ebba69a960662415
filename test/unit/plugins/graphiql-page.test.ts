import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { requestStateOf } from '../../helpers/request-state.js';
import type { Encoding } from '../../../src/http/content-encoding.js';
import type { PageVariant } from '../../../src/server/pages/graphiql-page.js';
import { graphiqlRoute } from '../../../src/server/pages/use-graphiql-page.js';

// A page of a few bytes in place of GraphiQL's 9 MB: the plugin's part is serving a variant, not rendering it
// (test/server/graphiql-page.test.ts serves the real page from the server, and counts its compressions).
const HTML = Buffer.from('<!doctype html><title>GraphiQL</title>'.repeat(20));
const VARIANTS: Record<Encoding | 'identity', PageVariant> = {
  identity: { body: HTML, etag: '"plain-1"' },
  gzip: { body: gzipSync(HTML), etag: '"gzip-1"' },
  deflate: { body: deflateSync(HTML), etag: '"deflate-1"' },
  br: { body: Buffer.from('brotli bytes'), etag: '"br-1"' },
};
const page = {
  encodings: ['br', 'gzip'] as const,
  variant: (encoding: Encoding | 'identity') => Promise.resolve(VARIANTS[encoding]),
};

// The route alone, as the front door calls it (app.ts).
const route = graphiqlRoute({ graphqlPath: '/graphql', page });

const head = (headers: Record<string, string>, method = 'GET') => ({ method, headers: new Headers(headers) });

async function open(headers: Record<string, string> = {}, path = '/graphql'): Promise<Response> {
  const request = new Request(`http://yoga${path}`, {
    headers: { accept: 'text/html,application/xhtml+xml', ...headers },
  });
  const { pathname } = new URL(request.url);
  if (!route.paths.includes(pathname) || route.accepts?.(pathname, request) === false)
    return new Response(null, { status: 404 });
  return route.handle(request, requestStateOf(request));
}

describe('the GraphiQL route', () => {
  it('serves the variant of the negotiated encoding, with its ETag, no-cache and Vary', async () => {
    const plain = await open();
    expect(plain.status).toBe(200);
    expect(Buffer.from(await plain.arrayBuffer())).toEqual(HTML);
    expect(Object.fromEntries(plain.headers)).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      etag: '"plain-1"',
      'cache-control': 'no-cache',
      vary: 'accept, accept-encoding',
      'content-length': String(HTML.length),
    });
    expect(plain.headers.get('content-encoding')).toBeNull();

    const gzipped = await open({ 'accept-encoding': 'gzip, deflate' }, '/graphql/');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('etag')).toBe('"gzip-1"');
    expect(Buffer.from(await gzipped.arrayBuffer())).toEqual(VARIANTS.gzip.body);
  });

  it('answers a client that takes only an encoding the page is not kept in with the identity page', async () => {
    const answer = await open({ 'accept-encoding': 'deflate' });
    expect(answer.headers.get('content-encoding')).toBeNull();
    expect(answer.headers.get('etag')).toBe('"plain-1"');
  });

  it("answers 304, with the page's content type and no body, when If-None-Match names that variant's ETag", async () => {
    const revalidated = await open({ 'if-none-match': 'W/"other", "plain-1"' });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(revalidated.headers.get('etag')).toBe('"plain-1"');
    expect(await revalidated.text()).toBe('');
    // Another encoding's ETag is another representation.
    expect((await open({ 'if-none-match': '"gzip-1"' })).status).toBe(200);
  });

  const takes = (url: URL, request: ReturnType<typeof head>): boolean =>
    route.paths.includes(url.pathname) && route.accepts?.(url.pathname, request) !== false;

  it('answers a GET that asks for HTML on the GraphQL path, and leaves the rest to yoga', () => {
    const graphql = new URL('http://yoga/graphql');
    expect(takes(graphql, head({ accept: 'text/html' }))).toBe(true);
    expect(takes(new URL('http://yoga/graphql/'), head({ accept: 'text/html' }))).toBe(true);
    expect(takes(graphql, head({ accept: 'application/json' }))).toBe(false);
    expect(takes(graphql, head({ accept: 'text/html' }, 'POST'))).toBe(false);
    expect(takes(new URL('http://yoga/elsewhere'), head({ accept: 'text/html' }))).toBe(false);
  });
});
