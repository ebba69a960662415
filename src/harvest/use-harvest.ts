/**
 * What harvesters read, answered before yoga from the catalogue and its metadata (no upstream call):
 * - GET /catalog.jsonld: the DCAT-AP catalogue in JSON-LD (application/ld+json), where ckanext-dcat serves it;
 * - GET and POST /api/3/action/<name> and /api/action/<name>: CKAN's Action API (ckan-actions.ts).
 * Public and the same for every caller; short-lived in HTTP caches, since a dataset's dates follow the watcher.
 * The plugin only dispatches: each route is a plain function from a `Request` to a `Response`.
 */
import type { Plugin } from 'graphql-yoga';
import { answerCkanAction, ckanActionOf } from './ckan-actions.js';
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
      'access-control-allow-origin': '*',
    },
  });
}

/** The harvest route a request reaches, or undefined when it reaches none. */
export function harvestRoute(
  request: Request,
  url: URL,
): ((request: Request, url: URL, options: HarvestOptions) => Promise<Response>) | undefined {
  const { method } = request;
  if (url.pathname === CATALOGUE_PATH) return method === 'GET' || method === 'HEAD' ? answerCatalogue : undefined;
  if (ckanActionOf(url.pathname) === undefined) return undefined;
  return method === 'GET' || method === 'HEAD' || method === 'POST' ? answerCkanAction : undefined;
}

export function useHarvest(options: HarvestOptions): Plugin {
  return {
    onRequest(payload) {
      const route = harvestRoute(payload.request, payload.url);
      if (route === undefined) return;
      return route(payload.request, payload.url, options).then((response) => payload.endResponse(response));
    },
  };
}
