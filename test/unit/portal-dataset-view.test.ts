import { describe, expect, it } from 'vitest';
import {
  defaultGroupBy,
  defaultMeasure,
  dimensions,
  isYear,
  measures,
  ROW_COUNT,
  type Column,
} from '../../src/portal/assets/dataset/columns.js';
import { recordsQuery } from '../../src/portal/assets/dataset/snippets.js';
import { SNIPPET_LANGUAGES, snippet } from '../../src/portal/assets/request-code.js';
import {
  downloadPath,
  readView,
  recordFilters,
  recordOrder,
  viewParams,
} from '../../src/portal/assets/dataset/view.js';

// The dataset page's choices, made from what Dataset.fields answers (never the simulator's key names): run here on
// columns as the simulator's records give them and as an upstream with Thai keys and numbers as text gives them.

const column = (name: string, facts: Partial<Column> = {}): Column => ({
  name,
  types: ['STRING'],
  numericStrings: false,
  distinctCount: 10,
  examples: [],
  min: null,
  max: null,
  nullable: false,
  ...facts,
});
const year = (name: string, asText: boolean): Column =>
  column(name, {
    types: asText ? ['STRING'] : ['NUMBER'],
    numericStrings: asText,
    distinctCount: 8,
    min: 2559,
    max: 2566,
  });
const count = (name: string, asText: boolean): Column =>
  column(name, { types: asText ? ['STRING'] : ['NUMBER'], numericStrings: asText, min: 0, max: 90_000 });

describe('the columns a dataset page charts and filters by', () => {
  it('finds the year, the measures and the categories whatever the keys are', () => {
    const simulator = [year('ACADEMIC_YEAR', true), column('JURISDICTION_NAME'), count('TOTAL', false)];
    const thai = [year('ปีการศึกษา', false), column('สังกัด'), count('total', true)];
    for (const columns of [simulator, thai]) {
      expect(columns.filter(isYear).map((c) => c.name)).toEqual([columns[0]?.name]);
      expect(measures(columns).map((c) => c.name)).toEqual([columns[2]?.name]);
      expect(dimensions(columns).map((c) => c.name)).toEqual([columns[0]?.name, columns[1]?.name]);
    }
  });

  it('never takes a code for a quantity', () => {
    const columns = [column('SCHOOL_CODE', { numericStrings: true, min: 10_000, max: 99_999 }), count('TOTAL', false)];
    expect(measures(columns).map((c) => c.name)).toEqual(['TOTAL']);
  });

  it('charts schools, not classrooms, on the school statistics: one record per school counts schools', () => {
    const columns = [
      count('CLASSROOM_TOTAL', false),
      column('SCHOOL_CODE', { distinctCount: 500 }),
      column('PROVINCE_NAME', { distinctCount: 77 }),
      count('STUDENT_TOTAL', false),
      count('TEACHER_TOTAL', false),
    ];
    expect(defaultMeasure(columns, 500, 'SCHOOLS')).toBe(ROW_COUNT);
    // The same keys in another upstream's spelling, the code and the counts written as numbers in text.
    const other = columns.map((c) => ({
      ...c,
      name: c.name.toLowerCase(),
      types: ['STRING'],
      numericStrings: c.types[0] === 'NUMBER' || c.name === 'SCHOOL_CODE',
    }));
    expect(defaultMeasure(other, 500, 'SCHOOLS')).toBe(ROW_COUNT);
  });

  it('takes a total, or the count its group names, before the first number', () => {
    expect(defaultMeasure([count('FEMALE', false), count('MALE', false), count('TOTAL', false)], 10, 'TEACHERS')).toBe(
      'TOTAL',
    );
    expect(
      defaultMeasure(
        [count('CLASSROOM_COUNT', false), count('SCHOOL_COUNT', false), count('STUDENT_COUNT', false)],
        10,
        'STUDENTS',
      ),
    ).toBe('STUDENT_COUNT');
    expect(defaultMeasure([count('teacher_count', true)], 10, 'STUDENTS')).toBe('teacher_count');
  });

  it('groups by the category the code names, by year for a by-year dataset, else the smallest category', () => {
    const jurisdiction = [year('ACADEMIC_YEAR', true), column('JURISDICTION_CODE'), column('JURISDICTION_NAME')];
    expect(defaultGroupBy(jurisdiction, 'ODS_COUNT_SCHOOL_BY_JURISDICTION')).toBe('JURISDICTION_NAME');
    expect(defaultGroupBy([year('ACADEMIC_YEAR', true), count('TOTAL', false)], 'ODS_COUNT_TEACHER_BY_YEAR')).toBe(
      'ACADEMIC_YEAR',
    );
    const thai = [
      year('ปีการศึกษา', false),
      column('จังหวัด', { distinctCount: 77 }),
      column('สังกัด', { distinctCount: 8 }),
    ];
    expect(defaultGroupBy(thai, 'ODS_COUNT_SCHOOL_BY_JURISDICTION')).toBe('สังกัด');
  });
});

