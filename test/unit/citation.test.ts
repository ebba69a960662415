import { describe, expect, it } from 'vitest';
import { findDataset } from '../../src/catalogue.js';
import { describePeriod, periodBounds } from '../../src/catalogue-metadata.js';
import { bibtexOf, citationOf, datasetCitation, fileCitation } from '../../src/harvest/citation.js';
import { datasetFacts } from '../../src/harvest/dataset-facts.js';

// The one place that writes a dataset's citation: the JSON-LD's text, its Thai form and its BibTeX agree on the
// publisher, year, title, code and address, and BibTeX's special characters are escaped.

const entry = findDataset('ODS_COUNT_TEACHER_BY_YEAR');
if (entry === undefined) throw new Error('no dataset');
const publishing = {
  licence: {
    id: 'License-Open-Data-Common' as const,
    name: 'Open Government License - Thailand',
    url: 'https://example.org/licence_%20#1',
  },
  contactEmail: undefined,
};

describe('datasetCitation', () => {
  it('cites the year of the last change, in the Buddhist Era in Thai, and the same address', () => {
    const facts = datasetFacts(entry, 'https://stats.example', publishing, { modified: new Date('2025-03-01') });
    const citation = datasetCitation(facts);
    expect(citation.text).toBe(citationOf(facts));
    expect(citation.text).toBe(
      'Ministry of Education. (2025). Number of teachers and education personnel [ODS_COUNT_TEACHER_BY_YEAR; Data set]. https://stats.example/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR',
    );
    expect(citation.textTh).toBe(
      'กระทรวงศึกษาธิการ. (2568). จำนวนครูและบุคลากรทางการศึกษา [ODS_COUNT_TEACHER_BY_YEAR; ชุดข้อมูล]. https://stats.example/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR',
    );
    expect(citation.bibtex).toBe(
      [
        '@misc{ods_count_teacher_by_year2025,',
        '  author       = {{Ministry of Education}},',
        '  title        = {{Number of teachers and education personnel}},',
        '  year         = {2025},',
        '  publisher    = {Ministry of Education},',
        '  howpublished = {Data set ODS\\_COUNT\\_TEACHER\\_BY\\_YEAR},',
        '  url          = {https://stats.example/portal/datasets/ODS_COUNT_TEACHER_BY_YEAR},',
        '  note         = {Licence: Open Government License - Thailand, https://example.org/licence\\_\\%20\\#1},',
        '}',
      ].join('\n'),
    );
  });

  it('says n.d. (ม.ป.ป.) and leaves the year out of BibTeX while no date is known', () => {
    const facts = datasetFacts(entry, 'https://stats.example', publishing);
    expect(datasetCitation(facts).text).toContain('(n.d.)');
    expect(datasetCitation(facts).textTh).toContain('(ม.ป.ป.)');
    expect(bibtexOf(facts)).not.toMatch(/^  year/m);
    expect(bibtexOf(facts)).toMatch(/^@misc\{ods_count_teacher_by_year,/);
  });

  it('escapes what BibTeX reads as commands', () => {
    const facts = datasetFacts(entry, 'https://stats.example', {
      ...publishing,
      licence: { ...publishing.licence, name: 'A & B {x} ~ ^ \\ $' },
    });
    expect(bibtexOf(facts)).toContain('A \\& B \\{x\\} \\~{} \\^{} \\textbackslash{} \\$');
  });
});

describe('the day a file was retrieved, and an "as of" day', () => {
  // 22:30 UTC on 6 December is 05:30 on 7 December in Thailand, where the data is published and read: both
  // languages name the same day, Thailand's.
  const lateInTheUtcDay = new Date('2026-12-06T22:30:00Z');

  it('is the same day in the Thai and the English citation of a file', () => {
    const facts = datasetFacts(entry, 'https://stats.example', publishing, { modified: new Date('2025-03-01') });
    const cited = fileCitation(facts, {
      url: 'https://stats.example/datasets/ODS_COUNT_TEACHER_BY_YEAR.csv',
      format: 'CSV',
      at: lateInTheUtcDay,
    });
    expect(cited.th).toContain('สืบค้นเมื่อ 7 ธันวาคม 2569 จาก');
    expect(cited.en).toContain('Retrieved 2026-12-07, from');
    // The year cited is Thailand's too: a change at 03:00 on New Year's Day there is that year's.
    const newYear = datasetFacts(entry, 'https://stats.example', publishing, {
      modified: new Date('2024-12-31T20:00:00Z'),
    });
    expect(datasetCitation(newYear).text).toContain('Ministry of Education. (2025).');
    expect(datasetCitation(newYear).textTh).toContain('กระทรวงศึกษาธิการ. (2568).');
  });

  it("is Thailand's day for a dataset without a year field", () => {
    const period = { kind: 'AS_OF', date: lateInTheUtcDay } as const;
    expect(periodBounds(period)).toEqual(['2026-12-07', '2026-12-07']);
    expect(describePeriod(period).en).toBe('No year field: as of 2026-12-07');
    expect(describePeriod(period).th).toBe('ไม่มีเขตข้อมูลปี: ข้อมูล ณ วันที่ 2026-12-07');
    // Early in the UTC day it is the same day in both.
    expect(periodBounds({ kind: 'AS_OF', date: new Date('2026-12-06T03:00:00Z') })).toEqual([
      '2026-12-06',
      '2026-12-06',
    ]);
  });
});
