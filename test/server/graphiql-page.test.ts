import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compressOnce, createCompressor } from '../../src/http/content-encoding.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';
import { flatHeaders } from '../helpers/headers.js';

// Spies over the real compressors: how often the page is compressed, counted rather than timed.
vi.mock(import('../../src/http/content-encoding.js'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    compressOnce: vi.fn(original.compressOnce),
    createCompressor: vi.fn(original.createCompressor),
  };
});

interface Page {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

describe('the GraphiQL page', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    stack = await startStack();
    server = await listen(stack.app);
  });
  afterAll(async () => {
    await server?.close();
    await stack?.close();
  });

  /** GET /graphql as a browser asks for it; the bytes as they came over the wire, not decoded. */
  async function page(headers: Record<string, string> = {}): Promise<Page> {
    const answer = await request(`${server.origin}/graphql`, { headers: { accept: 'text/html', ...headers } });
    return {
      status: answer.statusCode,
      headers: flatHeaders(answer.headers),
      body: Buffer.from(await answer.body.arrayBuffer()),
    };
  }

  /** How many times the page was compressed, by encoding. */
  function pageCompressions(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [encoding, body] of vi.mocked(compressOnce).mock.calls) {
      if (body.toString('utf8', 0, 4_096).includes('<title>thai-edu-graphql'))
        counts[encoding] = (counts[encoding] ?? 0) + 1;
    }
    return counts;
  }

  it('serves the same brotli bytes and ETag to every request, revalidated by ETag', async () => {
    const first = await page({ 'accept-encoding': 'br' });
    const second = await page({ 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-encoding': 'br',
      'cache-control': 'no-cache',
    });
    expect(first.headers['vary']).toBe('accept, accept-encoding');
    expect(first.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect(second.headers['etag']).toBe(first.headers['etag']);
    expect(second.body.equals(first.body)).toBe(true);
    expect(Number(first.headers['content-length'])).toBe(first.body.length);
  });

  it('answers a matching If-None-Match with 304 and no body, keeping its HTML Content-Security-Policy', async () => {
    const { headers } = await page({ 'accept-encoding': 'br' });
    const etag = headers['etag'] ?? '';
    const revalidated = await page({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers['etag']).toBe(etag);
    expect(revalidated.headers['cache-control']).toBe('no-cache');
    // Caches take a 304's headers over the stored page's: a data-only CSP here would break GraphiQL.
    expect(revalidated.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect((await page({ 'accept-encoding': 'br', 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('gives gzip, brotli and identity copies of one HTML page, each with its own ETag', async () => {
    const identity = await page();
    const gzip = await page({ 'accept-encoding': 'gzip' });
    const br = await page({ 'accept-encoding': 'gzip;q=0.5, br' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    const html = identity.body.toString('utf8');
    expect(html).toContain('<title>thai-edu-graphql: สถิติการศึกษา</title>');
    expect(html).toContain('CatalogueAndTeachers');
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(html);
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(html);
    expect(new Set([identity.headers['etag'], gzip.headers['etag'], br.headers['etag']]).size).toBe(3);
    // An ETag names its own copy: the gzip one does not revalidate a brotli request.
    expect((await page({ 'accept-encoding': 'br', 'if-none-match': gzip.headers['etag'] ?? '' })).status).toBe(200);
  });

  it('compresses the page once per encoding, however many and however concurrent the requests', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => page({ 'accept-encoding': 'gzip' })));
    expect(new Set(answers.map((answer) => answer.headers['etag'])).size).toBe(1);
    expect(gunzipSync(answers[0]?.body ?? Buffer.alloc(0)).toString('utf8')).toContain('CatalogueAndTeachers');
    for (let count = 0; count < 3; count += 1) {
      await page({ 'accept-encoding': 'br' });
      await page({ 'accept-encoding': 'gzip' });
    }
    // Kept in brotli and gzip only: a client that takes deflate alone gets the page as it is.
    expect((await page({ 'accept-encoding': 'deflate' })).headers['content-encoding']).toBeUndefined();
    expect(pageCompressions()).toEqual({ br: 1, gzip: 1 });
    // Never through the streaming compressor either, which every other response goes through.
    expect(vi.mocked(createCompressor)).not.toHaveBeenCalled();
  });
});
