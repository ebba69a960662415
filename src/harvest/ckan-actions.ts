/**
 * CKAN's Action API as CKAN clients call it (ckan/views/api.py): GET with a query string, or POST with a JSON body
 * (ckanapi's RemoteCKAN) or a form, on `/api/3/action/<name>` and `/api/action/<name>`. Parameters are read as CKAN
 * reads them: a POSTed form first, then the query string, then a JSON body. Answers are CKAN's envelope
 * `{ help, success, result }`; failures `{ help, success: false, error: { __type, message } }` with CKAN's statuses:
 * 404 Not Found Error, 409 Validation Error (the failing parameters named as CKAN names them), and 400 for an unknown
 * action or a body that is not a JSON object. Plain functions from a `Request` to a `Response`.
 */
import { STATUS_CODES } from 'node:http';
import { AGENCIES, DATA_GROUPS, DATASETS, type DatasetCode } from '../catalogue.js';
import {
  ckanGroup,
  ckanLicences,
  ckanName,
  ckanOrganization,
  ckanPackage,
  findAgency,
  findGroup,
  groupPackageCount,
  packageCount,
  stableId,
  CKAN_ACTIONS_PATH,
} from './ckan.js';
import { asText, CkanQueryError, comparator, facetsOf, matches, parseQuery } from './ckan-search.js';
import { searchTextOf } from './catalogue-search.js';
import { harvestFacts as allFacts, type DatasetFacts, type HarvestOptions } from './dataset-facts.js';

/**
 * The facts CKAN's dicts are made of: without the files' sizes, which no dict states, so that no action waits for a
 * file to be measured.
 */
function harvestFacts(
  options: HarvestOptions,
  origin: string,
  codes?: readonly DatasetCode[],
): Promise<DatasetFacts[]> {
  return allFacts({ ...options, byteSizes: undefined }, origin, codes);
}

type Json = Record<string, unknown>;
type Params = Readonly<Record<string, unknown>>;

/** Where the actions are: CKAN's versioned prefix and the one ckanapi posts to. */
export const CKAN_ACTION_PREFIXES = [CKAN_ACTIONS_PATH, '/api/action/'] as const;

/** `/api/3/action/<name>` and `/api/action/<name>`, with the action's name. */
const ACTION_PATH = /^\/api(?:\/3)?\/action\/([^/]*)$/;

/** The action a path names, or undefined when the path is not an action's. */
export function ckanActionOf(pathname: string): string | undefined {
  return ACTION_PATH.exec(pathname)?.[1];
}

// CKAN's limits: `rows` defaults to 10 and is cut to ckan.search.rows_max (1000); organization_list to 1000.
const DEFAULT_ROWS = 10;
const MAX_ROWS = 1_000;
const DEFAULT_SORT = 'score desc, metadata_modified desc';
// A body larger than any parameters a client sends these actions.
const MAX_BODY_CHARS = 64 * 1024;
const CACHE_CONTROL = 'public, max-age=300';

/** A failure CKAN answers with its error envelope. */
class CkanFailure extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly type: 'Not Found Error' | 'Validation Error',
    message: string,
    readonly fields: Readonly<Record<string, readonly string[]>> = {},
  ) {
    super(message);
  }
}

const notFound = (message: string) => new CkanFailure(404, 'Not Found Error', message);
const invalid = (field: string, problem: string) =>
  new CkanFailure(409, 'Validation Error', `${field}: ${problem}`, { [field]: [problem] });

function helpUrl(origin: string, action: string): string {
  return `${origin}${CKAN_ACTIONS_PATH}help_show?name=${encodeURIComponent(action)}`;
}

function answer(request: Request, status: number, body: Json): Response {
  return new Response(request.method === 'HEAD' ? null : JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': status === 200 && request.method !== 'POST' ? CACHE_CONTROL : 'no-store',
    },
  });
}

/** A form's or query string's pairs as CKAN's `mixed()` makes them: a repeated key becomes a list. */
function mixed(pairs: URLSearchParams): Json {
  // From entries, so a parameter named `__proto__` is a parameter (one nobody reads), never the object's prototype.
  return Object.fromEntries(
    [...new Set(pairs.keys())].map((key) => {
      const values = pairs.getAll(key);
      return [key, values.length === 1 ? values[0] : values];
    }),
  );
}

