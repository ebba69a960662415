import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import {
  FIELD_NAMES,
  MAX_REPORTED_DRIFT_KEYS,
  SHAPES_FILE,
  ShapeDriftWatch,
  fallbackName,
  nameKeys,
  type RecordShape,
} from '../../src/records/index.js';
import { runShapes } from '../../src/cli/shapes-commands.js';
import type { DataRecord } from '../../src/simulator/datasets.js';
import { graphql } from '../gql/index.js';
import { TEST_UPSTREAM_KEY, useListeningStack } from '../helpers/stack.js';

const DRIFTING = 'ODS_COUNT_TEACHER_BY_YEAR';
const RETYPED = [{ key: 'FEMALE', expected: 'number', actual: 'string' }];

const TypedTeachers = graphql(`
  query TypedTeachersDrift($first: Int) {
    typedRecords {
      odsCountTeacherByYear {
        rows(first: $first, orderBy: [{ field: academicYear }]) {
          totalCount
          nodes {
            academicYear
            male
            female
            total
            node
          }
        }
      }
    }
  }
`);

const UntypedTeachers = graphql(`
  query UntypedTeachersDrift {
    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      records(first: 1) {
        totalCount
      }
    }
  }
`);

function output(): { text: string; write(chunk: string): void } {
  return {
    text: '',
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

describe('npm run shapes', () => {
  it('regenerated from the simulator, equals the committed schema/shapes.json (CI fails on a stale file)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'teg-shapes-')), 'shapes.json');
    const [stdout, stderr] = [output(), output()];
    expect(await runShapes([], { env: {}, stdout, stderr, file })).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(SHAPES_FILE, 'utf8'));
    // Every key the simulator serves is named by a person: the command reports none as unmapped.
    expect(stderr.text).not.toContain('has no name');
    const [checkOut, checkErr] = [output(), output()];
    expect(await runShapes(['--check'], { env: {}, stdout: checkOut, stderr: checkErr })).toBe(0);
    expect(checkOut.text).toContain('the upstream matches');
  });

  it('refuses unknown options with its usage and status 2', async () => {
    const [stdout, stderr] = [output(), output()];
    expect(await runShapes(['--chek'], { env: {}, stdout, stderr })).toBe(2);
    expect(stderr.text).toContain('Usage: npm run shapes');
  });
});

describe('GraphQL names for upstream keys', () => {
  it('gives every Thai key of the map a readable camelCase name', () => {
    const thai = Object.entries(FIELD_NAMES).filter(([key]) => /[\u0E00-\u0E7F]/.test(key));
    expect(thai.length).toBeGreaterThan(20);
    for (const [key, name] of thai) {
      expect(name, key).toMatch(/^[a-z]+(?:[A-Z][a-z]+)*$/);
      expect(nameKeys([key]).names.get(key)).toBe(name);
    }
    expect(nameKeys(['ปีการศึกษา', 'จำนวนนักเรียน', 'ชาย', 'หญิง', 'รวม']).unmapped).toEqual([]);
  });

  it('names an unmapped key deterministically in ASCII, and reports it', () => {
    const named = nameKeys(['หมายเหตุ', 'GRAND_TOTAL', 'ยอด 2', '2ND_TERM']);
    expect(named.unmapped).toEqual(['2ND_TERM', 'GRAND_TOTAL', 'ยอด 2', 'หมายเหตุ']);
    expect(named.names.get('GRAND_TOTAL')).toBe('grandTotal');
    expect(named.names.get('2ND_TERM')).toBe('field2ndTerm');
    expect(named.names.get('หมายเหตุ')).toMatch(/^field[0-9a-f]{8}$/);
    expect(named.names.get('ยอด 2')).toMatch(/^field2[0-9a-f]{8}$/);
    expect(fallbackName('หมายเหตุ')).toBe(named.names.get('หมายเหตุ'));
    expect(fallbackName('หมายเหตุ')).not.toBe(fallbackName('หมายเหตุอื่น'));
  });

  it("keeps a fallback name short whatever the key: its start and the key's hash", () => {
    const name = fallbackName(`SCHOOL_${'X'.repeat(5_000)}`);
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^schoolXx+[0-9a-f]{8}$/);
    expect(fallbackName(`SCHOOL_${'X'.repeat(5_001)}`)).not.toBe(name);
  });

  it('resolves collisions by key order, whatever order the records list keys in, and keeps `node` and `count` for the row and the group', () => {
    const one = nameKeys(['ปีการศึกษา', 'ACADEMIC_YEAR', 'NODE', 'academic-year', 'COUNT']);
    const other = nameKeys(['academic-year', 'COUNT', 'NODE', 'ACADEMIC_YEAR', 'ปีการศึกษา']);
    expect([...one.names]).toEqual([...other.names]);
    expect(Object.fromEntries(one.names)).toEqual({
      ACADEMIC_YEAR: 'academicYear',
      COUNT: 'count2',
      NODE: 'node2',
      'academic-year': 'academicYear2',
      ปีการศึกษา: 'academicYear3',
    });
  });
});

