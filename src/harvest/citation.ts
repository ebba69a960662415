/**
 * How a reader cites a dataset, APA-like, in the one place that writes it: the dataset page's citation (its JSON-LD,
 * its "cite this" box in Thai, English and BibTeX), and a downloaded file's, which names what a reader needs to find
 * the same file again and the terms it was published under.
 */
import { thailandDay } from '../catalogue-metadata.js';
import type { DatasetFacts } from './dataset-facts.js';

/** The Buddhist Era is 543 years ahead of the Common Era. */
const BUDDHIST_ERA_OFFSET = 543;

/** The year a dataset last changed (or was first seen) in Thailand, or undefined while the server has not looked. */
function yearOf(facts: DatasetFacts): number | undefined {
  const at = facts.modified ?? facts.created;
  return at === undefined ? undefined : Number(thailandDay(at).slice(0, 4));
}

/** A reader's citation of a dataset, APA-like: publisher, year, title, format, address. */
export function citationOf(facts: DatasetFacts): string {
  const year = yearOf(facts);
  return (
    `${facts.publisher.nameEn}. (${year === undefined ? 'n.d.' : String(year)}). ${facts.titleEn} ` +
    `[${facts.entry.code}; Data set]. ${facts.landingPage}`
  );
}

/** The same citation in Thai: the Thai publisher and title, a Buddhist-Era year (ม.ป.ป. when none is known). */
function thaiCitationOf(facts: DatasetFacts): string {
  const year = yearOf(facts);
  return (
    `${facts.publisher.name}. (${year === undefined ? 'ม.ป.ป.' : String(year + BUDDHIST_ERA_OFFSET)}). ${facts.title} ` +
    `[${facts.entry.code}; ชุดข้อมูล]. ${facts.landingPage}`
  );
}

/** A BibTeX field's text: its special characters escaped, so that LaTeX prints them as they are. */
function bibtexText(text: string): string {
  return text.replace(/[\\{}&%$#_^~]/g, (character) =>
    character === '\\'
      ? '\\textbackslash{}'
      : character === '^' || character === '~'
        ? `\\${character}{}`
        : `\\${character}`,
  );
}

/**
 * The citation as a BibTeX `@misc` entry (what reference managers import): the publisher as a corporate author (in
 * double braces, so that it is not read as a person's names), the English title, the year as in `citationOf`, the
 * code, the address and the licence. Its key is the code and the year.
 */
export function bibtexOf(facts: DatasetFacts): string {
  const year = yearOf(facts);
  const fields: [string, string][] = [
    ['author', `{${bibtexText(facts.publisher.nameEn)}}`],
    ['title', `{${bibtexText(facts.titleEn)}}`],
    ...(year === undefined ? [] : ([['year', String(year)]] as [string, string][])),
    ['publisher', bibtexText(facts.publisher.nameEn)],
    ['howpublished', `Data set ${bibtexText(facts.entry.code)}`],
    ['url', facts.landingPage],
    ['note', `Licence: ${bibtexText(facts.licence.name)}, ${bibtexText(facts.licence.url)}`],
  ];
  const key = `${facts.entry.code.toLowerCase()}${year === undefined ? '' : String(year)}`;
  return `@misc{${key},\n${fields.map(([name, value]) => `  ${name.padEnd(12)} = {${value}},`).join('\n')}\n}`;
}

/** What a dataset page offers to cite it: the citation (as the JSON-LD carries it), in Thai, and as BibTeX. */
export interface DatasetCitation {
  readonly text: string;
  readonly textTh: string;
  readonly bibtex: string;
}

export function datasetCitation(facts: DatasetFacts): DatasetCitation {
  return { text: citationOf(facts), textTh: thaiCitationOf(facts), bibtex: bibtexOf(facts) };
}

/** Where and when a file was taken: its full address (filters included) and the moment it was written. */
export interface Retrieval {
  readonly url: string;
  readonly format: string;
  readonly at: Date;
}

/**
 * A downloaded file's citation, in Thai (a Buddhist-Era year, the date as Thai readers write it) and in English:
 * publisher, year, title, code and format, licence with its address, the date it was retrieved and from where.
 */
export function fileCitation(facts: DatasetFacts, retrieval: Retrieval): { th: string; en: string } {
  const year = yearOf(facts);
  const licence = `${facts.licence.name} (${facts.licence.url})`;
  const thaiDate = new Intl.DateTimeFormat('th-TH', { dateStyle: 'long', timeZone: 'Asia/Bangkok' }).format(
    retrieval.at,
  );
  // The same day as the Thai date above: Thailand's.
  const date = thailandDay(retrieval.at);
  return {
    th:
      `${facts.publisher.name}. (${year === undefined ? 'ม.ป.ป.' : String(year + BUDDHIST_ERA_OFFSET)}). ` +
      `${facts.title} [${facts.entry.code}; ชุดข้อมูล, ${retrieval.format}]. สัญญาอนุญาต ${licence}. ` +
      `สืบค้นเมื่อ ${thaiDate} จาก ${retrieval.url}`,
    en:
      `${facts.publisher.nameEn}. (${year === undefined ? 'n.d.' : String(year)}). ${facts.titleEn} ` +
      `[${facts.entry.code}; Data set, ${retrieval.format}]. Licence: ${licence}. ` +
      `Retrieved ${date}, from ${retrieval.url}`,
  };
}
