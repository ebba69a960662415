/**
 * CKAN's Action API as the real clients call it, on the production build: ckanapi's RemoteCKAN (a JSON POST to
 * /api/action/<name>, its User-Agent, its error handling), ckanext-harvest's CKAN harvester (the gather stage's
 * package_search paging with rows/start/sort=id asc until an empty page, its fq terms, then package_show), and
 * ckanext-dcat's RDF harvester reading /catalog.jsonld. Requests copy the clients' own wire formats.
 */
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { useStack, type Stack } from '../helpers/stack.js';

type Json = Record<string, unknown>;

const CKANAPI_USER_AGENT = 'ckanapi/4.7 (+https://github.com/ckan/ckanapi)';

/**
 * ckanapi's RemoteCKAN.call_action: POST JSON to <address>/api/action/<name> (ckanapi/common.py prepare_action); with
 * an `apikey`, the key as CKAN's clients send it, bare (no scheme) in Authorization and again in X-CKAN-API-Key.
 */
async function ckanapi(
  stack: Stack,
  action: string,
  data: Json = {},
  apikey?: string,
): Promise<{ status: number; body: Json }> {
  const response = await stack.app.fetch(`http://localhost/api/action/${action}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(apikey === undefined ? {} : { 'X-CKAN-API-Key': apikey, Authorization: apikey }),
      'User-Agent': CKANAPI_USER_AGENT,
    },
    body: JSON.stringify(data),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/**
 * ckanapi's reverse_apicontroller_action: the result on success, else the exception it raises, by `error.__type`
 * (a body without the envelope is CKANAPIError).
 */
function ckanapiOutcome(body: Json): { result?: unknown; raises?: string } {
  if (body['success'] === true) return { result: body['result'] };
  const error = body['error'] as Json | undefined;
  const raises: Record<string, string> = {
    'Validation Error': 'ValidationError',
    'Not Found Error': 'NotFound',
    'Authorization Error': 'NotAuthorized',
  };
  return { raises: raises[String(error?.['__type'])] ?? 'CKANAPIError' };
}

/** ckanext-harvest's CKANHarvester._get_content: a GET with the harvester's User-Agent, the body as text. */
async function harvesterGet(stack: Stack, path: string): Promise<{ status: number; text: string }> {
  const response = await stack.app.fetch(`http://localhost${path}`, {
    headers: { 'User-Agent': 'ckanext-harvest/1.5 (+https://github.com/ckan/ckanext-harvest)' },
  });
  return { status: response.status, text: await response.text() };
}

/**
 * CKANHarvester._search_for_datasets: params rows=100, start=0, sort=id asc (and fq joined by spaces), urlencoded in
 * Python's dict order; pages until a page comes back empty, refusing a page identical to the one before.
 */
async function gather(stack: Stack, fqTerms: string[] = [], rows = 100): Promise<Json[]> {
  const params: Record<string, string> = { rows: String(rows), start: '0', sort: 'id asc' };
  if (fqTerms.length > 0) params['fq'] = fqTerms.join(' ');
  const found: Json[] = [];
  const ids = new Set<unknown>();
  let previous: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const { status, text } = await harvesterGet(
      stack,
      `/api/3/action/package_search?${new URLSearchParams(params).toString()}`,
    );
    expect(status).toBe(200);
    expect(text, "the paging doesn't seem to work").not.toBe(previous);
    previous = text;
    const results = ((JSON.parse(text) as Json)['result'] as Json)['results'] as Json[];
    const fresh = results.filter((pkg) => !ids.has(pkg['id']));
    for (const pkg of results) ids.add(pkg['id']);
    found.push(...fresh);
    if (results.length === 0) return found;
    params['start'] = String(Number(params['start']) + Number(params['rows']));
  }
  throw new Error('the gather stage did not end');
}

