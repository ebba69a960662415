/**
 * A CSV's CSVW metadata on the production build over a socket: every dataset's CSV links to it
 * (`Link: <…>; rel="describedby"`), and it is checked against the CSV's actual header and cells, read back with
 * csv-parse: each column's name is its header cell, in order, with Thai and English titles and a datatype its
 * cells satisfy; the table's url is the CSV's, filters included; the citation names the dataset.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { useListeningOtherStack } from '../helpers/other-stack.js';
import { useListeningStack } from '../helpers/stack.js';

interface Column {
  readonly name: string;
  readonly titles: Readonly<Record<string, readonly string[]>>;
  readonly datatype: string;
}

interface Metadata {
  readonly '@context': unknown;
  readonly url: string;
  readonly 'dc:bibliographicCitation': readonly { '@value': string; '@language': string }[];
  readonly 'dc:license': { '@id': string };
  readonly tableSchema: { readonly columns: readonly Column[] };
}

/** The CSV at `path` and the metadata its Link header names. */
async function csvAndMetadata(
  origin: string,
  path: string,
): Promise<{ rows: string[][]; metadata: Metadata; link: string }> {
  const csv = await fetch(`${origin}${path}`, { headers: { 'accept-encoding': 'identity' } });
  expect(csv.status).toBe(200);
  const link = csv.headers.get('link') ?? '';
  const target = /^<([^>]+)>; rel="describedby"; type="application\/csvm\+json"$/.exec(link)?.[1];
  expect(target, link).toBeDefined();
  const rows: string[][] = parse(await csv.text(), { bom: true });
  const answer = await fetch(target ?? '');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/csvm\+json/);
  return { rows, metadata: (await answer.json()) as Metadata, link: target ?? '' };
}

/** Whether a CSV cell is a valid value of a CSVW datatype (the ones the metadata uses); an empty cell is null. */
function satisfies(cell: string, datatype: string): boolean {
  if (cell === '') return true;
  if (datatype === 'integer') return /^-?\d+$/.test(cell);
  if (datatype === 'number') return Number.isFinite(Number(cell));
  if (datatype === 'boolean') return cell === 'true' || cell === 'false';
  return true;
}

describe('CSVW metadata of every CSV', () => {
  const listening = useListeningStack();

  it('names each column as the header does, with Thai and English titles and a datatype its cells satisfy', async () => {
    const { origin } = listening();
    for (const entry of DATASETS) {
      const { rows, metadata } = await csvAndMetadata(origin, `/datasets/${entry.code}.csv`);
      const [header = [], ...cells] = rows;
      const { columns } = metadata.tableSchema;
      expect(
        columns.map((column) => column.name),
        entry.code,
      ).toEqual(header);
      expect(metadata['@context']).toEqual(['http://www.w3.org/ns/csvw', { '@language': 'th' }]);
      expect(metadata.url).toBe(`${origin}/datasets/${entry.code}.csv`);
      for (const [index, column] of columns.entries()) {
        expect(column.titles['th']?.[0], column.name).toMatch(/\S/);
        expect(column.titles['en']?.[0], column.name).toMatch(/\S/);
        expect(['string', 'integer', 'number', 'boolean', 'json']).toContain(column.datatype);
        const wrong = cells.map((row) => row[index] ?? '').filter((cell) => !satisfies(cell, column.datatype));
        expect(wrong.slice(0, 3), `${entry.code}.${column.name} (${column.datatype})`).toEqual([]);
      }
      const citation = metadata['dc:bibliographicCitation'];
      expect(citation.map((part) => part['@language'])).toEqual(['th', 'en']);
      expect(citation[1]?.['@value']).toContain(entry.code);
      expect(metadata['dc:license']['@id']).toMatch(/^https:\/\//);
    }
  });

  it('states codes and years as text and counts as integers', async () => {
    const { origin } = listening();
    const { metadata } = await csvAndMetadata(origin, '/datasets/ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST.csv');
    const types = Object.fromEntries(metadata.tableSchema.columns.map((column) => [column.name, column.datatype]));
    expect(types).toMatchObject({ ACADEMIC_YEAR: 'string', PROVINCE_CODE: 'string', TOTAL: 'integer' });
    const year = metadata.tableSchema.columns.find((column) => column.name === 'ACADEMIC_YEAR');
    expect(year?.titles).toEqual({ th: ['ปีการศึกษา (พ.ศ.)'], en: ['Academic year (Buddhist Era)'] });
  });

  it('describes a filtered CSV by its own address, and refuses what describes no CSV', async () => {
    const { origin } = listening();
    const path = `/datasets/ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER.csv?where.PROVINCE_NAME=${encodeURIComponent('เชียงใหม่')}&sort=-TEACHER_COUNT`;
    const { rows, metadata, link } = await csvAndMetadata(origin, path);
    expect(link).toBe(`${origin}${path.replace('.csv?', '.csv-metadata.json?')}`);
    expect(metadata.url).toBe(`${origin}${path}`);
    expect(metadata.tableSchema.columns.map((column) => column.name)).toEqual(rows[0]);

    const head = await fetch(link, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const wrong of ['/datasets/NO_SUCH.csv-metadata.json', '/datasets/V10_DUPWITH.json-metadata.json']) {
      const answer = await fetch(`${origin}${wrong}`);
      expect(answer.status, wrong).toBe(404);
      expect(((await answer.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
        'NOT_FOUND',
      );
    }
    // JSON and XLSX answers have no CSVW link.
    const json = await fetch(`${origin}/datasets/V10_DUPWITH.json`);
    expect(json.headers.get('link')).toBeNull();
  });
});

describe('CSVW metadata of a CSV from the second upstream (Thai and lower-case keys, counts as text)', () => {
  const listening = useListeningOtherStack();

  it('names a Thai header cell by its percent-encoding, titled by the header itself and its definition', async () => {
    const { origin } = listening();
    const { rows, metadata } = await csvAndMetadata(origin, '/datasets/ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST.csv');
    const [header = [], ...cells] = rows;
    const { columns } = metadata.tableSchema;
    expect(columns.map((column) => decodeURIComponent(column.name))).toEqual(header);
    const province = columns.find((column) => column.titles['und']?.[0] === 'จังหวัด');
    expect(province?.name).toBe(encodeURIComponent('จังหวัด'));
    expect(province?.titles).toMatchObject({ th: ['จังหวัด'], en: ['Province'] });
    for (const [index, column] of columns.entries()) {
      const wrong = cells.map((row) => row[index] ?? '').filter((cell) => !satisfies(cell, column.datatype));
      expect(wrong.slice(0, 3), `${column.name} (${column.datatype})`).toEqual([]);
    }
  });
});
