/**
 * Metadata and harvesting through the real HTTP path (on the production build): the DCAT-AP catalogue, CKAN's
 * package_list and package_show, the schema.org JSON-LD of each portal dataset page, and the GraphQL metadata
 * fields, on the simulator and on the second upstream.
 */
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { graphql } from '../gql/index.js';
import { useOtherStack } from '../helpers/other-stack.js';
import { useStack, type Stack } from '../helpers/stack.js';

const Metadata = graphql(`
  query DatasetMetadata($code: DatasetCode!) {
    dataset(code: $code) {
      metadata {
        descriptiveTitle
        licence {
          name
          url
        }
        publisher
        publisherUrl
        contactEmail
        updateFrequency
        caveats
        keywords
        landingPath
        downloads {
          format
          path
        }
      }
      lastFetched {
        version
        fetchedAt
      }
      fields {
        name
        definition {
          label
          labelEn
          unit
        }
      }
    }
  }
`);

type Json = Record<string, unknown>;

function get(stack: Stack, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(stack.app.fetch(`http://localhost${path}`, { headers }));
}

/** Every term of a JSON-LD node (recursively) that uses a prefix, checked against the context's prefixes. */
function prefixedTerms(node: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) for (const item of node) prefixedTerms(item, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (!key.startsWith('@')) out.add(key);
      if (key === '@type' && typeof value === 'string') out.add(value);
      prefixedTerms(value, out);
    }
  }
  return out;
}

const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((item) => String((item as Json)['@value'])) : [String(value)];

