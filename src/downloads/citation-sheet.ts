/**
 * What an XLSX holds beside its records so that it can be cited away from the portal: a second sheet, "อ้างอิง
 * (citation)", of the citation, title, publisher, licence, where and when the file was taken, the filter, the
 * coverage, the reference period (when its records could be read in time), the Buddhist-Era note, the caveats and
 * the columns' definitions, in Thai and English; and the workbook's document properties. All of it from the dataset's facts (harvest/dataset-facts.ts), as the feeds publish them.
 */
import { BUDDHIST_ERA, describePeriod, FIELD_DEFINITIONS } from '../catalogue-metadata.js';
import { fileCitation } from '../harvest/citation.js';
import type { DatasetFacts } from '../harvest/dataset-facts.js';
import { fallbackName, FIELD_NAMES } from '../records/index.js';
import type { WorkbookExtras } from './xlsx.js';

export const CITATION_SHEET = 'อ้างอิง (citation)';

/** What the file is: where it was taken from (its whole address), when, its columns, and how many records. */
export interface FileTaken {
  readonly url: URL;
  readonly at: Date;
  readonly columns: readonly string[];
  readonly recordCount: number;
}

/** The citation sheet and the document properties of a dataset's XLSX. */
export function workbookExtras(facts: DatasetFacts, file: FileTaken): WorkbookExtras {
  const citation = fileCitation(facts, { url: file.url.href, format: 'XLSX', at: file.at });
  const filter = file.url.search === '' ? undefined : decodeURIComponent(file.url.search.slice(1));
  const rows: (readonly (string | number)[])[] = [
    ['หัวข้อ (item)', 'ภาษาไทย', 'English'],
    ['อ้างอิง (cite as)', citation.th, citation.en],
    ['ชื่อชุดข้อมูล (title)', facts.title, facts.titleEn],
    ['รหัสชุดข้อมูล (dataset code)', facts.entry.code, facts.entry.code],
    ['ผู้เผยแพร่ (publisher)', facts.publisher.name, facts.publisher.nameEn],
    ['เว็บไซต์ผู้เผยแพร่ (publisher site)', facts.publisher.url, facts.publisher.url],
    ['สัญญาอนุญาต (licence)', facts.licence.name, facts.licence.name],
    ['ที่อยู่สัญญาอนุญาต (licence URL)', facts.licence.url, facts.licence.url],
    ['ดาวน์โหลดจาก (downloaded from)', file.url.href, file.url.href],
    ['วันที่ดาวน์โหลด (downloaded on)', file.at.toISOString(), file.at.toISOString()],
    [
      'ข้อมูลเปลี่ยนแปลงล่าสุด (data last changed)',
      facts.modified?.toISOString() ?? 'ไม่ทราบ',
      facts.modified?.toISOString() ?? 'not known',
    ],
    ['ตัวกรอง (filter)', filter ?? 'ไม่มี: ทุกระเบียน', filter ?? 'none: every record'],
    ['จำนวนระเบียน (records)', file.recordCount, file.recordCount],
    ['ขอบเขตพื้นที่ (geographic coverage)', facts.coverage.th, facts.coverage.en],
    ...(facts.period === undefined
      ? []
      : [['ช่วงเวลาของข้อมูล (reference period)', describePeriod(facts.period).th, describePeriod(facts.period).en]]),
    ['ปี (years)', BUDDHIST_ERA.th, BUDDHIST_ERA.en],
    ...facts.caveats
      .filter((caveat) => caveat !== BUDDHIST_ERA)
      .map((caveat) => ['ข้อควรระวัง (caveat)', caveat.th, caveat.en]),
    ['หน้าชุดข้อมูล (dataset page)', facts.landingPage, facts.landingPage],
    ...file.columns.flatMap((column) => {
      const definition = FIELD_DEFINITIONS[FIELD_NAMES[column] ?? fallbackName(column)];
      if (definition === undefined) return [];
      const unit = definition.unit === undefined ? '' : ` (${definition.unit})`;
      return [[`คอลัมน์ ${column} (column)`, definition.label, `${definition.labelEn}${unit}`]];
    }),
  ];
  return {
    second: { name: CITATION_SHEET, rows },
    properties: {
      title: `${facts.title} (${facts.entry.code})`,
      creator: facts.publisher.name,
      company: facts.publisher.name,
      description: citation.en,
      keywords: facts.keywords,
      created: file.at,
    },
  };
}
