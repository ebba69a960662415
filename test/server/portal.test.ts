import { describe, expect, it } from 'vitest';
import type { App } from '../../src/server/app.js';
import { useStack } from '../helpers/stack.js';

/** A request through the app's fetch handler, as the node:http listener hands it to yoga. */
const get = (app: App, path: string, init: RequestInit = {}): Promise<Response> =>
  Promise.resolve(app.fetch(`http://localhost${path}`, init));

describe('the portal served at /portal/', () => {
  const stack = useStack();

  it('answers its page with a Content-Security-Policy that allows no inline script, from this origin only', async () => {
    const redirect = await get(stack().app, '/portal');
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/portal/');
    const page = await get(stack().app, '/portal/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("connect-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="/portal/app.js"></script>');
  });

  it('answers each page address with the page, which routes it in the browser', async () => {
    // Each page has a head of its own (title, description, canonical: test/contract/catalogue-fit.test.ts checks
    // them); the rest is the one page.
    const withoutHead = (html: string): string =>
      html.replace(/<title>[^<]*<\/title>\s*<meta name="description"[^>]*>\s*<link rel="canonical"[^>]*>/, '');
    const index = withoutHead(await (await get(stack().app, '/portal/')).text());
    expect(index).not.toContain('<title>');
    for (const path of ['/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR', '/portal/developer', '/portal/operator']) {
      const page = await get(stack().app, path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      // A dataset's page is the same page with its JSON-LD (test/contract/catalogue-harvest.test.ts checks that).
      const text = withoutHead(
        (await page.text()).replace(/\s*<script type="application\/ld\+json">.*?<\/script>/s, ''),
      );
      if (path.includes('/datasets/')) expect(text, path).toContain('<script type="module" src="/portal/app.js">');
      else expect(text, path).toBe(index);
    }
    expect((await get(stack().app, '/portal/datasets/NOT_A_DATASET')).status).toBe(404);
    expect((await get(stack().app, '/portal/datasets/../../package.json')).status).toBe(404);
    expect((await get(stack().app, '/portal/nowhere')).status).toBe(404);
  });

  it('serves its modules with an ETag, compressed when asked, and 304 for a copy the browser holds', async () => {
    const module = await get(stack().app, '/portal/app.js', { headers: { 'accept-encoding': 'br' } });
    expect(module.status).toBe(200);
    expect(module.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(module.headers.get('content-encoding')).toBe('br');
    const etag = module.headers.get('etag') ?? '';
    const again = await get(stack().app, '/portal/app.js', {
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('serves the shapes the typed schema was built from, and nothing else of the package', async () => {
    const shapes = await get(stack().app, '/portal/shapes.json');
    expect(((await shapes.json()) as { datasets: unknown[] }).datasets).toHaveLength(13);
    for (const path of [
      '/portal/tsconfig.json',
      '/portal/gql/operations.d.ts',
      '/portal/dom-types.d.ts',
      '/portal/../package.json',
      '/portal/%2e%2e/config.ts',
    ]) {
      expect((await get(stack().app, path)).status, path).toBe(404);
    }
    expect((await get(stack().app, '/portal/', { method: 'POST', body: '{}' })).status).toBe(405);
  });
});

describe('PORTAL=false', () => {
  const stack = useStack({ http: { corsOrigins: '*', graphiql: true, introspection: true, portal: false } });

  it('serves no portal', async () => {
    expect((await get(stack().app, '/portal/')).status).toBe(404);
    expect((await get(stack().app, '/portal/app.js')).status).toBe(404);
  });
});