describe('drift reports are bounded whatever the upstream sends', () => {
  it('lists at most 50 keys of at most 256 characters, and says how many it left out', () => {
    const lines: string[] = [];
    const watch = new ShapeDriftWatch(pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }));
    const expected: RecordShape = { recordsPath: 'data', keys: [{ key: 'TOTAL', type: 'number', nullable: false }] };
    const keys = Array.from({ length: 10_000 }, (_, i) => ({
      key: `K${String(i).padStart(5, '0')}${'ก'.repeat(1_000)}`,
      type: 'string' as const,
      nullable: false,
    }));
    const drift = watch.check('ODS_COUNT_TEACHER_BY_YEAR', 'v1', expected, () => ({ recordsPath: 'data', keys }));
    expect(drift?.vanished).toEqual(['TOTAL']);
    expect(drift?.added).toHaveLength(MAX_REPORTED_DRIFT_KEYS);
    expect(drift?.added.every((key) => key.length === 257 && key.endsWith('…'))).toBe(true);
    expect(drift?.omitted).toBe(10_000 - MAX_REPORTED_DRIFT_KEYS);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.length).toBeLessThan(20_000);
    // The same payload version again, and a new version with the same keys: no new line.
    watch.check('ODS_COUNT_TEACHER_BY_YEAR', 'v1', expected, () => ({ recordsPath: 'data', keys }));
    watch.check('ODS_COUNT_TEACHER_BY_YEAR', 'v2', expected, () => ({ recordsPath: 'data', keys }));
    expect(lines).toHaveLength(1);
  });
});

