/**
 * The feeds as RDF, on the production build over a socket: /catalog.jsonld and each dataset page's schema.org JSON-LD
 * converted to N-Quads by the jsonld library in safe mode (a term it cannot map is an error, not a dropped triple),
 * and every one of the 13 datasets read back from the triples: spatial and temporal coverage, themes, contact, the
 * EU file-type IRIs and media types of its files, the byte sizes of those measured (equal to the files a GET
 * answers), and schema.org's variableMeasured (every field of schema/shapes.json).
 */
import jsonld from 'jsonld';
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { readShapesFile } from '../../src/records/index.js';
import { useListeningStack } from '../helpers/stack.js';

type Json = Record<string, unknown>;

const DCAT = 'http://www.w3.org/ns/dcat#';
const DCT = 'http://purl.org/dc/terms/';
const VCARD = 'http://www.w3.org/2006/vcard/ns#';
const SCHEMA = 'https://schema.org/';
const EU = 'http://publications.europa.eu/resource/authority/';

interface Quad {
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
}

/** The document as RDF: its N-Quads, each line split into subject, predicate and object. */
async function quadsOf(document: Json): Promise<Quad[]> {
  const options = {
    format: 'application/n-quads' as const,
    safe: true,
    // schema.org's context is not fetched (no network in tests): its terms are schema.org's vocabulary.
    documentLoader: (url: string) =>
      Promise.resolve({ contextUrl: undefined, documentUrl: url, document: { '@context': { '@vocab': SCHEMA } } }),
  };
  const nquads = (await jsonld.toRDF(document, options)) as unknown as string;
  return nquads
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^(\S+) (\S+) (.+) \.$/.exec(line);
      if (match === null) throw new Error(`not an N-Quad: ${line}`);
      return { subject: match[1] ?? '', predicate: match[2] ?? '', object: match[3] ?? '' };
    });
}

const objects = (quads: readonly Quad[], subject: string, predicate: string): string[] =>
  quads.filter((quad) => quad.subject === subject && quad.predicate === `<${predicate}>`).map((quad) => quad.object);

const one = (quads: readonly Quad[], subject: string, predicate: string): string => {
  const [object] = objects(quads, subject, predicate);
  if (object === undefined) throw new Error(`${subject} has no ${predicate}`);
  return object;
};