/** The action's parameters, read as CKAN's `_get_request_data` reads them for an action without side effects. */
async function parameters(request: Request, url: URL): Promise<Params> {
  if (request.method !== 'POST') return mixed(url.searchParams);
  const body = await request.text();
  if (body.length > MAX_BODY_CHARS) throw new CkanFailure(400, 'Validation Error', 'Bad request - body too large');
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' && body.length > 0) {
    const form = new URLSearchParams(body);
    const keys = [...form.keys()];
    // Old clients post the JSON object as a form's only key, with the value 1 or nothing.
    if (keys.length === 1 && ['1', ''].includes(form.get(keys[0] ?? '') ?? '') && keys[0]?.startsWith('{')) {
      return jsonObject(keys[0]);
    }
    return mixed(form);
  }
  if (url.searchParams.size > 0) return mixed(url.searchParams);
  return body.trim().length === 0 ? {} : jsonObject(body);
}

function jsonObject(text: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CkanFailure(400, 'Validation Error', 'Bad request - JSON Error: could not decode the request body');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CkanFailure(
      400,
      'Validation Error',
      'Bad request - JSON Error: Request data JSON decoded to a non-object but it needs to be a dictionary',
    );
  }
  return value as Json;
}

/** A text parameter: a string or number as text; the first of a list; undefined when absent or empty. */
function text(params: Params, name: string): string | undefined {
  const value = Array.isArray(params[name]) ? (params[name] as unknown[])[0] : params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalid(name, 'Must be a string');
}

/** A natural number parameter (CKAN's natural_number_validator), with its default and CKAN's cap. */
function natural(params: Params, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = text(params, name);
  if (value === undefined) return fallback;
  if (!/^\s*[+-]?\d+\s*$/.test(value)) throw invalid(name, 'Invalid integer');
  const number = Number(value);
  if (number < 0) throw invalid(name, 'Must be a natural number');
  return Math.min(number, max);
}

/** A boolean parameter as CKAN's asbool reads it. */
function bool(params: Params, name: string, fallback: boolean): boolean {
  const value = text(params, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['true', 'yes', 'on', 'y', 't', '1'].includes(value)) return true;
  if (['false', 'no', 'off', 'n', 'f', '0'].includes(value)) return false;
  throw invalid(name, 'Must be a boolean');
}

/** A list parameter: a list, or a JSON list in a string (`facet.field`), or one value. */
function list(params: Params, name: string): string[] {
  const value = params[name];
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.map(asText);
  const single = asText(value);
  if (single.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(single);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      throw invalid(name, 'Must be a JSON list');
    }
  }
  return [single];
}

function required(params: Params, ...names: string[]): string {
  for (const name of names) {
    const value = text(params, name);
    if (value !== undefined) return value;
  }
  throw invalid(names[names.length - 1] ?? 'id', 'Missing value');
}

/** The dataset a package id, name or code names. */
function packageCode(idOrName: string): DatasetCode | undefined {
  return DATASETS.find(
    (entry) =>
      ckanName(entry.code) === idOrName.toLowerCase() || stableId(`package:${entry.code}`) === idOrName.toLowerCase(),
  )?.code;
}

async function packages(options: HarvestOptions, origin: string): Promise<Json[]> {
  return (await harvestFacts(options, origin)).map(ckanPackage);
}

/**
 * organization_list's and group_list's answer: the names (or, with all_fields, the dicts) of those named by the
 * `restrictTo` parameter (all when absent), sorted by name, title or package count, paged by offset and limit.
 */
function listed(params: Params, restrictTo: string, dicts: readonly Json[]): unknown[] {
  const allFields = bool(params, 'all_fields', false);
  const offset = natural(params, 'offset', 0);
  const limit = natural(params, 'limit', MAX_ROWS, MAX_ROWS);
  const wanted = list(params, restrictTo).map((name) => name.toLowerCase());
  const sort = text(params, 'sort') ?? 'name asc';
  const [field = 'name', direction = 'asc'] = sort.trim().split(/\s+/);
  if (!['name', 'title', 'package_count'].includes(field) || !['asc', 'desc'].includes(direction)) {
    throw invalid('sort', `Cannot sort by ${JSON.stringify(sort)}`);
  }
  const chosen = dicts
    .filter((dict) => wanted.length === 0 || wanted.includes(String(dict['name'])))
    .sort((a, b) => {
      const x = a[field] as string | number;
      const y = b[field] as string | number;
      return (x < y ? -1 : x > y ? 1 : 0) * (direction === 'asc' ? 1 : -1);
    })
    .slice(offset, offset + limit);
  return allFields ? chosen : chosen.map((dict) => dict['name']);
}

type Action = (params: Params, options: HarvestOptions, origin: string) => Promise<unknown>;