describe('a simulated upstream shape change: a key renamed, a key added, a key retyped', () => {
  // Payloads stay fresh, so answers are stored by the response cache and served from it.
  const started = useListeningStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 } });

  beforeAll(() => {
    const { simulator } = started().stack;
    const body = JSON.parse(simulator.datasetBody(DRIFTING).toString('utf8')) as {
      data: Record<string, string | number>[];
    };
    const revised = body.data.map(({ TOTAL, ...rest }): DataRecord => ({
      ...rest,
      FEMALE: 'ไม่ระบุ',
      GRAND_TOTAL: TOTAL ?? 0,
      หมายเหตุ: 'ปรับปรุง',
    }));
    simulator.publish(DRIFTING, revised);
  });

  const post = async (
    query: string,
    variables: Record<string, unknown>,
  ): Promise<{ text: string; headers: Headers }> => {
    const response = await fetch(`${started().origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query, variables }),
    });
    return { text: await response.text(), headers: response.headers };
  };
  const typedQuery = (): string => print(TypedTeachers);

  it('answers null for the vanished key, the new keys through `node`, and says so in extensions.shapeDrift', async () => {
    const { stack } = started();
    const { body } = await stack.execute(TypedTeachers, { first: 2 });
    expect(body.errors).toBeUndefined();
    const rows = body.data?.typedRecords.odsCountTeacherByYear.rows;
    expect(rows?.totalCount).toBe(8);
    expect(rows?.nodes.map((node) => [node.total, node.female])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(rows?.nodes[0]?.male).toBeGreaterThan(0);
    expect(rows?.nodes[0]?.node).toMatchObject({ ACADEMIC_YEAR: '2560', หมายเหตุ: 'ปรับปรุง' });
    expect(rows?.nodes[0]?.node['GRAND_TOTAL']).toBeGreaterThan(0);
    expect(body.extensions).toEqual({
      shapeDrift: [{ dataset: DRIFTING, vanished: ['TOTAL'], added: ['GRAND_TOTAL', 'หมายเหตุ'], retyped: RETYPED }],
    });
  });

  it('keeps the extension in an answer served from the response cache', async () => {
    const variables = { first: 3 };
    const miss = await post(typedQuery(), variables);
    // The second miss stores it (RESPONSE_CACHE_MIN_USES 2); the third request is a hit.
    expect((await post(typedQuery(), variables)).text).toBe(miss.text);
    const hit = await post(typedQuery(), variables);
    const hits = await started().stack.metrics.registry.getSingleMetricAsString('graphql_response_cache_total');
    expect(hits).toMatch(/result="hit"} [1-9]/);
    expect(hit.text).toBe(miss.text);
    expect((JSON.parse(hit.text) as { extensions?: unknown }).extensions).toEqual({
      shapeDrift: [{ dataset: DRIFTING, vanished: ['TOTAL'], added: ['GRAND_TOTAL', 'หมายเหตุ'], retyped: RETYPED }],
    });
  });

  it("leaves the untyped fields' answers as they were: no extension", async () => {
    const { body } = await started().stack.execute(UntypedTeachers);
    expect(body.errors).toBeUndefined();
    expect(body.extensions).toBeUndefined();
  });

  it('counts drift in a metric and logs the keys that moved once for the change', async () => {
    const { stack } = started();
    const counted = async (): Promise<number> => {
      const metric = await stack.metrics.registry.getSingleMetricAsString('records_shape_drift_total');
      return Number(/records_shape_drift_total\{dataset="ODS_COUNT_TEACHER_BY_YEAR"} (\d+)/.exec(metric)?.[1] ?? 0);
    };
    const before = await counted();
    expect(before).toBeGreaterThan(0);
    for (const first of [4, 5]) await stack.execute(TypedTeachers, { first });
    expect(await counted()).toBe(before + 2);
    const warnings = stack.logLines.filter(
      (line) => line['dataset'] === DRIFTING && String(line['msg']).includes('no longer match schema/shapes.json'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ vanished: ['TOTAL'], added: ['GRAND_TOTAL', 'หมายเหตุ'], retyped: RETYPED });
  });

  it('fails `npm run shapes -- --check` against that upstream with a readable diff', async () => {
    const { simulator } = started().stack;
    const [stdout, stderr] = [output(), output()];
    const env = { UPSTREAM_BASE_URL: simulator.url, UPSTREAM_API_KEY: TEST_UPSTREAM_KEY };
    expect(await runShapes(['--check'], { env, stdout, stderr })).toBe(1);
    expect(stdout.text).toContain(`- ${DRIFTING}: "TOTAL" → total: number (no record has this key any more)`);
    expect(stdout.text).toContain(`+ ${DRIFTING}: "GRAND_TOTAL" → grandTotal: number (a new key)`);
    expect(stdout.text).toMatch(/\+ ODS_COUNT_TEACHER_BY_YEAR: "หมายเหตุ" → field[0-9a-f]{8}: string \(a new key\)/);
    expect(stderr.text).toContain(`${DRIFTING}: the key "หมายเหตุ" has no name in src/records/field-names.ts`);
    expect(stdout.text).toContain(`~ ${DRIFTING}: "FEMALE" → female: number  became  "FEMALE" → female: string`);
    // Nothing else moved.
    expect(stdout.text.split('\n').filter((line) => /^ {2}[-+~]/.test(line))).toHaveLength(4);
  });
});
