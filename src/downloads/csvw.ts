/**
 * A CSV's metadata as W3C's CSV on the Web (CSVW, "Metadata Vocabulary for Tabular Data") describes a table:
 * GET /datasets/<CODE>.csv-metadata.json, with the CSV's own parameters, describes the CSV GET /datasets/<CODE>.csv
 * answers for them (its `url`), which links to it (`Link: <…>; rel="describedby"`). Each column in the CSV's order:
 * its `name` (the header cell, the upstream's key), Thai and English titles, datatype (codes and years are text, as
 * the upstream writes them; counts integers), description and unit; and the table's title, publisher, licence,
 * coverage, caveats and citation, in Thai and English.
 */
import type { DatasetFacts } from '../harvest/dataset-facts.js';
import { fileCitation } from '../harvest/citation.js';
import { FIELD_DEFINITIONS } from '../catalogue-metadata.js';
import { fallbackName, FIELD_NAMES, type RecordSequence } from '../records/index.js';

const thaiAndEnglish = (th: string, en: string) => [
  { '@value': th, '@language': 'th' },
  { '@value': en, '@language': 'en' },
];

/**
 * A numeric column's CSVW datatype, from the values the file holds: `integer` when each is a whole number (counts),
 * `number` when some is not, `string` when some is text after all (a changed upstream: what the file holds is said).
 */
function numberType(records: RecordSequence, column: string): 'integer' | 'number' | 'string' {
  let type: 'integer' | 'number' = 'integer';
  for (let i = 0; i < records.length; i++) {
    const value = records.record(i)[column];
    if (value === null || value === undefined) continue;
    if (typeof value !== 'number') return 'string';
    if (!Number.isInteger(value)) type = 'number';
  }
  return type;
}

/**
 * A column's CSVW name: the key itself when it can be one (letters, digits and _, not leading _), else the key
 * percent-encoded (a Thai key), as CSVW's names follow URI templates' variable names.
 */
function columnName(key: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9_]*$/.test(key)
    ? key
    : [...new TextEncoder().encode(key)]
        .map((byte) => {
          const character = String.fromCharCode(byte);
          return /[A-Za-z0-9_]/.test(character) && byte < 128
            ? character
            : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
        })
        .join('');
}

/** A column the shapes file does not know: `integer` or `number` when its cells are numbers, else `string`. */
function cellType(records: RecordSequence, column: string): 'integer' | 'number' | 'string' {
  for (let i = 0; i < records.length; i++) {
    const value = records.record(i)[column];
    if (value !== null && value !== undefined)
      return typeof value === 'number' ? numberType(records, column) : 'string';
  }
  return 'string';
}

const DATATYPES = { string: 'string', boolean: 'boolean', json: 'json' } as const;

/** The CSVW metadata of a CSV of `columns` (its header, in order) holding `records`. */
export function csvwMetadata(
  facts: DatasetFacts,
  csv: { readonly url: URL; readonly columns: readonly string[]; readonly records: RecordSequence; readonly at: Date },
): Record<string, unknown> {
  const variables = new Map(facts.variables.map((variable) => [variable.key, variable]));
  const citation = fileCitation(facts, { url: csv.url.href, format: 'CSV', at: csv.at });
  return {
    '@context': ['http://www.w3.org/ns/csvw', { '@language': 'th' }],
    url: csv.url.href,
    'dc:identifier': facts.entry.code,
    'dc:title': thaiAndEnglish(facts.title, facts.titleEn),
    'dc:description': thaiAndEnglish(facts.description, facts.descriptionEn),
    'dc:publisher': {
      'schema:name': thaiAndEnglish(facts.publisher.name, facts.publisher.nameEn),
      'schema:url': { '@id': facts.publisher.url },
    },
    'dc:license': { '@id': facts.licence.url },
    'dc:spatial': thaiAndEnglish(facts.coverage.th, facts.coverage.en),
    'dc:bibliographicCitation': thaiAndEnglish(citation.th, citation.en),
    'schema:isBasedOn': { '@id': facts.landingPage },
    'rdfs:comment': facts.caveats.flatMap((caveat) => thaiAndEnglish(caveat.th, caveat.en)),
    // As the download writes it (downloads/writers.ts): UTF-8 with a byte-order mark, CRLF, a header row.
    dialect: { encoding: 'utf-8', lineTerminators: ['\r\n'], header: true, headerRowCount: 1, doubleQuote: true },
    tableSchema: {
      columns: csv.columns.map((column) => {
        const variable = variables.get(column);
        const name = columnName(column);
        // A header cell that is not the name is one of the titles, so that a validator matches the two.
        const header = name === column ? {} : { und: [column] };
        // A key of another spelling (another upstream's จังหวัด, male) is defined by its GraphQL name's definition.
        const definition = variable ?? FIELD_DEFINITIONS[FIELD_NAMES[column] ?? fallbackName(column)];
        if (definition === undefined) {
          return { name, titles: { und: [column] }, datatype: cellType(csv.records, column) };
        }
        const description = [
          definition.description,
          definition.unit === undefined ? undefined : `Unit: ${definition.unit}`,
        ]
          .filter((part) => part !== undefined)
          .join(' ');
        return {
          name,
          titles: { ...header, th: [definition.label], en: [definition.labelEn] },
          datatype:
            variable === undefined
              ? cellType(csv.records, column)
              : variable.type === 'number'
                ? numberType(csv.records, column)
                : DATATYPES[variable.type],
          ...(description === '' ? {} : { 'dc:description': { '@value': description, '@language': 'en' } }),
          ...(definition.unit === undefined ? {} : { 'schema:unitText': definition.unit }),
        };
      }),
    },
  };
}