/** The actions, each with the help text `help_show` gives. */
const ACTIONS: Readonly<Record<string, { readonly help: string; readonly run: Action }>> = {
  package_list: {
    help: "Return a list of the names of the site's datasets (packages).\n\n:param limit: (optional)\n:param offset: (optional)\n:rtype: list of strings",
    run: (params) => {
      const offset = natural(params, 'offset', 0);
      const limit = natural(params, 'limit', DATASETS.length);
      return Promise.resolve(DATASETS.slice(offset, offset + limit).map((entry) => ckanName(entry.code)));
    },
  },
  package_show: {
    help: 'Return the metadata of a dataset (package) and its resources.\n\n:param id: the id or name of the dataset\n:rtype: dictionary',
    run: async (params, options, origin) => {
      const id = required(params, 'name_or_id', 'name', 'id');
      const code = packageCode(id);
      if (code === undefined) throw notFound('Not found');
      const [facts] = await harvestFacts(options, origin, [code]);
      return facts === undefined ? null : ckanPackage(facts);
    },
  },
  package_search: {
    help:
      'Search for packages satisfying the given search criteria.\n\n:param q: the solr query (default *:*)\n' +
      ':param fq: any filter queries to apply, e.g. metadata_modified:[2026-01-01T00:00:00Z TO *] organization:moe\n' +
      ':param sort: e.g. "name asc" or "metadata_modified desc" (default "score desc, metadata_modified desc")\n' +
      ':param rows: the maximum number of matching rows to return (default 10, at most 1000)\n' +
      ':param start: the offset in the complete result\n:param facet.field: fields to facet upon (a JSON list)\n' +
      ':rtype: dictionary with count, results, sort, facets, search_facets',
    run: async (params, options, origin) => {
      const rows = natural(params, 'rows', DEFAULT_ROWS, MAX_ROWS);
      const start = natural(params, 'start', 0);
      const q = text(params, 'q') ?? '*:*';
      const sort = text(params, 'sort') ?? DEFAULT_SORT;
      const facetLimit = natural(params, 'facet.limit', 50);
      const query = parseQuery(q, 'q');
      const filters = [text(params, 'fq') ?? '', ...list(params, 'fq_list')].map((fq) => parseQuery(fq, 'fq'));
      const order = comparator(sort, query);
      // Each package searched by what the catalogue search finds it by (its fields' names, its provinces), as
      // Solr's `text` field holds more than the dict shows; taken off the results below.
      const searchable = (await harvestFacts(options, origin)).map((facts) => ({
        ...ckanPackage(facts),
        search_text: searchTextOf(facts.entry),
      }));
      const found = searchable.filter((pkg) => matches(pkg, [query, ...filters])).sort(order);
      const { facets, searchFacets } = facetsOf(found, list(params, 'facet.field'), facetLimit);
      return {
        count: found.length,
        facets,
        results: found.slice(start, start + rows).map(({ search_text: _searchText, ...pkg }) => pkg),
        sort,
        search_facets: searchFacets,
      };
    },
  },
  resource_show: {
    help: "Return the metadata of a resource (one of a dataset's files).\n\n:param id: the id of the resource\n:rtype: dictionary",
    run: async (params, options, origin) => {
      const id = required(params, 'id');
      for (const pkg of await packages(options, origin)) {
        const resource = (pkg['resources'] as Json[]).find((item) => item['id'] === id || item['name'] === id);
        if (resource !== undefined) return resource;
      }
      throw notFound('Resource was not found.');
    },
  },
  license_list: {
    help: 'Return the list of licenses available for datasets on the site (the GDC list).\n\n:rtype: list of dictionaries',
    run: (_params, options) => Promise.resolve(ckanLicences(options.licence)),
  },
  organization_list: {
    help:
      "Return a list of the names of the site's organizations.\n\n:param all_fields: return dicts instead of names\n" +
      ':param sort: "name asc" (default), "title asc" or "package_count desc"\n:param limit: (optional)\n' +
      ':param offset: (optional)\n:param organizations: names to restrict the list to\n:rtype: list of strings or dicts',
    run: (params) =>
      Promise.resolve(
        listed(
          params,
          'organizations',
          AGENCIES.map((agency) => ckanOrganization(agency, packageCount(agency))),
        ),
      ),
  },
  organization_show: {
    help:
      'Return the details of an organization.\n\n:param id: the id or name of the organization\n' +
      ':param include_datasets: include its datasets (default False)\n:rtype: dictionary',
    run: async (params, options, origin) => {
      const agency = findAgency(required(params, 'id'));
      if (agency === undefined) throw notFound('Organization was not found.');
      const organization: Json = { ...ckanOrganization(agency, packageCount(agency)), users: [], extras: [], tags: [] };
      if (bool(params, 'include_datasets', false)) {
        organization['packages'] = (await packages(options, origin)).filter(
          (pkg) => (pkg['organization'] as Json)['name'] === agency.toLowerCase(),
        );
      }
      return organization;
    },
  },
  group_list: {
    help:
      "Return a list of the names of the site's groups (the catalogue's groups; a dataset may sit in more than one).\n\n" +
      ':param all_fields: return dicts instead of names\n:param sort: "name asc" (default), "title asc" or ' +
      '"package_count desc"\n:param limit: (optional)\n:param offset: (optional)\n:param groups: names to restrict ' +
      'the list to\n:rtype: list of strings or dicts',
    run: (params) =>
      Promise.resolve(
        listed(
          params,
          'groups',
          DATA_GROUPS.map((group) => ckanGroup(group, groupPackageCount(group))),
        ),
      ),
  },
  group_show: {
    help:
      'Return the details of a group.\n\n:param id: the id or name of the group\n' +
      ':param include_datasets: include its datasets (default False)\n:rtype: dictionary',
    run: async (params, options, origin) => {
      const group = findGroup(required(params, 'id'));
      if (group === undefined) throw notFound('Group was not found.');
      const shown: Json = { ...ckanGroup(group, groupPackageCount(group)), users: [], extras: [], tags: [] };
      if (bool(params, 'include_datasets', false)) {
        shown['packages'] = (await packages(options, origin)).filter((pkg) =>
          (pkg['groups'] as Json[]).some((item) => item['name'] === group.toLowerCase()),
        );
      }
      return shown;
    },
  },
  status_show: {
    help: "Return a dictionary with information about the site's configuration.\n\n:rtype: dictionary",
    run: (_params, _options, origin) =>
      Promise.resolve({
        site_title: 'สถิติการศึกษาแบบเปิด (thai-edu-graphql)',
        site_description:
          "Education open-data statistics of the Ministry of Education: a read-only subset of CKAN's Action API.",
        site_url: origin,
        ckan_version: '2.10.0',
        error_emails_to: null,
        locale_default: 'th',
        extensions: ['dcat'],
      }),
  },
  help_show: {
    help: 'Return the help string for a particular API action.\n\n:param name: action function name\n:rtype: string',
    run: (params) => {
      const name = required(params, 'name');
      const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
      if (action === undefined) return Promise.reject(notFound('Action function not found'));
      return Promise.resolve(action.help);
    },
  },
};

