/**
 * What harvesters read, answered before yoga from the catalogue and its metadata (no upstream call):
 * - GET /catalog.jsonld: the DCAT-AP catalogue in JSON-LD (application/ld+json);
 * - GET /api/3/action/package_list and /api/3/action/package_show?id=<code or name>: CKAN's action API.
 * Public and the same for every caller; short-lived in HTTP caches, since a dataset's `modified` follows the watcher.
 */
import type { Route } from '../http/route.js';
import { DATASETS, findDataset, type DatasetCode } from '../catalogue.js';
import { CKAN_ACTIONS_PATH, ckanEnvelope, ckanName, ckanNotFound, ckanPackage } from './ckan.js';
import { datasetFacts, type DatasetFacts, type PublishingFacts } from './dataset-facts.js';
import { dcatCatalogue } from './json-ld.js';

export const CATALOGUE_PATH = '/catalog.jsonld';
const PACKAGE_LIST = `${CKAN_ACTIONS_PATH}package_list`;
const PACKAGE_SHOW = `${CKAN_ACTIONS_PATH}package_show`;
const CACHE_CONTROL = 'public, max-age=300';

export interface HarvestOptions extends PublishingFacts {
  /** The upstream's own address of a dataset, for the source API link. */
  readonly apiUrl: (code: DatasetCode) => string;
  /** When the server last saw a dataset change (the watcher's record); undefined when it has not looked. */
  readonly modified: (code: DatasetCode) => Promise<Date | undefined>;
}

/** The facts of every dataset (or one), as this request's origin reaches them. */
export async function harvestFacts(
  options: HarvestOptions,
  origin: string,
  codes: readonly DatasetCode[] = DATASETS.map((entry) => entry.code),
): Promise<DatasetFacts[]> {
  return Promise.all(
    codes.flatMap((code) => {
      const entry = findDataset(code);
      if (entry === undefined) return [];
      return [
        options
          .modified(code)
          .catch(() => undefined)
          .then((modified) => datasetFacts(entry, origin, options, { apiUrl: options.apiUrl(code), modified })),
      ];
    }),
  );
}

function json(body: unknown, status: number, contentType: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': `${contentType}; charset=utf-8`,
      'cache-control': status === 200 ? CACHE_CONTROL : 'no-store',
      'access-control-allow-origin': '*',
    },
  });
}

export function harvestRoute(options: HarvestOptions): Route {
  return {
    name: 'harvest',
    // Computed for the request from the catalogue and the stored dates: an operation's price, and its bytes.
    price: 'operation',
    matches: (url, request) =>
      (url.pathname === CATALOGUE_PATH || url.pathname === PACKAGE_LIST || url.pathname === PACKAGE_SHOW) &&
      (request.method === 'GET' || request.method === 'HEAD'),
    async handle(_request, state) {
      const { pathname, origin, searchParams } = state.url;
      if (pathname === CATALOGUE_PATH) {
        return json(dcatCatalogue(origin, await harvestFacts(options, origin)), 200, 'application/ld+json');
      }
      if (pathname === PACKAGE_LIST) {
        return json(
          ckanEnvelope(
            origin,
            'package_list',
            DATASETS.map((entry) => ckanName(entry.code)),
          ),
          200,
          'application/json',
        );
      }
      const id = searchParams.get('id') ?? searchParams.get('name') ?? '';
      const entry = findDataset(id.toUpperCase());
      if (entry === undefined) {
        return json(
          ckanNotFound(origin, 'package_show', `Not found: no dataset ${JSON.stringify(id.slice(0, 100))}`),
          404,
          'application/json',
        );
      }
      const [facts] = await harvestFacts(options, origin, [entry.code]);
      return json(
        ckanEnvelope(origin, 'package_show', facts === undefined ? null : ckanPackage(facts)),
        200,
        'application/json',
      );
    },
  };
}
