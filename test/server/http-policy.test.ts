import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { negotiate } from '../../src/http/content-encoding.js';
import { useStack } from '../helpers/stack.js';

const LARGEST = '{ dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) { payload } }';

function preflight(origin: string): RequestInit {
  return {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, authorization',
    },
  };
}

describe('CORS, security headers and compression (defaults)', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 } });

  it('answers a CORS preflight from any origin: a public API with bearer keys, never cookies', async () => {
    const response = await stack().app.fetch('http://localhost/graphql', preflight('https://app.example.org'));
    expect(response.status).toBe(204);
    // yoga echoes the origin (with Vary: Origin) rather than `*`: the same permission, cache-safe.
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  // Which headers, and which CSP when: test/unit/plugins/security-headers.test.ts. Here: that the server applies them, to
  // its answers and to its own GraphiQL page.
  it("sets security headers, with a strict CSP on data and GraphiQL's own on its page", async () => {
    const data = await stack().post({ query: '{ datasets { no } }' });
    expect(data.headers.get('x-content-type-options')).toBe('nosniff');
    expect(data.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const page = await stack().app.fetch('http://localhost/graphql', { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-inline' blob:");
  });

  it.each([
    ['gzip', 'gzip', gunzipSync],
    ['br', 'br;q=1, gzip;q=0.5', brotliDecompressSync],
  ] as const)('compresses the largest payload with %s when the client accepts it', async (encoding, accept, decode) => {
    const plain = await (await stack().post({ query: LARGEST })).text();
    const response = await stack().post({ query: LARGEST }, { 'accept-encoding': accept });
    expect(response.headers.get('content-encoding')).toBe(encoding);
    expect(response.headers.get('vary')).toContain('accept-encoding');
    const compressed = Buffer.from(await response.arrayBuffer());
    expect(compressed.byteLength).toBeLessThan(plain.length / 5);
    expect(decode(compressed).toString('utf8')).toBe(plain);
  });

  it("negotiates by the client's weights, brotli first among equals, nothing for identity", () => {
    expect(negotiate('gzip, deflate, br')).toBe('br');
    expect(negotiate('gzip;q=1, br;q=0.4')).toBe('gzip');
    expect(negotiate('br;q=0, gzip')).toBe('gzip');
    expect(negotiate('identity')).toBeUndefined();
    expect(negotiate(null)).toBeUndefined();
  });

  it('decompresses a gzip request body', async () => {
    const { gzipSync } = await import('node:zlib');
    const response = await stack().app.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ query: '{ datasets { no } }' })),
    });
    expect(((await response.json()) as { data: { datasets: unknown[] } }).data.datasets).toHaveLength(13);
  });
});

describe('CORS_ORIGINS, GRAPHIQL=false and INTROSPECTION=false', () => {
  const stack = useStack({
    http: { corsOrigins: ['https://app.example.org'], graphiql: false, introspection: false, portal: false },
  });

  it('allows only the listed origins', async () => {
    const listed = await stack().app.fetch('http://localhost/graphql', preflight('https://app.example.org'));
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    const other = await stack().app.fetch('http://localhost/graphql', preflight('https://evil.example'));
    expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });

  it('serves no GraphiQL page and refuses introspection', async () => {
    const page = await stack().app.fetch('http://localhost/graphql', { headers: { accept: 'text/html' } });
    expect(await page.text()).not.toContain('<html');
    const response = await stack().post({ query: '{ __schema { queryType { name } } }' });
    expect(response.status).toBe(400);
    const answer = (await stack().post({ query: '{ datasets { no } }' })).status;
    expect(answer).toBe(200);
  });
});
