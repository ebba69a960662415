/**
 * find_datasets' matching: the words of a question (Thai or English) against what each dataset is known by: its
 * code, titles, group, keywords, and the keys and labels of its record fields as schema/shapes.json records them
 * (no upstream call). Thai is written without spaces between words, so a term also matches when the question
 * contains it ("ครูในเชียงใหม่" holds "ครู").
 */
import { DATA_GROUP_TITLES, type DataGroup, type DatasetCode } from '../catalogue.js';
import { FIELD_DEFINITIONS } from '../catalogue-metadata.js';
import { readShapesFile } from '../records/index.js';

/** What the catalogue operation answers of one dataset. */
export interface ListedDataset {
  readonly code: DatasetCode;
  readonly title: string;
  readonly titleEn: string;
  readonly group: DataGroup;
  readonly metadata: { readonly descriptiveTitle: string; readonly keywords: readonly string[] };
}

/** Words too common to tell datasets apart. */
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

let fieldTerms: ReadonlyMap<DatasetCode, readonly string[]> | undefined;

/** Each dataset's field keys and their Thai and English labels, read once from schema/shapes.json. */
function termsOfFields(): ReadonlyMap<DatasetCode, readonly string[]> {
  fieldTerms ??= new Map(
    readShapesFile().datasets.map((shape) => [
      shape.code,
      shape.fields.flatMap((field) => {
        const definition = FIELD_DEFINITIONS[field.name];
        return [field.key, field.key.replaceAll('_', ' '), definition?.label ?? '', definition?.labelEn ?? ''];
      }),
    ]),
  );
  return fieldTerms;
}

function wordsOf(query: string): string[] {
  return (
    query
      .toLowerCase()
      .split(/[\s,.;:!?()"'“”]+/u)
      .filter((word) => word.length >= 3 && !STOP_WORDS.has(word))
      // "teachers" finds "Teacher counts": English plurals by their singular.
      .map((word) => (/^[a-z]{5,}s$/.test(word) ? word.slice(0, -1) : word))
  );
}

/** How well one dataset answers the question: matched words, titles counting twice. */
function score(dataset: ListedDataset, query: string, words: readonly string[]): number {
  const titles = [dataset.code, dataset.title, dataset.titleEn, dataset.metadata.descriptiveTitle].map((term) =>
    term.toLowerCase(),
  );
  const others = [
    dataset.group,
    DATA_GROUP_TITLES[dataset.group],
    ...dataset.metadata.keywords,
    ...(termsOfFields().get(dataset.code) ?? []),
  ]
    .map((term) => term.toLowerCase())
    .filter((term) => term.length >= 3 && !STOP_WORDS.has(term));
  const lowered = query.toLowerCase();
  const hit = (terms: readonly string[]): number =>
    words.filter((word) => terms.some((term) => term.includes(word))).length +
    terms.filter((term) => !/^[a-z0-9 _]+$/.test(term) && lowered.includes(term)).length;
  return 2 * hit(titles) + hit(others);
}

/** The datasets the question names, best first; every dataset when it names none. */
export function matchDatasets(
  datasets: readonly ListedDataset[],
  query: string,
): { matched: boolean; datasets: ListedDataset[] } {
  const words = wordsOf(query);
  const scored = datasets
    .map((dataset, index) => ({ dataset, index, score: score(dataset, query, words) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.length === 0
    ? { matched: false, datasets: [...datasets] }
    : { matched: true, datasets: scored.map((entry) => entry.dataset) };
}
