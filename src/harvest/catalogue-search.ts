/**
 * The catalogue's free-text search: what each dataset is found by, beyond its code and titles: its description
 * (publisher, coverage, caveats), keywords and group, the keys and Thai and English labels of its record fields
 * (schema/shapes.json), and the names of the provinces it holds rows for (a low-cardinality value: a province
 * finds the datasets that hold it). From the catalogue's facts alone, no upstream call. Thai is written without
 * spaces between words, so a word matches wherever it occurs in the text ("ครู" in "จำนวนครู").
 */
import {
  AGENCY_NAMES,
  AGENCY_NAMES_EN,
  DATA_GROUP_TITLES,
  groupsOf,
  type DatasetCode,
  type DatasetEntry,
} from '../catalogue.js';
import { caveatsOf, COVERAGE, descriptiveTitle, FIELD_DEFINITIONS, keywordsOf } from '../catalogue-metadata.js';
import { PROVINCES, provinceDatasetCodes } from '../provinces.js';
import { fallbackName, FIELD_NAMES, readShapesFile } from '../records/index.js';

/** Text as the search compares it: lower case, composed. */
export function foldSearchText(text: string): string {
  return text.toLocaleLowerCase().normalize('NFC');
}

let texts: ReadonlyMap<DatasetCode, string> | undefined;

/** Each dataset's searched text, made once (shapes.json is read from disk). */
function searchTexts(): ReadonlyMap<DatasetCode, string> {
  if (texts !== undefined) return texts;
  const fields = new Map(
    readShapesFile().datasets.map((shape) => [
      shape.code,
      shape.fields.flatMap((field) => {
        const definition = FIELD_DEFINITIONS[FIELD_NAMES[field.key] ?? fallbackName(field.key)];
        return [field.key, field.key.replaceAll('_', ' '), definition?.label ?? '', definition?.labelEn ?? ''];
      }),
    ]),
  );
  const provinces = new Map<DatasetCode, string[]>();
  for (const province of PROVINCES)
    for (const code of provinceDatasetCodes(province.code))
      provinces.set(code, [...(provinces.get(code) ?? []), province.nameTh, province.nameEn]);
  texts = new Map(
    [...fields.keys()].map((code) => [
      code,
      foldSearchText([...(fields.get(code) ?? []), ...(provinces.get(code) ?? [])].join(' ')),
    ]),
  );
  return texts;
}

/** Everything a dataset is found by, folded: its catalogue facts, its fields' names and the provinces it holds. */
export function searchTextOf(entry: DatasetEntry): string {
  const coverage = COVERAGE[entry.code];
  return foldSearchText(
    [
      String(entry.no),
      entry.code,
      entry.title,
      entry.titleEn,
      descriptiveTitle(entry),
      AGENCY_NAMES[entry.agency],
      AGENCY_NAMES_EN[entry.agency],
      ...groupsOf(entry).flatMap((group) => [group, DATA_GROUP_TITLES[group]]),
      coverage.th,
      coverage.en,
      ...keywordsOf(entry),
      ...caveatsOf(entry.code).flatMap((caveat) => [caveat.th, caveat.en]),
    ].join(' '),
  ).concat(' ', searchTexts().get(entry.code) ?? '');
}

/** The most characters a search may hold: a question, not a document. */
export const MAX_SEARCH_LENGTH = 500;

/** Words too common to tell datasets apart, or the filler of a question ("how many teachers in …"). */
const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'how',
  'many',
  'much',
  'what',
  'which',
  'with',
  'number',
  'data',
  'education',
  'thailand',
  'การศึกษา',
  'จำนวน',
  'ข้อมูล',
  'สถิติ',
]);

/**
 * The words a search looks for: split at blanks and punctuation, folded, without stop words or Latin words of one
 * or two letters ("in", "of"), an English plural by its singular ("teachers" finds "Teacher counts" too).
 */
export function searchWords(search: string): string[] {
  return foldSearchText(search)
    .split(/[\s,.;:!?()"'“”]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word) && !/^[a-z]{1,2}$/.test(word))
    .map((word) => (/^[a-z]{4,}s$/.test(word) ? word.slice(0, -1) : word));
}

/** Whether a dataset matches a search: every word of it found in the dataset's text. An empty search matches all. */
export function matchesSearch(entry: DatasetEntry, search: string): boolean {
  const text = searchTextOf(entry);
  return searchWords(search).every((word) => text.includes(word));
}

/**
 * The one search of the catalogue, which the GraphQL `datasets(search:)`, the portal's search box (through it),
 * MCP's find_datasets and CKAN's package_search (its `q`, through searchTextOf) share.
 *
 * - `all` (the default): the datasets holding every word, in catalogue order;
 * - `any`: for a question none holds all the words of ("teachers in Chiang Mai in 2566": no dataset names a year),
 *   the datasets holding at least one, those holding more first, then in catalogue order.
 */
export function searchDatasets(
  entries: readonly DatasetEntry[],
  search: string,
  mode: 'all' | 'any' = 'all',
): DatasetEntry[] {
  const words = searchWords(search);
  if (mode === 'all') return entries.filter((entry) => matchesSearch(entry, search));
  return entries
    .map((entry, index) => {
      const text = searchTextOf(entry);
      return { entry, index, held: words.filter((word) => text.includes(word)).length };
    })
    .filter((found) => found.held > 0)
    .sort((a, b) => b.held - a.held || a.index - b.index)
    .map((found) => found.entry);
}