describe('the feeds parse as RDF and describe all 13 datasets', () => {
  // With the payload cache on, as a server runs: the feeds read what the cache holds.
  const listening = useListeningStack({
    http: { contactEmail: 'data@example.org' },
    cache: { ttlS: 3_600, swrS: 0, staleIfErrorS: 0 },
  });

  it('DCAT-AP: coverage, themes, contact and every file’s type, media type and measured size', async () => {
    const { origin } = listening();
    // A file is measured once per payload version, in the background of the request that first asks; a catalogue
    // answered before the measure ends leaves the size out. A harvester's next visit finds it.
    let quads: Quad[] = [];
    for (let visit = 0; visit < 10; visit++) {
      const response = await fetch(`${origin}/catalog.jsonld`);
      expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/);
      quads = await quadsOf((await response.json()) as Json);
      if (quads.filter((quad) => quad.predicate === `<${DCAT}byteSize>`).length === 2 * DATASETS.length) break;
    }
    expect(quads.length).toBeGreaterThan(500);

    for (const entry of DATASETS) {
      const dataset = `<${origin}/portal/datasets/${entry.code}>`;
      expect(objects(quads, dataset, `${DCT}identifier`)).toEqual([`"${entry.code}"`]);
      const spatial = objects(quads, dataset, `${DCT}spatial`);
      expect(spatial, entry.code).toContain(`<${EU}country/THA>`);
      const themes = objects(quads, dataset, `${DCAT}theme`);
      expect(themes).toContain(`<${EU}data-theme/EDUC>`);
      // The second theme, data.go.th's category, is a concept labelled in Thai.
      const category = themes.find((theme) => theme.startsWith('_:')) ?? '';
      expect(objects(quads, category, 'http://www.w3.org/2004/02/skos/core#prefLabel')).toContain('"การศึกษา"@th');

      const period = one(quads, dataset, `${DCT}temporal`);
      expect(one(quads, period, `${DCAT}startDate`)).toMatch(/^"\d{4}(-\d{2}-\d{2})?"\^\^<http:\/\/www\.w3\.org/);
      expect(objects(quads, period, `${DCAT}endDate`)).toHaveLength(1);

      const contact = one(quads, dataset, `${DCAT}contactPoint`);
      expect(objects(quads, contact, `${VCARD}hasEmail`)).toEqual(['<mailto:data@example.org>']);
      expect(objects(quads, contact, `${VCARD}fn`)).toHaveLength(1);

      const distributions = objects(quads, dataset, `${DCAT}distribution`);
      expect(distributions).toHaveLength(3);
      for (const distribution of distributions) {
        const extension = /\.(csv|json|xlsx)>$/.exec(distribution)?.[1] ?? '';
        expect(objects(quads, distribution, `${DCT}format`)).toEqual([`<${EU}file-type/${extension.toUpperCase()}>`]);
        expect(one(quads, distribution, `${DCAT}mediaType`)).toMatch(
          /^<http:\/\/www\.iana\.org\/assignments\/media-types\//,
        );
        const sizes = objects(quads, distribution, `${DCAT}byteSize`);
        if (extension === 'xlsx') {
          // Its citation sheet states when it was taken: no two are the same size, so none is stated.
          expect(sizes).toEqual([]);
          continue;
        }
        expect(sizes, distribution).toHaveLength(1);
        const stated = Number(
          /^"(\d+)"\^\^<http:\/\/www\.w3\.org\/2001\/XMLSchema#nonNegativeInteger>$/.exec(sizes[0] ?? '')?.[1],
        );
        // The file itself, as a client that asks for no compression receives it.
        const file = await fetch(distribution.slice(1, -1), { headers: { 'accept-encoding': 'identity' } });
        expect(file.status).toBe(200);
        expect((await file.arrayBuffer()).byteLength, distribution).toBe(stated);
      }
    }

    // Dataset 6 covers Bangkok alone: a location with its ISO 3166-2 code beside the country.
    const bangkok = objects(
      quads,
      `<${origin}/portal/datasets/ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST>`,
      `${DCT}spatial`,
    );
    expect(bangkok).toHaveLength(2);
    const province = bangkok.find((place) => place.startsWith('_:')) ?? '';
    expect(objects(quads, province, `${DCT}identifier`)).toEqual(['"TH-10"']);
    expect(objects(quads, province, 'http://www.w3.org/2004/02/skos/core#prefLabel')).toContain('"กรุงเทพมหานคร"@th');
    // A national dataset names the country alone.
    expect(objects(quads, `<${origin}/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR>`, `${DCT}spatial`)).toHaveLength(1);
  }, 60_000);

  it('schema.org on each dataset page: temporal and spatial coverage, and every field as variableMeasured', async () => {
    const { origin } = listening();
    const shapes = new Map(readShapesFile().datasets.map((shape) => [shape.code, shape.fields]));
    for (const entry of DATASETS) {
      const html = await (
        await fetch(`${origin}/portal/datasets/${entry.code}`, { headers: { 'accept-language': 'en' } })
      ).text();
      const document = JSON.parse(
        /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}',
      ) as Json;
      const quads = await quadsOf(document);
      const dataset = `<${origin}/portal/datasets/${entry.code}>`;
      expect(objects(quads, dataset, `${SCHEMA}temporalCoverage`), entry.code).toHaveLength(1);
      const place = one(quads, dataset, `${SCHEMA}spatialCoverage`);
      expect(objects(quads, place, `${SCHEMA}description`)).toHaveLength(1);
      const variables = objects(quads, dataset, `${SCHEMA}variableMeasured`);
      const names = variables.map((variable) => one(quads, variable, `${SCHEMA}name`));
      expect(names.sort()).toEqual((shapes.get(entry.code) ?? []).map((field) => JSON.stringify(field.key)).sort());
      const sizes = quads.filter((quad) => quad.predicate === `<${SCHEMA}contentSize>`);
      expect(sizes).toHaveLength(2);
    }
    // Dataset 6: Bangkok, within Thailand.
    const html = await (
      await fetch(`${origin}/portal/datasets/ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST`, {
        headers: { 'accept-language': 'en' },
      })
    ).text();
    const document = JSON.parse(
      /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}',
    ) as Json;
    expect(document['spatialCoverage']).toMatchObject({
      '@type': 'AdministrativeArea',
      name: 'Bangkok',
      identifier: 'TH-10',
      containedInPlace: { '@type': 'Country', identifier: 'TH' },
    });
  });
});