/** The names of the actions served. */
export const CKAN_ACTIONS: readonly string[] = Object.keys(ACTIONS);

/**
 * A refusal of the door before an action runs (the caller's key, its budget) in CKAN's error envelope, its status
 * and headers kept: a 401 or 403 is CKAN's `Authorization Error`, which ckanapi raises as NotAuthorized; another is
 * named by its status. The server's code stays beside the message.
 */
export async function ckanRefusal(refused: Response, request: Request, url: URL): Promise<Response> {
  const body = (await refused.json().catch(() => ({}))) as {
    errors?: readonly { message?: unknown; extensions?: { code?: unknown } }[];
  };
  const error = body.errors?.[0];
  const headers = new Headers(refused.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json; charset=utf-8');
  const envelope = {
    help: helpUrl(url.origin, decodeURIComponent(ckanActionOf(url.pathname) ?? '')),
    success: false,
    error: {
      __type:
        refused.status === 401 || refused.status === 403
          ? 'Authorization Error'
          : (STATUS_CODES[refused.status] ?? 'Error'),
      message: typeof error?.message === 'string' ? error.message : '',
      ...(typeof error?.extensions?.code === 'string' ? { code: error.extensions.code } : {}),
    },
  };
  return new Response(request.method === 'HEAD' ? null : JSON.stringify(envelope), {
    status: refused.status,
    headers,
  });
}

/** The answer to a request on an action's path (GET, HEAD or POST). */
export async function answerCkanAction(request: Request, url: URL, options: HarvestOptions): Promise<Response> {
  const name = decodeURIComponent(ckanActionOf(url.pathname) ?? '');
  const { origin } = url;
  const help = helpUrl(origin, name);
  try {
    const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
    if (action === undefined) {
      throw new CkanFailure(
        400,
        'Not Found Error',
        `Bad request - Action name not known: ${name.slice(0, 100)} (served: ${CKAN_ACTIONS.join(', ')})`,
      );
    }
    const result = await action.run(await parameters(request, url), options, origin);
    return answer(request, 200, { help, success: true, result });
  } catch (error) {
    const failure =
      error instanceof CkanQueryError
        ? new CkanFailure(409, 'Validation Error', error.message, { [error.parameter]: [error.message] })
        : error;
    if (!(failure instanceof CkanFailure)) throw failure;
    return answer(request, failure.status, {
      help,
      success: false,
      error: { __type: failure.type, message: failure.message, ...failure.fields },
    });
  }
}