describe('the view in the address, and the download contract', () => {
  it('reads and writes filters, order and the chart', () => {
    const params = new URLSearchParams(
      'where.จังหวัด=เชียงใหม่&where.ปีการศึกษา=2566&where.ปีการศึกษา=2565&sort=-total&measure=*&by=สังกัด&compare=ปีการศึกษา',
    );
    const view = readView(params);
    expect([...view.where]).toEqual([
      ['จังหวัด', ['เชียงใหม่']],
      ['ปีการศึกษา', ['2566', '2565']],
    ]);
    expect(view.sort).toEqual({ field: 'total', descending: true });
    expect(view.measure).toBe(ROW_COUNT);
    expect(recordFilters(view)).toEqual([
      { field: 'จังหวัด', eq: 'เชียงใหม่' },
      { field: 'ปีการศึกษา', in: ['2566', '2565'] },
    ]);
    expect(recordOrder(view)).toEqual([{ field: 'total', direction: 'DESC' }]);
    expect(readView(viewParams(view))).toEqual(view);
  });

  it('links the filtered rows as /datasets/<CODE>.csv?where.<column>=<value>&sort=-<column>', () => {
    const view = readView(
      new URLSearchParams('where.PROVINCE_NAME=เชียงใหม่&sort=-TOTAL&measure=TOTAL&by=DISTRICT_NAME'),
    );
    const href = downloadPath('ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST', 'csv', view);
    const url = new URL(href, 'http://portal.test');
    expect(url.pathname).toBe('/datasets/ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST.csv');
    expect([...url.searchParams]).toEqual([
      ['where.PROVINCE_NAME', 'เชียงใหม่'],
      ['sort', '-TOTAL'],
    ]);
    for (const format of ['json', 'xlsx'] as const) {
      expect(downloadPath('V10_DUPWITH', format, readView(new URLSearchParams()))).toBe(
        `/datasets/V10_DUPWITH.${format}`,
      );
    }
  });
});

describe('the ready-to-run requests', () => {
  it('hold the real endpoint, the dataset and the filters in every language', () => {
    const query = recordsQuery('ODS_COUNT_TEACHER_BY_YEAR', 100);
    const variables = {
      where: [
        { field: "it's", eq: 'ครู $x' },
        { field: 'TAG', eq: '"#1' },
      ],
      orderBy: [],
    };
    const body = JSON.stringify({ query, variables });
    const request = { url: 'https://data.example.go.th/graphql', body, key: undefined };
    for (const [language] of SNIPPET_LANGUAGES) {
      const text = snippet(language, request);
      expect(text, language).toContain('https://data.example.go.th/graphql');
      expect(text, language).toContain('ODS_COUNT_TEACHER_BY_YEAR');
      expect(text, language).toContain('ครู');
    }
    // The shell's quoting survives a quote in the data; Kotlin's templates do not take the query's variables; a
    // `"#` in the data does not end Swift's raw string.
    expect(snippet('curl', request)).toContain(`it'\\''s`);
    expect(snippet('kotlin', request)).toContain("${'$'}where");
    expect(snippet('swift', request)).toContain(`Data(##"${body}"##.utf8)`);
  });
});
