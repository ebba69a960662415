/**
 * The portal's files, served at /portal/. Imported by the server on the first request for the portal, so a server
 * nobody opens the portal on never loads this module nor reads a file. The portal is plain ES modules and CSS that
 * run in the browser against the public GraphQL API (see assets/): no build step, nothing from another origin.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { etagOf, matchesEtag } from '../http/caching.js';
import { compressOnce, negotiate, type Encoding } from '../http/content-encoding.js';
import { CODE_ROOT } from '../package-files.js';
import { SHAPES_FILE } from '../records/shapes-file.js';
import {
  datasetCitationJson,
  datasetOfCitation,
  datasetOfPage,
  datasetPageHtml,
  type DatasetPageFacts,
} from './dataset-page.js';
import { pageLanguage, portalPageHead, withHead } from './page-heads.js';
import { PORTAL_PATH } from './route.js';

/** The browser code, in src/portal/assets/, which `npm run build` copies to dist/portal/assets/. */
const ASSETS = join(CODE_ROOT, 'portal', 'assets');

// What is served of assets/, by extension; anything else there (its tsconfig.json, types.d.ts) is not.
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Scripts and styles from this server only, never inline; data only from this server's API. The portal builds
 * its pages with DOM calls (no markup from data), so nothing in a name, purpose or note can become code.
 */
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The portal's page addresses under PORTAL_PATH, which src/portal/assets/app.js routes: each answers index.html. */
// A dataset's page is served only for a dataset of the catalogue (datasetOfPage), with its JSON-LD; any other is a 404.
const PAGE_ROUTES = /^\/(developer|operator)\/?$/;

// Files change only with a deployment, and their ETags with them: a reload costs a 304 and a new deployment is seen at once.
const CACHE_CONTROL = 'no-cache';

interface Asset {
  readonly contentType: string;
  /** Where its bytes are read from, on its first request. */
  readonly source: string;
}

interface Variant {
  readonly body: Buffer;
  readonly etag: string;
}

export interface PortalFiles {
  /** The answer to a request under PORTAL_PATH. */
  answer(request: Request, pathname: string): Promise<Response>;
}

/** The portal's files: the asset list read once, each file read and compressed on its first request, then kept. */
export async function createPortalFiles(facts: DatasetPageFacts): Promise<PortalFiles> {
  const assets = new Map<string, Asset>();
  for (const name of await readdir(ASSETS, { recursive: true })) {
    const contentType = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
    if (contentType !== undefined) assets.set(name, { contentType, source: join(ASSETS, name) });
  }
  // The typed records' fields, as the schema was built from them (the dataset pages read names and keys from it).
  assets.set('shapes.json', { contentType: JSON_TYPE, source: SHAPES_FILE });
  const variants = new Map<string, Promise<Variant>>();
  const variant = (name: string, asset: Asset, encoding: Encoding | 'identity'): Promise<Variant> => {
    const key = `${encoding} ${name}`;
    let pending = variants.get(key);
    if (pending === undefined) {
      pending = (async () => {
        const body =
          encoding === 'identity'
            ? await readFile(asset.source)
            : await compressOnce(encoding, (await variant(name, asset, 'identity')).body);
        return { body, etag: etagOf(body) };
      })();
      const made = pending;
      // A failed read is answered to the requests that awaited it; the next request reads again.
      made.catch(() => variants.get(key) === made && variants.delete(key));
      variants.set(key, made);
    }
    return pending;
  };

  return {
    async answer(request, pathname) {
      if (pathname === PORTAL_PATH) return redirect(`${PORTAL_PATH}/`);
      // A dataset's "cite this": computed for the request, like its page (the stored dates give the year).
      const cited = datasetOfCitation(pathname);
      if (cited !== undefined) {
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          return plain(405, 'Method not allowed', { allow: 'GET, HEAD' });
        }
        const citation = await datasetCitationJson(cited, request, facts);
        return new Response(request.method === 'HEAD' ? null : JSON.stringify(citation), {
          status: 200,
          headers: { 'content-type': JSON_TYPE, 'cache-control': CACHE_CONTROL },
        });
      }
      // The portal's pages have addresses of their own (the browser routes them): each is the one page, a dataset's
      // with its JSON-LD.
      const dataset = datasetOfPage(pathname);
      const name =
        pathname === `${PORTAL_PATH}/` || dataset !== undefined || PAGE_ROUTES.test(pathname.slice(PORTAL_PATH.length))
          ? 'index.html'
          : pathname.slice(PORTAL_PATH.length + 1);
      const asset = assets.get(name);
      if (dataset !== undefined && asset !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
        const html = await datasetPageHtml(
          (await variant(name, asset, 'identity')).body.toString('utf8'),
          dataset,
          request,
          facts,
        );
        return pageResponse(request, html, asset.contentType);
      }
      // The catalogue, developer and operator pages: index.html with the page's own title, description and canonical.
      const head = name === 'index.html' && dataset === undefined ? portalPageHead(pathname, request) : undefined;
      if (head !== undefined && asset !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
        const html = withHead(
          (await variant(name, asset, 'identity')).body.toString('utf8'),
          head,
          pageLanguage(request),
        );
        return pageResponse(request, html, asset.contentType);
      }
      if (asset === undefined) return plain(404, 'Not found');
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return plain(405, 'Method not allowed', { allow: 'GET, HEAD' });
      }
      // Small text files: compressed once, smaller on the wire than the few bytes of CPU they cost.
      const encoding = negotiate(request.headers.get('accept-encoding'));
      const { body, etag } = await variant(name, asset, encoding ?? 'identity');
      const headers = new Headers({
        'content-type': asset.contentType,
        etag,
        'cache-control': CACHE_CONTROL,
        vary: 'accept-encoding',
      });
      if (asset.contentType.startsWith('text/html')) headers.set('content-security-policy', PORTAL_CSP);
      if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
      if (encoding !== undefined) headers.set('content-encoding', encoding);
      headers.set('content-length', String(body.length));
      return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), {
        status: 200,
        headers,
      });
    },
  };
}

function redirect(location: string): Response {
  return new Response(null, { status: 308, headers: { location, 'cache-control': CACHE_CONTROL } });
}

function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra },
  });
}

/** A page written for this request, in its language: the answer varies by Accept-Language. */
function pageResponse(request: Request, html: string, contentType: string): Response {
  return new Response(request.method === 'HEAD' ? null : html, {
    status: 200,
    headers: {
      'content-type': contentType,
      'cache-control': CACHE_CONTROL,
      'content-security-policy': PORTAL_CSP,
      vary: 'accept-language',
    },
  });
}