describe('CKAN clients', () => {
  const stack = useStack({ live: { watchIntervalS: 0 } });

  it("ckanapi's RemoteCKAN: every default action answers in CKAN's envelope over a JSON POST", async () => {
    const list = await ckanapi(stack(), 'package_list');
    expect(list.status).toBe(200);
    expect(ckanapiOutcome(list.body).result).toEqual(DATASETS.map((entry) => entry.code.toLowerCase()));
    expect(list.body['help']).toBe('http://localhost/api/3/action/help_show?name=package_list');

    const shown = ckanapiOutcome((await ckanapi(stack(), 'package_show', { id: 'v10_dupwith' })).body).result as Json;
    expect(shown).toMatchObject({ name: 'v10_dupwith', type: 'dataset', state: 'active', num_resources: 3 });
    expect(shown['id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const resources = shown['resources'] as Json[];
    expect(new Set(resources.map((resource) => resource['id'])).size).toBe(3);
    // The same ids on the next call: stable, not drawn per request.
    const again = ckanapiOutcome((await ckanapi(stack(), 'package_show', { id: shown['id'] })).body).result as Json;
    expect((again['resources'] as Json[]).map((resource) => resource['id'])).toEqual(
      resources.map((resource) => resource['id']),
    );

    const resource = ckanapiOutcome((await ckanapi(stack(), 'resource_show', { id: resources[1]?.['id'] })).body)
      .result as Json;
    expect(resource).toMatchObject({
      format: 'JSON',
      package_id: shown['id'],
      url: 'http://localhost/datasets/V10_DUPWITH.json',
    });

    const licences = ckanapiOutcome((await ckanapi(stack(), 'license_list')).body).result as Json[];
    expect(licences.map((licence) => licence['id'])).toContain('License-Open-Data-Common');
    expect(licences.map((licence) => licence['id'])).toContain(shown['license_id']);

    expect(ckanapiOutcome((await ckanapi(stack(), 'organization_list')).body).result).toEqual(['moe', 'ovec']);
    const organizations = ckanapiOutcome((await ckanapi(stack(), 'organization_list', { all_fields: true })).body)
      .result as Json[];
    expect(organizations).toMatchObject([
      { name: 'moe', package_count: 12, is_organization: true },
      { name: 'ovec', package_count: 1, title: 'สำนักงานคณะกรรมการการอาชีวศึกษา' },
    ]);
    const ovec = ckanapiOutcome(
      (await ckanapi(stack(), 'organization_show', { id: organizations[1]?.['id'], include_datasets: true })).body,
    ).result as Json;
    expect((ovec['packages'] as Json[]).map((pkg) => pkg['name'])).toEqual([
      'ods_list_count_teacher_by_sch_prov_persontype_gender',
    ]);
    expect(shown['owner_org']).toBe(organizations[0]?.['id']);

    const status = ckanapiOutcome((await ckanapi(stack(), 'status_show')).body).result as Json;
    expect(status).toMatchObject({ site_url: 'http://localhost', extensions: expect.any(Array) as unknown });
    expect(status['ckan_version']).toMatch(/^2\.\d+/);
    expect(ckanapiOutcome((await ckanapi(stack(), 'help_show', { name: 'package_search' })).body).result).toMatch(
      /:param fq:/,
    );
  });

  it("ckanapi's RemoteCKAN: failures are CKAN's error envelope, raised as ckanapi's exceptions", async () => {
    const unknown = await ckanapi(stack(), 'package_frobnicate');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      success: false,
      error: { __type: 'Not Found Error', message: expect.stringMatching(/Action name not known/) as unknown },
    });
    expect(ckanapiOutcome(unknown.body).raises).toBe('NotFound');

    const missing = await ckanapi(stack(), 'package_show', { id: 'no_such_dataset' });
    expect(missing.status).toBe(404);
    expect(ckanapiOutcome(missing.body).raises).toBe('NotFound');
    expect((await ckanapi(stack(), 'resource_show', { id: 'nope' })).status).toBe(404);
    expect((await ckanapi(stack(), 'organization_show', { id: 'nope' })).status).toBe(404);
    expect((await ckanapi(stack(), 'help_show', { name: 'nope' })).status).toBe(404);

    const rows = await ckanapi(stack(), 'package_search', { rows: 'ten' });
    expect(rows.status).toBe(409);
    expect(rows.body).toMatchObject({
      success: false,
      error: { __type: 'Validation Error', rows: ['Invalid integer'] },
    });
    expect(ckanapiOutcome(rows.body).raises).toBe('ValidationError');
    expect((await ckanapi(stack(), 'package_search', { start: -1 })).status).toBe(409);
    expect((await ckanapi(stack(), 'package_search', { sort: 'colour asc' })).status).toBe(409);
    expect((await ckanapi(stack(), 'package_search', { fq: 'metadata_modified:[yesterday TO *]' })).status).toBe(409);
    expect((await ckanapi(stack(), 'package_show')).body).toMatchObject({ error: { __type: 'Validation Error' } });

    // A body that is not a JSON object is a 400, as CKAN answers it.
    const array = await stack().app.fetch('http://localhost/api/action/package_list', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '[1]',
    });
    expect(array.status).toBe(400);
  });

  it('package_search: rows (default 10, at most 1000), start, sort, q, fq terms, GET and POST, both paths', async () => {
    const search = async (params: Json): Promise<Json> =>
      ckanapiOutcome((await ckanapi(stack(), 'package_search', params)).body).result as Json;
    const all = await search({});
    expect(all).toMatchObject({ count: 13, facets: {}, search_facets: {}, sort: 'score desc, metadata_modified desc' });
    expect(all['results']).toHaveLength(10);
    expect(((await search({ rows: 5000 }))['results'] as Json[]).length).toBe(13);
    const byName = (await search({ sort: 'name asc', rows: 3, start: 1 }))['results'] as Json[];
    const names = DATASETS.map((entry) => entry.code.toLowerCase()).sort();
    expect(byName.map((pkg) => pkg['name'])).toEqual(names.slice(1, 4));
    expect(((await search({ sort: 'name desc', rows: 1 }))['results'] as Json[])[0]?.['name']).toBe(names[12]);

    expect((await search({ fq: 'organization:ovec' }))['count']).toBe(1);
    expect((await search({ fq: 'organization:moe OR organization:ovec' }))['count']).toBe(13);
    expect((await search({ fq: '+organization:moe res_format:CSV' }))['count']).toBe(12);
    // Nos. 1 and 4, and 13, which sits in the teachers group too.
    expect((await search({ fq: 'tags:ครู' }))['count']).toBe(3);
    expect((await search({ fq: 'res_format:"XLSX"' }))['count']).toBe(13);
    expect((await search({ fq: 'name:v10_dupwith' }))['count']).toBe(1);
    expect((await search({ q: 'name:v10_dupwith' }))['count']).toBe(1);
    expect((await search({ q: 'graduates' }))['count']).toBe(2);
    expect((await search({ q: 'nothing-matches-this' }))['count']).toBe(0);
    const faceted = await search({ 'facet.field': '["organization","res_format"]', rows: 0 });
    expect(faceted['facets']).toEqual({
      organization: { moe: 12, ovec: 1 },
      res_format: { CSV: 13, JSON: 13, XLSX: 13 },
    });
    expect(faceted['results']).toEqual([]);
    // Names an object holds by inheritance are parameters and facets like any other, never the answer's prototype.
    const inherited = await search({ 'facet.field': '["__proto__","constructor","organization"]', rows: 0 });
    expect(Object.keys(inherited['facets'] as Json)).toEqual(['__proto__', 'constructor', 'organization']);
    expect((inherited['facets'] as Json)['constructor']).toEqual({});
    const repeated = (await (
      await stack().app.fetch('http://localhost/api/3/action/package_search?__proto__=a&__proto__=b&rows=1')
    ).json()) as Json;
    expect(repeated).toMatchObject({
      success: true,
      result: { count: 13, sort: 'score desc, metadata_modified desc' },
    });

    // GET on /api/3/action and /api/action alike; a form POST too.
    for (const path of ['/api/3/action/package_search', '/api/action/package_search']) {
      const got = (await (await stack().app.fetch(`http://localhost${path}?q=teachers&rows=2`)).json()) as Json;
      // The teachers group's two, No. 13, and Nos. 9 and 10 by their teacher-count fields.
      expect(got).toMatchObject({ success: true, result: { count: 5 } });
      expect((got['result'] as Json)['results']).toHaveLength(2);
    }
    const form = await stack().app.fetch('http://localhost/api/3/action/package_search', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'fq=organization%3Aovec&rows=5',
    });
    expect(((await form.json()) as Json)['result']).toMatchObject({ count: 1 });
  });

  it('package_search: q finds by field names and by the provinces a dataset holds, not only by titles', async () => {
    const codes = async (q: string): Promise<string[]> =>
      (
        (ckanapiOutcome((await ckanapi(stack(), 'package_search', { q, rows: 100 })).body).result as Json)[
          'results'
        ] as Json[]
      )
        .map((pkg) => String(pkg['name']))
        .sort();
    const byProvince = [
      'mv_dwh_school1',
      'ods_count_graduate_by_prov_dist_subdist',
      'ods_list_count_teacher_by_sch_prov_persontype_gender',
    ];
    expect(await codes('เชียงใหม่')).toEqual(byProvince);
    expect(await codes('Chiang Mai')).toEqual(byProvince);
    // Nos. 9 and 10 count teachers in their fields (TEACHER_TOTAL, TEACHER_COUNT), and No. 13 is teachers by college.
    expect(await codes('ครู')).toEqual(
      expect.arrayContaining(['mv_dwh_school1', 'zview_cps_summary_data', byProvince[2]]),
    );
    expect(await codes('DISABILITY_TYPE')).toEqual(['opendata_mis_stat_disabled_student_edulevel_other']);
    const shown = (ckanapiOutcome((await ckanapi(stack(), 'package_search', { q: 'เชียงใหม่' })).body).result as Json)[
      'results'
    ] as Json[];
    expect(shown.every((pkg) => !('search_text' in pkg))).toBe(true);
  });

  it("ckanext-harvest's CKAN harvester: the gather stage pages package_search to 13 packages, then package_show", async () => {
    for (const rows of [100, 5, 1]) {
      const found = await gather(stack(), [], rows);
      expect(found.map((pkg) => pkg['name']).sort()).toEqual(DATASETS.map((entry) => entry.code.toLowerCase()).sort());
      // sort=id asc, as the harvester asks.
      const ids = found.map((pkg) => String(pkg['id']));
      expect(ids).toEqual([...ids].sort());
    }
    // Its organisation filter, as config `organizations_filter_include` writes it.
    expect(await gather(stack(), ['organization:ovec'])).toHaveLength(1);
    // Full package dicts: the import stage reads these keys.
    const [first] = await gather(stack(), ['organization:ovec']);
    for (const key of ['id', 'name', 'title', 'notes', 'resources', 'tags', 'extras', 'organization', 'owner_org']) {
      expect(first, key).toHaveProperty(key);
    }
    const shown = await harvesterGet(stack(), `/api/3/action/package_show?id=${String(first?.['id'])}`);
    expect(shown.status).toBe(200);
    expect(((JSON.parse(shown.text) as Json)['result'] as Json)['name']).toBe(first?.['name']);
    // The remote organisation, when the harvester is told to create it (remote_orgs: create).
    const organization = await harvesterGet(
      stack(),
      `/api/3/action/organization_show?id=${String(first?.['owner_org'])}`,
    );
    expect(((JSON.parse(organization.text) as Json)['result'] as Json)['name']).toBe('ovec');
  });

  it("ckanext-dcat's RDF harvester: /catalog.jsonld is JSON-LD whose datasets have IRIs, titles and distributions", async () => {
    const response = await stack().app.fetch('http://localhost/catalog.jsonld', {
      headers: { 'User-Agent': 'ckanext-dcat/2.0 (+https://github.com/ckan/ckanext-dcat)' },
    });
    // The harvester picks rdflib's parser by the media type: json-ld.
    expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    const catalogue = (await response.json()) as Json;
    const datasets = catalogue['dcat:dataset'] as Json[];
    expect(datasets).toHaveLength(13);
    for (const dataset of datasets) {
      expect(dataset['@id']).toMatch(/^http:\/\/localhost\/portal\/datasets\//);
      expect(dataset['@type']).toBe('dcat:Dataset');
      expect(dataset['dct:identifier']).toEqual(expect.any(String));
    }
  });
});

