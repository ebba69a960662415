/**
 * What harvesters read, answered before yoga from the catalogue and its metadata, with each dataset's reference period
 * from its records through the upstream cache (left out when they cannot be read in time):
 * - GET /catalog.jsonld: the DCAT-AP catalogue in JSON-LD (application/ld+json), where ckanext-dcat serves it;
 * - GET and POST /api/3/action/<name> and /api/action/<name>: CKAN's Action API (ckan-actions.ts).
 * Public and the same for every caller; short-lived in HTTP caches, since a dataset's dates follow the watcher.
 * CORS as CORS_ORIGINS says, like every door (the front door adds it).
 */
import type { RequestHead, Route } from '../http/route.js';
import { answerCkanAction, ckanActionOf, ckanRefusal, CKAN_ACTION_PREFIXES } from './ckan-actions.js';
import { harvestFacts, type HarvestOptions } from './dataset-facts.js';
import { dcatCatalogue } from './json-ld.js';

export type { HarvestOptions } from './dataset-facts.js';

export const CATALOGUE_PATH = '/catalog.jsonld';
const CACHE_CONTROL = 'public, max-age=300';

/** GET /catalog.jsonld. */
export async function answerCatalogue(request: Request, url: URL, options: HarvestOptions): Promise<Response> {
  const body = JSON.stringify(dcatCatalogue(url.origin, await harvestFacts(options, url.origin)));
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: {
      'content-type': 'application/ld+json; charset=utf-8',
      'cache-control': CACHE_CONTROL,
    },
  });
}

/**
 * The harvesters' route: the catalogue and CKAN's actions. Computed for the request from the catalogue and the
 * stored dates: it pays as an operation, and for its bytes (a package_search of 1,000 rows is some 100 KB).
 */
export function harvestRoute(options: HarvestOptions): Route {
  return {
    name: 'harvest',
    price: 'operation',
    paths: [CATALOGUE_PATH, ...CKAN_ACTION_PREFIXES.map((prefix) => `${prefix}*`)],
    accepts: (pathname, request) => answererOf(request, pathname) !== undefined,
    handle: (request, state) => {
      const answer = answererOf(request, state.url.pathname);
      // Matched a moment ago on the same method and path.
      if (answer === undefined) throw new Error(`no harvest answer for ${state.url.pathname}`);
      return answer(request, state.url, options);
    },
    // ckanapi reads a refusal's `error.__type` (a bad key is NotAuthorized); other envelopes it cannot read at all.
    refusal: (refused, request, state) =>
      ckanActionOf(state.url.pathname) === undefined
        ? Promise.resolve(refused)
        : ckanRefusal(refused, request, state.url),
  };
}

/** What answers a request on the harvesters' paths, or undefined when it reaches none. */
function answererOf(
  request: RequestHead,
  pathname: string,
): ((request: Request, url: URL, options: HarvestOptions) => Promise<Response>) | undefined {
  const { method } = request;
  if (pathname === CATALOGUE_PATH) return method === 'GET' || method === 'HEAD' ? answerCatalogue : undefined;
  if (ckanActionOf(pathname) === undefined) return undefined;
  return method === 'GET' || method === 'HEAD' || method === 'POST' ? answerCkanAction : undefined;
}
