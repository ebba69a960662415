/**
 * Metadata that fits the catalogues it flows into, on the production build: the GDC fields data.go.th's CKAN reads as
 * package fields, DCAT-AP's theme, spatial coverage and EU file-type IRIs, schema.org's spatialCoverage,
 * includedInDataCatalog and citation, each dataset page's own title, description and canonical link, and every
 * dataset's geographic coverage stated (dataset 13: OVEC vocational colleges only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { startStack, useStack, type Stack } from '../helpers/stack.js';

type Json = Record<string, unknown>;

async function json(stack: Stack, path: string): Promise<Json> {
  return (await (await stack.app.fetch(`http://localhost${path}`)).json()) as Json;
}

describe('catalogue metadata for GDC, DCAT-AP and schema.org', () => {
  const stack = useStack();

  it('gives each package the GDC fields, its coverage stated', async () => {
    const found = (await json(stack(), '/api/3/action/package_search?rows=100'))['result'] as Json;
    for (const pkg of found['results'] as Json[]) {
      expect(pkg['license_id']).toBe('License-Open-Data-Common');
      for (const key of ['maintainer', 'objective', 'update_frequency_unit', 'update_frequency_interval']) {
        expect(pkg[key], key).toEqual(expect.any(String));
      }
      expect(pkg['geo_coverage']).toEqual(expect.any(String));
      expect(pkg['data_language']).toBe('ไทย');
      expect(pkg['data_format']).toEqual(['CSV', 'JSON', 'XLSX']);
    }
    const thirteen = (
      await json(stack(), '/api/3/action/package_show?id=ods_list_count_teacher_by_sch_prov_persontype_gender')
    )['result'] as Json;
    expect(thirteen['geo_coverage']).toMatch(/OVEC vocational colleges only/);
    expect(thirteen['notes']).toMatch(/OVEC vocational colleges only/);
    const six = (await json(stack(), '/api/3/action/package_show?id=ods_count_school_by_prov_dist_subdist'))[
      'result'
    ] as Json;
    expect(six['geo_coverage']).toMatch(/Bangkok only/);
  });

  it('publishes DCAT-AP themes, spatial coverage and EU file types', async () => {
    const catalogue = await json(stack(), '/catalog.jsonld');
    expect(catalogue['@context']).toMatchObject({ skos: 'http://www.w3.org/2004/02/skos/core#' });
    for (const dataset of catalogue['dcat:dataset'] as Json[]) {
      expect(dataset['dcat:theme']).toContainEqual({
        '@id': 'http://publications.europa.eu/resource/authority/data-theme/EDUC',
      });
      expect(dataset['dct:spatial']).toContainEqual(
        expect.objectContaining({ '@id': 'http://publications.europa.eu/resource/authority/country/THA' }),
      );
      for (const distribution of dataset['dcat:distribution'] as Json[]) {
        expect((distribution['dct:format'] as Json)['@id']).toMatch(
          /^http:\/\/publications\.europa\.eu\/resource\/authority\/file-type\/(CSV|JSON|XLSX)$/,
        );
      }
    }
  });

  it('gives each dataset page its own title, description, canonical link and schema.org coverage', async () => {
    const titles = new Set<string>();
    for (const entry of DATASETS) {
      const html = await (await stack().app.fetch(`http://localhost/portal/datasets/${entry.code}`)).text();
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      titles.add(title);
      expect(title).toContain(entry.code);
      expect(html).toMatch(/<meta name="description" content="[^"]{50,}">/);
      expect(html).toContain(`<link rel="canonical" href="http://localhost/portal/datasets/${entry.code}">`);
      const jsonLd = JSON.parse(
        /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1] ?? '{}',
      ) as Json;
      expect(['Country', 'AdministrativeArea']).toContain((jsonLd['spatialCoverage'] as Json)['@type']);
      expect(jsonLd['includedInDataCatalog']).toMatchObject({
        '@type': 'DataCatalog',
        url: 'http://localhost/portal/',
      });
      expect(jsonLd['citation']).toContain(entry.code);
    }
    expect(titles.size).toBe(13);
  });

  it('gives the catalogue, developer and operator pages their own title, description and canonical link', async () => {
    const titles = new Set<string>();
    for (const language of ['th', 'en']) {
      for (const [path, canonical] of [
        ['/portal/', '/portal/'],
        ['/portal/developer', '/portal/developer'],
        ['/portal/operator/', '/portal/operator'],
      ] as const) {
        const response = await stack().app.fetch(`http://localhost${path}`, {
          headers: { 'accept-language': language },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('vary')).toContain('accept-language');
        const html = await response.text();
        titles.add(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
        expect(html.match(/<title>/g)).toHaveLength(1);
        expect(html).toMatch(/<meta name="description" content="[^"]{50,}">/);
        expect(html).toContain(`<link rel="canonical" href="http://localhost${canonical}">`);
        expect(html).toContain(`<html lang="${language}"`);
      }
    }
    // Three pages in two languages, and none the same as a dataset page's.
    expect(titles.size).toBe(6);
  });
});

describe('each dataset’s reference period, from its records', () => {
  const stack = useStack();

  it('states the years of the year field (or "as of" without one) in CKAN, DCAT and schema.org', async () => {
    const byYear = (await json(stack(), '/api/3/action/package_show?id=ods_count_teacher_by_year'))['result'] as Json;
    // The simulator's academic years 2560-2567 B.E. are 2017-2024 C.E.
    expect(byYear).toMatchObject({ temporal_coverage_start: '2017', temporal_coverage_end: '2024' });
    expect(byYear['extras']).toContainEqual({
      key: 'reference_period',
      value: 'Academic years 2560–2567 B.E. (2017–2024 C.E.)',
    });
    const noYear = (await json(stack(), '/api/3/action/package_show?id=mv_dwh_school1'))['result'] as Json;
    expect(noYear['temporal_coverage_start']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(noYear['temporal_coverage_end']).toBe(noYear['temporal_coverage_start']);
    const stated = (noYear['extras'] as Json[]).find((extra) => extra['key'] === 'reference_period');
    expect(stated?.['value']).toMatch(/^No year field: as of \d{4}-\d{2}-\d{2}$/);

    // A period whose records take over 2 s to read (the largest, on a busy machine) is left out of that answer and
    // is in the next, its scan done: the catalogue is asked again until every dataset states one.
    let datasets: Json[] = [];
    await expect
      .poll(
        async () => {
          datasets = (await json(stack(), '/catalog.jsonld'))['dcat:dataset'] as Json[];
          return datasets.filter((dataset) => dataset['dct:temporal'] === undefined).map((d) => d['dct:identifier']);
        },
        { timeout: 15_000 },
      )
      .toEqual([]);
    const graduates = datasets.find(
      (dataset) => dataset['dct:identifier'] === 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST',
    );
    expect(graduates?.['dct:temporal']).toMatchObject({
      '@type': 'dct:PeriodOfTime',
      'dcat:startDate': { '@value': '2023', '@type': 'xsd:gYear' },
      'dcat:endDate': { '@value': '2023', '@type': 'xsd:gYear' },
    });

    const page = await (await stack().app.fetch('http://localhost/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR')).text();
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}') as Json;
    expect(jsonLd['temporalCoverage']).toBe('2017/2024');
  });
});

describe('the reference period when the upstream fails', () => {
  let upstream: LoopbackServer;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startLoopbackServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{}');
    });
    stack = await startStack({ baseUrl: upstream.origin, caPem: null });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('omits it, and the feeds answer all the same', async () => {
    const catalogue = await stack.app.fetch('http://localhost/catalog.jsonld');
    expect(catalogue.status).toBe(200);
    const datasets = ((await catalogue.json()) as Json)['dcat:dataset'] as Json[];
    expect(datasets).toHaveLength(DATASETS.length);
    expect(datasets.every((dataset) => dataset['dct:temporal'] === undefined)).toBe(true);
    const pkg = (await json(stack, '/api/3/action/package_show?id=ods_count_teacher_by_year'))['result'] as Json;
    expect(pkg['temporal_coverage_start']).toBeUndefined();
  });
});
