import { describe, expect, it } from 'vitest';
import { DATASET_CODES, type DatasetCode } from '../../src/catalogue.js';
import type { JsonObject } from '../../src/json.js';
import { recordsView, type RecordsPageArgs, type RecordsView } from '../../src/records/index.js';
import { buildWorld } from '../../src/simulator/world.js';
import { datasetRecords } from '../../src/simulator/datasets.js';
import { DEFAULT_SEED } from '../../src/simulator/prng.js';
import { envelope } from '../../src/simulator/store.js';

// The bodies exactly as the simulated upstream serves them, parsed as the upstream client parses them.
const world = buildWorld(DEFAULT_SEED);
const served = new Map(
  DATASET_CODES.map((code) => {
    const body = envelope(datasetRecords(code, world));
    return [code, { payload: JSON.parse(body.bytes.toString('utf8')) as JsonObject, etag: body.etag }] as const;
  }),
);

function viewOf(code: DatasetCode): { view: RecordsView; records: JsonObject[] } {
  const body = served.get(code);
  if (!body) throw new Error(`no body for ${code}`);
  return { view: recordsView(body.payload, body.etag), records: body.payload.data as JsonObject[] };
}

function total(records: readonly JsonObject[], field: string): number {
  return records.reduce((sum, record) => sum + Number(record[field]), 0);
}

describe('the simulated upstream datasets', () => {
  it.each(DATASET_CODES)('%s: finds the records under data and infers their fields', (code) => {
    const { view, records } = viewOf(code);
    expect(view.recordsPath).toBe('data');
    expect(view.size).toBe(records.length);
    const fields = view.fields();
    expect(fields.map((f) => f.name)).toEqual(Object.keys(records[0] ?? {}));
    for (const field of fields) {
      expect(field.nullable).toBe(false);
      expect(field.types).toHaveLength(1);
    }
    const year = fields.find((f) => f.name === 'ACADEMIC_YEAR');
    if (year) expect(year).toMatchObject({ types: ['string'], numericStrings: true });
  });

  it('gives each dataset its own fingerprint', () => {
    const fingerprints = DATASET_CODES.map((code) => viewOf(code).view.fingerprint());
    expect(new Set(fingerprints).size).toBe(DATASET_CODES.length);
  });

  it('sums OVEC staff by province back to the total', () => {
    const { view, records } = viewOf('ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER');
    const rows = view.aggregate({ groupBy: ['PROVINCE_NAME'], sum: ['TEACHER_COUNT'] });
    expect(rows.length).toBe(new Set(records.map((r) => r.PROVINCE_NAME)).size);
    expect(total(rows, 'TEACHER_COUNT')).toBe(total(records, 'TEACHER_COUNT'));
    expect(total(rows, 'count')).toBe(records.length);
    for (const row of rows) {
      const inProvince = records.filter((r) => r.PROVINCE_NAME === row.PROVINCE_NAME);
      expect(row.TEACHER_COUNT).toBe(total(inProvince, 'TEACHER_COUNT'));
    }
  });

  it('finds the teachers by year equal to the summary per year (a relation across datasets)', () => {
    const byYear = viewOf('ODS_COUNT_TEACHER_BY_YEAR').view;
    const summary = viewOf('ZVIEW_CPS_SUMMARY_DATA').view;
    const teachers = summary.aggregate({ groupBy: ['ACADEMIC_YEAR'], sum: ['TEACHER_COUNT'] });
    const years = byYear.page({ orderBy: [{ field: 'ACADEMIC_YEAR' }], select: ['ACADEMIC_YEAR', 'TOTAL'] });
    expect(teachers.map((row) => [row.ACADEMIC_YEAR, row.TEACHER_COUNT])).toEqual(
      years.edges.map(({ node }) => [node.ACADEMIC_YEAR, node.TOTAL]),
    );
    const where = [{ field: 'ACADEMIC_YEAR', eq: 2560 }];
    expect(summary.count(where)).toBe(8);
    const in2560 = summary.aggregate({ groupBy: [], sum: ['TEACHER_COUNT'], where });
    expect(in2560).toEqual([{ TEACHER_COUNT: 933_581, count: 8 }]);
  });

  it('pages through the largest dataset with no duplicate and no gap', () => {
    const { view, records } = viewOf('ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST');
    const args: RecordsPageArgs = {
      where: [{ field: 'MALE', gte: 1 }],
      orderBy: [{ field: 'PROVINCE_NAME' }, { field: 'TOTAL', direction: 'DESC' }],
    };
    const seen: JsonObject[] = [];
    let after: string | null = null;
    do {
      const page = view.page({ ...args, first: 500, after });
      seen.push(...page.edges.map((edge) => edge.node));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after !== null);
    const wanted = records.filter((r) => Number(r.MALE) >= 1);
    // Nodes are the payload's own record objects, so identity tells duplicates and gaps apart.
    const wantedSet = new Set(wanted);
    expect(seen).toHaveLength(wanted.length);
    expect(new Set(seen).size).toBe(wanted.length);
    expect(seen.every((node) => wantedSet.has(node))).toBe(true);
    const collator = new Intl.Collator('th', { numeric: true });
    const outOfOrder = seen.findIndex((b, i) => {
      const a = seen[i - 1];
      if (a === undefined) return false;
      const byProvince = collator.compare(String(a.PROVINCE_NAME), String(b.PROVINCE_NAME));
      return byProvince > 0 || (byProvince === 0 && Number(a.TOTAL) < Number(b.TOTAL));
    });
    expect(outOfOrder).toBe(-1);
  });
});
