/**
 * The catalogue's free-text search: what each dataset is found by, beyond its code and titles: its description
 * (publisher, coverage, caveats), keywords and group, the keys and Thai and English labels of its record fields
 * (schema/shapes.json), and the names of the provinces it holds rows for (a low-cardinality value: a province
 * finds the datasets that hold it). From the catalogue's facts alone, no upstream call. Thai is written without
 * spaces between words, so a word matches wherever it occurs in the text ("ครู" in "จำนวนครู").
 */
import { AGENCY_NAMES, AGENCY_NAMES_EN, DATA_GROUP_TITLES, type DatasetCode, type DatasetEntry } from '../catalogue.js';
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
      entry.group,
      DATA_GROUP_TITLES[entry.group],
      coverage.th,
      coverage.en,
      ...keywordsOf(entry),
      ...caveatsOf(entry.code).flatMap((caveat) => [caveat.th, caveat.en]),
    ].join(' '),
  ).concat(' ', searchTexts().get(entry.code) ?? '');
}

/** Whether a dataset matches a search: every word of it (split at spaces) found in the dataset's text. */
export function matchesSearch(entry: DatasetEntry, search: string): boolean {
  const text = searchTextOf(entry);
  return foldSearchText(search)
    .split(/\s+/u)
    .filter((word) => word !== '')
    .every((word) => text.includes(word));
}