describe('CKAN clients with an API key', () => {
  // The door asks who is calling when the caller pays for the request: with a rate limit, as a server runs.
  const stack = useStack({ live: { watchIntervalS: 0 }, rateLimit: { points: 1_000, windowS: 60 } });

  it("ckanapi's RemoteCKAN with an apikey: this server's key as CKAN's clients send it; a bad one is NotAuthorized", async () => {
    const { apiKey } = await stack().access.registerClient({ name: 'ckanapi user', contactEmail: 'ckan@example.org' });
    const listed = await ckanapi(stack(), 'package_list', {}, apiKey);
    expect(listed.status).toBe(200);
    expect(ckanapiOutcome(listed.body).result).toHaveLength(13);
    // ckanext-harvest's _get_content sends a source's `api_key` config the same way, on a GET.
    const harvested = await stack().app.fetch('http://localhost/api/3/action/package_search?rows=100&start=0', {
      headers: { Authorization: apiKey },
    });
    expect(harvested.status).toBe(200);

    // A key this server never issued (another CKAN's token): refused, in CKAN's envelope, which ckanapi raises as
    // NotAuthorized, with the door's challenge and its message.
    const refused = await ckanapi(stack(), 'package_list', {}, 'a-data-go-th-token-0f3c');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      success: false,
      error: { __type: 'Authorization Error', message: expect.stringMatching(/Bearer/) as unknown },
    });
    expect(ckanapiOutcome(refused.body).raises).toBe('NotAuthorized');
    const unknownKey = await ckanapi(stack(), 'package_list', {}, 'tegk_notIssuedByThisServer0000000000000000000');
    expect(unknownKey.status).toBe(401);
    expect(ckanapiOutcome(unknownKey.body).raises).toBe('NotAuthorized');
  });
});