describe('harvesting', () => {
  const stack = useStack({ live: { watchIntervalS: 0 } });

  it('publishes a DCAT-AP catalogue of the 13 datasets in JSON-LD, with the properties DCAT-AP requires', async () => {
    const response = await get(stack(), '/catalog.jsonld');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    const catalogue = (await response.json()) as Json;
    const context = catalogue['@context'] as Record<string, string>;
    expect(context).toMatchObject({ dcat: 'http://www.w3.org/ns/dcat#', dct: 'http://purl.org/dc/terms/' });
    for (const term of prefixedTerms(catalogue)) {
      const prefix = term.split(':')[0] ?? '';
      expect(Object.keys(context), term).toContain(prefix);
    }
    expect(catalogue['@type']).toBe('dcat:Catalog');
    expect(texts(catalogue['dct:title'])).toHaveLength(2);
    expect(catalogue['dct:description']).toBeDefined();
    expect(catalogue['dct:publisher']).toMatchObject({ '@type': 'foaf:Agent' });
    const datasets = catalogue['dcat:dataset'] as Json[];
    expect(datasets.map((dataset) => dataset['dct:identifier'])).toEqual(DATASETS.map((entry) => entry.code));
    for (const dataset of datasets) {
      expect(dataset['@type']).toBe('dcat:Dataset');
      expect(texts(dataset['dct:title']).every((title) => title.length > 0)).toBe(true);
      expect(texts(dataset['dct:description']).join(' ')).toMatch(/Buddhist Era/);
      expect(dataset['dct:license']).toEqual({ '@id': 'https://data.go.th/pages/open-government-licence' });
      expect(dataset['dct:accrualPeriodicity']).toEqual({
        '@id': 'http://publications.europa.eu/resource/authority/frequency/ANNUAL',
      });
      expect(dataset['dcat:contactPoint']).toMatchObject({ '@type': 'vcard:Organization' });
      const distributions = dataset['dcat:distribution'] as Json[];
      expect(distributions.map((distribution) => (distribution['dct:format'] as Json)['@id'])).toEqual(
        ['CSV', 'JSON', 'XLSX'].map((type) => `http://publications.europa.eu/resource/authority/file-type/${type}`),
      );
      for (const distribution of distributions) {
        expect(distribution['@type']).toBe('dcat:Distribution');
        expect((distribution['dcat:accessURL'] as Json)['@id']).toMatch(/^http:\/\/localhost\/datasets\//);
      }
    }
    // A distribution's URL is a working download.
    const csv = (datasets[0]?.['dcat:distribution'] as Json[])[0]?.['dcat:accessURL'] as Json;
    const file = await get(stack(), new URL(String(csv['@id'])).pathname);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
  });

  it("answers CKAN's package_list and package_show in CKAN's envelope", async () => {
    const list = (await (await get(stack(), '/api/3/action/package_list')).json()) as Json;
    expect(list).toEqual({
      help: 'http://localhost/api/3/action/help_show?name=package_list',
      success: true,
      result: DATASETS.map((entry) => entry.code.toLowerCase()),
    });
    const response = await get(
      stack(),
      '/api/3/action/package_show?id=ods_list_count_teacher_by_sch_prov_persontype_gender',
    );
    expect(response.status).toBe(200);
    const shown = (await response.json()) as { help: string; success: boolean; result: Json };
    expect(shown.success).toBe(true);
    expect(shown.help).toMatch(/help_show\?name=package_show$/);
    const { result } = shown;
    expect(result).toMatchObject({
      name: 'ods_list_count_teacher_by_sch_prov_persontype_gender',
      title: 'Teacher counts by school, province, person type and gender',
      license_url: 'https://data.go.th/pages/open-government-licence',
      organization: { name: 'ovec', title: 'สำนักงานคณะกรรมการการอาชีวศึกษา' },
      state: 'active',
      num_resources: 3,
    });
    expect(String(result['notes'])).toMatch(/non-teaching staff/);
    expect((result['resources'] as Json[]).map((resource) => resource['format'])).toEqual(['CSV', 'JSON', 'XLSX']);
    expect((result['tags'] as Json[]).length).toBeGreaterThan(3);
    // A code in capitals finds it too; an unknown one is CKAN's Not Found.
    const byCode = (await (await get(stack(), '/api/3/action/package_show?id=V10_DUPWITH')).json()) as Json;
    expect((byCode['result'] as Json)['name']).toBe('v10_dupwith');
    const missing = await get(stack(), '/api/3/action/package_show?id=nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false, error: { __type: 'Not Found Error' } });
  });

  it("serves each portal dataset page with its schema.org Dataset in JSON-LD, under the portal's CSP", async () => {
    const response = await get(stack(), '/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await response.text();
    expect(html).toMatch(/src="\/portal\/app\.js"/);
    expect(html).toMatch(/href="\/portal\/portal\.css"/);
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    const jsonLd = JSON.parse(blocks[0]?.[1] ?? '{}') as Json;
    expect(jsonLd).toMatchObject({
      '@context': 'https://schema.org/',
      '@type': 'Dataset',
      name: 'จำนวนครูและบุคลากรทางการศึกษา',
      identifier: 'ODS_COUNT_TEACHER_BY_YEAR',
      url: 'http://localhost/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR',
      license: 'https://data.go.th/pages/open-government-licence',
      isAccessibleForFree: true,
      creator: { '@type': 'GovernmentOrganization', name: 'กระทรวงศึกษาธิการ' },
    });
    // Google's dataset search wants a description of 50 to 5,000 characters.
    expect(String(jsonLd['description']).length).toBeGreaterThanOrEqual(50);
    expect(String(jsonLd['description']).length).toBeLessThanOrEqual(5_000);
    expect((jsonLd['distribution'] as Json[]).map((file) => file['encodingFormat'])).toEqual([
      'text/csv',
      'application/json',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    const english = await get(stack(), '/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR', { 'accept-language': 'en' });
    expect(await english.text()).toContain('"name":"Number of teachers and education personnel"');
    expect((await get(stack(), '/portal/datasets/NOT_A_DATASET')).status).toBe(404);
  });

  it("gives each dataset page's citation as its JSON-LD carries it, in Thai and as BibTeX, for the cite box", async () => {
    // The year cited is the dataset's date, set by its first look, which anything downloading it sets off (here the
    // catalogue's reading of the reference periods) a moment after its own answer. Once all 13 are dated, the page
    // and the box read the same stored year; before, a page could say n.d. and the box read a moment later the year.
    await get(stack(), '/catalog.jsonld');
    await expect
      .poll(
        async () => {
          const found = (await (await get(stack(), '/api/3/action/package_search?rows=100')).json()) as Json;
          return ((found['result'] as Json)['results'] as Json[]).filter((pkg) => pkg['metadata_modified'] === null);
        },
        { timeout: 15_000 },
      )
      .toEqual([]);
    for (const entry of DATASETS) {
      const page = await (await get(stack(), `/portal/datasets/${entry.code}`)).text();
      const jsonLd = JSON.parse(
        /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page)?.[1] ?? '{}',
      ) as Json;
      const response = await get(stack(), `/portal/datasets/${entry.code}/citation.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const citation = (await response.json()) as { text: string; textTh: string; bibtex: string };
      // One text, written once (harvest/citation.ts): the page's box says what its JSON-LD says.
      expect(citation.text).toBe(jsonLd['citation']);
      expect(citation.text).toContain(`[${entry.code}; Data set]. http://localhost/portal/datasets/${entry.code}`);
      expect(citation.textTh).toContain(`[${entry.code}; ชุดข้อมูล]. http://localhost/portal/datasets/${entry.code}`);
      expect(citation.bibtex).toMatch(new RegExp(`^@misc\\{${entry.code.toLowerCase()}\\d*,\n`));
      expect(citation.bibtex).toContain(`  url          = {http://localhost/portal/datasets/${entry.code}},`);
      expect(citation.bibtex).toContain(`howpublished = {Data set ${entry.code.replace(/_/g, '\\_')}}`);
      expect(citation.bibtex).toContain(
        'note         = {Licence: Open Government License - Thailand, https://data.go.th/pages/open-government-licence},',
      );
      // Balanced braces: a reference manager reads it whole.
      let depth = 0;
      for (const character of citation.bibtex.replace(/\\[{}]/g, '')) {
        depth += character === '{' ? 1 : character === '}' ? -1 : 0;
        expect(depth).toBeGreaterThanOrEqual(0);
      }
      expect(depth).toBe(0);
    }
    expect((await get(stack(), '/portal/datasets/NOT_A_DATASET/citation.json')).status).toBe(404);
  });
});

describe.each([
  ['the simulator', () => useStack()],
  [
    'the second upstream',
    () => {
      const other = useOtherStack();
      return () => other().stack;
    },
  ],
])('dataset metadata in GraphQL over %s', (_name, start) => {
  const stack = start();

  it('gives the licence, caveats, files, the last fetch and each live field its definition', async () => {
    const { body } = await stack().execute(Metadata, { code: 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER' });
    expect(body.errors).toBeUndefined();
    const dataset = body.data?.dataset;
    expect(dataset?.metadata).toMatchObject({
      descriptiveTitle: 'Teacher counts by school, province, person type and gender',
      licence: { name: 'Open Government License - Thailand', url: 'https://data.go.th/pages/open-government-licence' },
      publisher: 'สำนักงานคณะกรรมการการอาชีวศึกษา',
      contactEmail: null,
      landingPath: '/portal/datasets/ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
    });
    expect(dataset?.metadata.caveats.join(' ')).toMatch(/พุทธศักราช/);
    expect(dataset?.metadata.caveats.join(' ')).toMatch(/บุคลากรที่ไม่ใช่ครู/);
    expect(dataset?.metadata.downloads.map((file) => file.path)).toEqual([
      '/datasets/ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER.csv',
      '/datasets/ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER.json',
      '/datasets/ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER.xlsx',
    ]);
    expect(dataset?.lastFetched?.version).toMatch(/.+/);
    expect(Date.parse(String(dataset?.lastFetched?.fetchedAt))).toBeGreaterThan(Date.now() - 60_000);
    const province = dataset?.fields?.find((field) => ['PROVINCE_NAME', 'จังหวัด'].includes(field.name));
    expect(province?.definition).toEqual({ label: 'จังหวัด', labelEn: 'Province', unit: null });
    const count = dataset?.fields?.find((field) => ['TEACHER_COUNT', 'teacher_count'].includes(field.name));
    expect(count?.definition?.unit).toBe('teachers');
  });
});
