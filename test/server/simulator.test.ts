import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  DATASETS,
  DATASET_CODES,
  SUMMARY_ENDPOINTS,
  datasetPath,
  summaryEndpointPath,
  type DatasetCode,
  type SummaryEndpointEntry,
} from '../../src/catalogue.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import {
  COLLEGE_STAFF_YEAR,
  GEO_GRADUATES_YEAR,
  GEO_GRADUATE_LEVELS,
  generateDataset,
  type DataRecord,
} from '../../src/simulator/datasets.js';
import { generateSummary } from '../../src/simulator/summaries.js';
import { FilterInputError } from '../../src/simulator/filter.js';
import { CHECK_STATUSES, EDU_LEVELS, JURISDICTIONS, YEARS, schoolSizeOf } from '../../src/simulator/labels.js';
import { DISABLED_STUDENTS_RANGE, STUDENTS_BY_YEAR } from '../../src/simulator/magnitudes.js';
import { DEFAULT_SEED } from '../../src/simulator/prng.js';
import { simulatorSettingsFrom } from '../../src/simulator/env.js';

const API_KEY = 'test-simulator-key';

function endpoint(id: number): SummaryEndpointEntry {
  const found = SUMMARY_ENDPOINTS.find((e) => e.id === id);
  if (!found) throw new Error(`no endpoint ${id}`);
  return found;
}

interface Envelope {
  status: number;
  data: DataRecord[];
  total: number;
}

async function readEnvelope(response: Response): Promise<Envelope> {
  return (await response.json()) as Envelope;
}

/** POSTs to a summary endpoint with the test key, another key, or (null) none. */
function post(sim: Simulator, id: number, body: string | undefined, key: string | null = API_KEY): Promise<Response> {
  return fetch(`${sim.url}${summaryEndpointPath(endpoint(id))}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'api-key': key }) },
    ...(body === undefined ? {} : { body }),
  });
}

function sumBy(records: readonly DataRecord[], field: string, where: (r: DataRecord) => boolean = () => true): number {
  return records.filter(where).reduce((sum, r) => sum + Number(r[field]), 0);
}

function distinct(records: readonly DataRecord[], field: string): Set<string | number | undefined> {
  return new Set(records.map((r) => r[field]));
}

describe('simulated upstream over HTTP', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: API_KEY });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('listens on a loopback address without a trailing slash', () => {
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.caCertPem).toBeUndefined();
    expect(sim.apiKey).toBe(API_KEY);
  });

  it.each(DATASETS.map((d) => d.code))('GET %s answers the envelope with the bytes of datasetBody', async (code) => {
    const response = await fetch(`${sim.url}${datasetPath(code)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(sim.datasetBody(code))).toBe(true);
    const body = JSON.parse(bytes.toString('utf8')) as Envelope;
    expect(body.status).toBe(200);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.total).toBe(body.data.length);
  });

  it.each(SUMMARY_ENDPOINTS.map((e) => e.id))('POST summary %i needs the key', async (id) => {
    expect((await post(sim, id, '{}', null)).status).toBe(401);
    const wrong = await post(sim, id, '{}', 'wrong-key');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ status: 401 });
    const response = await post(sim, id, '{}');
    expect(response.status).toBe(200);
    const body = await readEnvelope(response);
    expect(body.total).toBe(body.data.length);
    expect(distinct(body.data, 'ACADEMIC_YEAR')).toEqual(new Set(YEARS));
  });

  it('POST with an ACADEMIC_YEAR body answers that year only; no body means every year', async () => {
    const one = await readEnvelope(await post(sim, 84, '{"ACADEMIC_YEAR":"2566"}'));
    expect(one.total).toBe(Object.keys(JURISDICTIONS).length);
    expect(one.data.every((r) => r.ACADEMIC_YEAR === '2566')).toBe(true);
    const all = await readEnvelope(await post(sim, 84, undefined));
    expect(all.total).toBe(Object.keys(JURISDICTIONS).length * YEARS.length);
    const none = await readEnvelope(await post(sim, 85, '{"ACADEMIC_YEAR":"2400"}'));
    expect(none).toEqual({ status: 200, data: [], total: 0 });
  });

  it('POST with a body that is not a JSON object answers 400', async () => {
    expect((await post(sim, 83, '{"ACADEMIC_YEAR":')).status).toBe(400);
    expect((await post(sim, 83, '[1,2]')).status).toBe(400);
    expect((await post(sim, 83, '{"ACADEMIC_YEAR":{"a":1}}')).status).toBe(400);
  });

  it('answers 404 for unknown codes and paths, 405 for the wrong method', async () => {
    for (const path of [
      '/services/v1/api/NO_SUCH_DATASET',
      '/services/v1/api/ods_count_teacher_by_year',
      '/services/api/ods_count_school_by_jurisdiction/84',
      '/services/api/ods_count_school_by_jurisdiction/99',
      '/',
    ]) {
      const response = await fetch(`${sim.url}${path}`, { method: path.includes('/services/api/') ? 'POST' : 'GET' });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ status: 404 });
    }
    const postDataset = await fetch(`${sim.url}${datasetPath('V10_DUPWITH')}`, { method: 'POST', body: '{}' });
    expect(postDataset.status).toBe(405);
    expect(postDataset.headers.get('allow')).toBe('GET, HEAD');
    const getSummary = await fetch(`${sim.url}${summaryEndpointPath(endpoint(85))}`);
    expect(getSummary.status).toBe(405);
  });

  it('filters GET by record keys: equality, repeated keys as any-of, unknown keys ignored', async () => {
    const path = `${sim.url}${datasetPath('ODS_COUNT_TEACHER_BY_YEAR')}`;
    const one = await readEnvelope(await fetch(`${path}?ACADEMIC_YEAR=2566`));
    expect(one.total).toBe(1);
    expect(one.data[0]?.ACADEMIC_YEAR).toBe('2566');
    const two = await readEnvelope(await fetch(`${path}?ACADEMIC_YEAR=2566&ACADEMIC_YEAR=2560`));
    expect(two.data.map((r) => r.ACADEMIC_YEAR)).toEqual(['2560', '2566']);
    const ignored = Buffer.from(await (await fetch(`${path}?page=2&format=json`)).arrayBuffer());
    expect(ignored.equals(sim.datasetBody('ODS_COUNT_TEACHER_BY_YEAR'))).toBe(true);

    const both = await readEnvelope(
      await fetch(
        `${sim.url}${datasetPath('ODS_COUNT_TEACHER_BY_JURISDICTION')}?ACADEMIC_YEAR=2565&JURISDICTION_CODE=BMA`,
      ),
    );
    expect(both.total).toBe(1);
    const thai = new URLSearchParams({ DISTRICT_NAME: 'พระนคร' });
    const bangkok = await readEnvelope(
      await fetch(`${sim.url}${datasetPath('ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST')}?${thai}`),
    );
    expect(bangkok.total).toBeGreaterThan(0);
    expect(bangkok.data.every((r) => r.DISTRICT_CODE === '1001')).toBe(true);
  });

  it('sends cache headers with a strong ETag and answers If-None-Match with 304', async () => {
    const url = `${sim.url}${datasetPath('ODS_COUNT_STUDENT_BY_MAJOR')}`;
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    expect(first.headers.get('last-modified')).toBe('Mon, 01 Jul 2024 00:00:00 GMT');

    const again = await fetch(url, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    expect((await fetch(url, { headers: { 'if-none-match': `"other", W/${etag ?? ''}` } })).status).toBe(304);

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(Number(head.headers.get('content-length'))).toBe(sim.datasetBody('ODS_COUNT_STUDENT_BY_MAJOR').length);

    const stale = await fetch(url, { headers: { 'if-none-match': '"not-the-etag"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const filtered = await fetch(`${url}?ACADEMIC_YEAR=2566`);
    await filtered.arrayBuffer();
    expect(filtered.headers.get('etag')).not.toBe(etag);
  });

  it('records every request in order and counts them per route', async () => {
    sim.resetRequests();
    await (await fetch(`${sim.url}${datasetPath('OPENDATA_MIS_STAT_CLASSROOM')}?ACADEMIC_YEAR=2561`)).arrayBuffer();
    await (await post(sim, 86, '{"ACADEMIC_YEAR":"2562"}')).arrayBuffer();
    await (await fetch(`${sim.url}/nowhere`)).arrayBuffer();
    expect(sim.requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', datasetPath('OPENDATA_MIS_STAT_CLASSROOM'), 'ACADEMIC_YEAR=2561'],
      ['POST', summaryEndpointPath(endpoint(86)), ''],
      ['GET', '/nowhere', ''],
    ]);
    expect(sim.requests[1]?.body).toBe('{"ACADEMIC_YEAR":"2562"}');
    expect(sim.requests[1]?.headers['api-key']).toBe(API_KEY);
    expect(sim.requestCount()).toBe(3);
    expect(sim.requestCount('*')).toBe(3);
    expect(sim.requestCount('OPENDATA_MIS_STAT_CLASSROOM')).toBe(1);
    expect(sim.requestCount(86)).toBe(1);
    expect(sim.requestCount(83)).toBe(0);
    sim.resetRequests();
    expect(sim.requests).toEqual([]);
  });
});

describe('fault injection', () => {
  let sim: Simulator;
  const code: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';
  const get = (c: DatasetCode = code, init?: RequestInit): Promise<Response> =>
    fetch(`${sim.url}${datasetPath(c)}`, init);

  beforeAll(async () => {
    sim = await startSimulator({ apiKey: API_KEY });
  });
  afterEach(() => {
    sim.clearFaults();
    sim.resetRequests();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('delays the answer by latencyMs', async () => {
    sim.setFault(code, { latencyMs: 150 });
    // Node runs timers in the order they fall due: one of 140 ms started before the request always fires before
    // the simulator's 150 ms, started when the request arrives, lets the answer go.
    const seen: string[] = [];
    const shorter = new Promise<void>((resolve) => {
      setTimeout(() => {
        seen.push('140 ms');
        resolve();
      }, 140);
    });
    const response = await get();
    seen.push('answer');
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await shorter;
    expect(seen).toEqual(['140 ms', 'answer']);
  });

  it('holds the answer until the `until` promise settles', async () => {
    let release!: () => void;
    sim.setFault(code, { until: new Promise<void>((resolve) => (release = resolve)), status: 503 });
    const response = get();
    await sim.whenReceived(1, code);
    expect(sim.requests[0]?.status).toBeUndefined();
    release();
    expect((await response).status).toBe(503);
    expect(sim.requests[0]?.status).toBe(503);
  });

  it('answers with the status, a JSON error body and Retry-After', async () => {
    sim.setFault('*', { status: 503, retryAfterS: 7 });
    const response = await post(sim, 84, '{}');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toMatchObject({ status: 503 });
  });

  it('answers 200 with a body that is not JSON', async () => {
    sim.setFault(code, { malformedBody: true });
    const response = await get();
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow(SyntaxError);
  });

  it('hangs: the client abort signal fires and the request was received', async () => {
    sim.setFault(85, { hang: true });
    const request = fetch(`${sim.url}${summaryEndpointPath(endpoint(85))}`, {
      method: 'POST',
      headers: { 'api-key': API_KEY },
      body: '{}',
      signal: AbortSignal.timeout(200),
    });
    await expect(request).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(sim.requestCount(85)).toBe(1);
  });

  it('clears itself after `times` requests', async () => {
    sim.setFault(code, { status: 500, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await get();
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([500, 500, 200]);
  });

  it("prefers a route's own fault over '*'", async () => {
    sim.setFault('*', { status: 502 });
    sim.setFault(code, { latencyMs: 1 });
    const own = await get();
    expect(own.status).toBe(200);
    await own.arrayBuffer();
    const other = await get('V10_DUPWITH');
    expect(other.status).toBe(502);
    await other.arrayBuffer();
    sim.clearFaults();
    const cleared = await get('V10_DUPWITH');
    expect(cleared.status).toBe(200);
    await cleared.arrayBuffer();
  });

  it('refuses a fault that cannot be played', () => {
    expect(() => sim.setFault(code, { status: 99 })).toThrow(RangeError);
    expect(() => sim.setFault(code, { times: 0 })).toThrow(RangeError);
  });

  it('closes promptly while a request hangs', async () => {
    const other = await startSimulator();
    other.setFault('*', { hang: true });
    const pending = fetch(`${other.url}${datasetPath(code)}`).catch((error: unknown) => error);
    await other.whenReceived(1);
    // A request that never gets an answer does not keep close() waiting: it ends the connection instead.
    await other.close();
    expect(other.requests[0]?.status).toBeUndefined();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('HTTPS', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ tls: true, apiKey: API_KEY });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('serves with a fresh self-signed certificate that a client trusts through ca', async () => {
    expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.caCertPem).toContain('BEGIN CERTIFICATE');
    const agent = new Agent({ connect: { ca: sim.caCertPem } });
    try {
      const response = await undiciFetch(`${sim.url}${datasetPath('ZVIEW_CPS_SUMMARY_DATA')}`, { dispatcher: agent });
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(sim.datasetBody('ZVIEW_CPS_SUMMARY_DATA'))).toBe(true);
      const localhost = sim.url.replace('127.0.0.1', 'localhost');
      const summary = await undiciFetch(`${localhost}${summaryEndpointPath(endpoint(83))}`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'api-key': API_KEY },
        body: '{"ACADEMIC_YEAR":"2567"}',
      });
      expect(summary.status).toBe(200);
      await summary.arrayBuffer();
    } finally {
      await agent.close();
    }
  });

  it('is refused by a client that does not trust the certificate', async () => {
    const agent = new Agent();
    try {
      await expect(
        undiciFetch(`${sim.url}${datasetPath('ZVIEW_CPS_SUMMARY_DATA')}`, { dispatcher: agent }),
      ).rejects.toThrow();
    } finally {
      await agent.close();
    }
  });
});

describe('determinism', () => {
  it('serves identical bytes for the same seed and different bytes for another seed', async () => {
    const [a, b, c] = await Promise.all([
      startSimulator({ seed: 11 }),
      startSimulator({ seed: 11 }),
      startSimulator({ seed: 12 }),
    ]);
    try {
      for (const code of DATASET_CODES) {
        expect(a.datasetBody(code).equals(b.datasetBody(code)), code).toBe(true);
        expect(a.datasetBody(code).equals(c.datasetBody(code)), code).toBe(false);
      }
      const code: DatasetCode = 'ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST';
      const [fromA, fromB] = await Promise.all(
        [a, b].map(async (sim) => Buffer.from(await (await fetch(`${sim.url}${datasetPath(code)}`)).arrayBuffer())),
      );
      expect(fromA?.equals(fromB ?? Buffer.alloc(0))).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe.each([DEFAULT_SEED, 7])('data invariants (seed %i)', (seed) => {
  const data = Object.fromEntries(
    DATASET_CODES.map((code) => [code, generateDataset(code, seed) as DataRecord[]]),
  ) as Record<DatasetCode, DataRecord[]>;
  const summary = (id: number): DataRecord[] => generateSummary(id, {}, seed);
  const key = (r: DataRecord, ...fields: string[]): string => fields.map((f) => String(r[f])).join('|');
  const byKey = (records: readonly DataRecord[], ...fields: string[]): Map<string, DataRecord> =>
    new Map(records.map((r) => [key(r, ...fields), r]));

  it('MALE + FEMALE = TOTAL in every record of every dataset and summary', () => {
    const all = [...Object.values(data), ...SUMMARY_ENDPOINTS.map((e) => summary(e.id))].flat();
    const gendered = all.filter((r) => 'TOTAL' in r);
    expect(gendered.length).toBeGreaterThan(10_000);
    // Checked in plain code, then asserted once: an expect per record would dominate the run time.
    expect(gendered.filter((r) => Number(r.MALE) + Number(r.FEMALE) !== r.TOTAL)).toEqual([]);
    const counts = all.flatMap((r) => Object.values(r).filter((v) => typeof v === 'number'));
    expect(counts.filter((v) => !Number.isInteger(v) || v < 0)).toEqual([]);
  });

  it('uses academic years 2560 to 2567, all of them in the yearly datasets', () => {
    const years = new Set<unknown>(YEARS);
    for (const code of DATASET_CODES) {
      expect(
        data[code].filter((r) => 'ACADEMIC_YEAR' in r && !years.has(r.ACADEMIC_YEAR)),
        code,
      ).toEqual([]);
    }
    const yearly: DatasetCode[] = [
      'ODS_COUNT_TEACHER_BY_YEAR',
      'ODS_COUNT_STUDENT_BY_MAJOR',
      'ODS_COUNT_SCHOOL_BY_JURISDICTION',
      'ODS_COUNT_TEACHER_BY_JURISDICTION',
      'ODS_COUNT_GRADUATE_BY_YEAR',
      'V10_DUPWITH',
      'ZVIEW_CPS_SUMMARY_DATA',
      'OPENDATA_MIS_STAT_CLASSROOM',
      'OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER',
    ];
    for (const code of yearly) expect(distinct(data[code], 'ACADEMIC_YEAR'), code).toEqual(new Set(YEARS));
    expect(distinct(data.ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST, 'ACADEMIC_YEAR')).toEqual(
      new Set([GEO_GRADUATES_YEAR]),
    );
  });

  it('teachers: dataset 1 = sum of dataset 4 per year = summary 84; ZVIEW agrees', () => {
    const byJurisdiction = data.ODS_COUNT_TEACHER_BY_JURISDICTION;
    expect(summary(84)).toEqual(byJurisdiction);
    for (const year of data.ODS_COUNT_TEACHER_BY_YEAR) {
      const inYear = (r: DataRecord): boolean => r.ACADEMIC_YEAR === year.ACADEMIC_YEAR;
      for (const field of ['MALE', 'FEMALE', 'TOTAL']) expect(sumBy(byJurisdiction, field, inYear)).toBe(year[field]);
    }
    expect(data.ODS_COUNT_TEACHER_BY_YEAR[0]).toMatchObject({ ACADEMIC_YEAR: '2560', TOTAL: 933_581 });
    const teachers = byKey(byJurisdiction, 'ACADEMIC_YEAR', 'JURISDICTION_NAME');
    for (const r of data.ZVIEW_CPS_SUMMARY_DATA) {
      expect(r.TEACHER_COUNT).toBe(teachers.get(key(r, 'ACADEMIC_YEAR', 'JURISDICTION_NAME'))?.TOTAL);
    }
  });

  it('schools: dataset 3 = summary 83 = ZVIEW per year and jurisdiction, about 38k a year', () => {
    const schools = data.ODS_COUNT_SCHOOL_BY_JURISDICTION;
    expect(summary(83)).toEqual(schools);
    const byYearAndName = byKey(schools, 'ACADEMIC_YEAR', 'JURISDICTION_NAME');
    expect(data.ZVIEW_CPS_SUMMARY_DATA).toHaveLength(schools.length);
    for (const r of data.ZVIEW_CPS_SUMMARY_DATA) {
      expect(r.SCHOOL_COUNT).toBe(byYearAndName.get(key(r, 'ACADEMIC_YEAR', 'JURISDICTION_NAME'))?.SCHOOL_COUNT);
    }
    for (const year of YEARS) {
      const total = sumBy(schools, 'SCHOOL_COUNT', (r) => r.ACADEMIC_YEAR === year);
      expect(total).toBeGreaterThan(36_000);
      expect(total).toBeLessThan(40_000);
    }
    expect(schools.find((r) => r.ACADEMIC_YEAR === '2565' && r.JURISDICTION_CODE === 'OBEC')?.SCHOOL_COUNT).toBe(
      29_449,
    );
  });

  it('students: summary 85 adds up to the sourced totals and equals ZVIEW STUDENT_COUNT', () => {
    const students = summary(85);
    for (const year of YEARS) {
      const inYear = (r: DataRecord): boolean => r.ACADEMIC_YEAR === year;
      expect(sumBy(students, 'TOTAL', inYear)).toBe(STUDENTS_BY_YEAR[year].total);
      expect(sumBy(students, 'MALE', inYear)).toBe(STUDENTS_BY_YEAR[year].male);
    }
    expect(sumBy(students, 'TOTAL', (r) => r.ACADEMIC_YEAR === '2566')).toBe(12_098_803);
    const zview = byKey(data.ZVIEW_CPS_SUMMARY_DATA, 'ACADEMIC_YEAR', 'JURISDICTION_NAME');
    for (const r of students)
      expect(zview.get(key(r, 'ACADEMIC_YEAR', 'JURISDICTION_NAME'))?.STUDENT_COUNT).toBe(r.TOTAL);
  });

  it('graduates: summary 86 = dataset 5; dataset 7 adds up to dataset 5 for its year and levels', () => {
    const byYear = data.ODS_COUNT_GRADUATE_BY_YEAR;
    expect(summary(86)).toEqual(byYear.map(({ CLASS: _class, ...rest }) => rest));
    const byPlace = data.ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST;
    for (const level of GEO_GRADUATE_LEVELS) {
      const name = EDU_LEVELS[level].name;
      const national = byYear.find((r) => r.ACADEMIC_YEAR === GEO_GRADUATES_YEAR && r.EDU_LEVEL === name);
      for (const field of ['MALE', 'FEMALE', 'TOTAL']) {
        expect(sumBy(byPlace, field, (r) => r.EDU_LEVEL === name)).toBe(national?.[field]);
      }
    }
  });

  it('classrooms: dataset 11 per year = the sum of ZVIEW CLASSROOM_COUNT', () => {
    for (const year of YEARS) {
      const inYear = (r: DataRecord): boolean => r.ACADEMIC_YEAR === year;
      expect(sumBy(data.OPENDATA_MIS_STAT_CLASSROOM, 'CLASSROOM_COUNT', inYear)).toBe(
        sumBy(data.ZVIEW_CPS_SUMMARY_DATA, 'CLASSROOM_COUNT', inYear),
      );
    }
  });

  it('dataset 7 covers 77 provinces, 928 districts and every sub-district, and is the largest, 1 to 5 MB', () => {
    const byPlace = data.ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST;
    expect(distinct(byPlace, 'PROVINCE_CODE').size).toBe(77);
    expect(distinct(byPlace, 'DISTRICT_CODE').size).toBe(928);
    expect(distinct(byPlace, 'SUBDISTRICT_CODE').size).toBeGreaterThan(7_400);
    expect(byPlace.length).toBeGreaterThan(10_000);
    const misplaced = byPlace.filter(
      (r) =>
        String(r.SUBDISTRICT_CODE).slice(0, 4) !== r.DISTRICT_CODE ||
        String(r.DISTRICT_CODE).slice(0, 2) !== r.PROVINCE_CODE,
    );
    expect(misplaced).toEqual([]);
    const sizes = new Map(
      DATASET_CODES.map((code) => [
        code,
        Buffer.byteLength(JSON.stringify({ status: 200, data: data[code], total: data[code].length })),
      ]),
    );
    const largest = [...sizes].sort((a, b) => b[1] - a[1])[0];
    expect(largest?.[0]).toBe('ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST');
    expect(largest?.[1]).toBeGreaterThan(1_000_000);
    expect(largest?.[1]).toBeLessThan(5_000_000);
  });

  it('dataset 6 is Bangkok only and agrees with datasets 3 and 13', () => {
    const bangkok = data.ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST;
    expect(distinct(bangkok, 'PROVINCE_CODE')).toEqual(new Set(['10']));
    expect(distinct(bangkok, 'PROVINCE_NAME')).toEqual(new Set(['กรุงเทพมหานคร']));
    expect(distinct(bangkok, 'DISTRICT_CODE').size).toBe(50);
    const of = (j: keyof typeof JURISDICTIONS): number =>
      sumBy(bangkok, 'SCHOOL_COUNT', (r) => r.JURISDICTION_NAME === JURISDICTIONS[j].name);
    for (const r of data.ODS_COUNT_SCHOOL_BY_JURISDICTION.filter((s) => s.JURISDICTION_CODE === 'BMA')) {
      expect(of('BMA')).toBe(r.SCHOOL_COUNT);
    }
    expect(of('OBEC')).toBe(158);
    expect(of('DLE')).toBe(50);
    const bangkokColleges = distinct(
      data.ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER.filter((r) => r.PROVINCE_NAME === 'กรุงเทพมหานคร'),
      'SCHOOL_CODE',
    );
    expect(of('OVEC')).toBe(bangkokColleges.size);
  });

  it('dataset 13 lists the colleges dataset 3 counts and the staff dataset 4 counts for OVEC', () => {
    const staff = data.ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER;
    const ovec = (code: DatasetCode): DataRecord | undefined =>
      data[code].find((r) => r.ACADEMIC_YEAR === COLLEGE_STAFF_YEAR && r.JURISDICTION_CODE === 'OVEC');
    expect(distinct(staff, 'SCHOOL_CODE').size).toBe(ovec('ODS_COUNT_SCHOOL_BY_JURISDICTION')?.SCHOOL_COUNT);
    expect(sumBy(staff, 'TEACHER_COUNT', (r) => r.GENDER === 'ชาย')).toBe(
      ovec('ODS_COUNT_TEACHER_BY_JURISDICTION')?.MALE,
    );
    expect(sumBy(staff, 'TEACHER_COUNT', (r) => r.GENDER === 'หญิง')).toBe(
      ovec('ODS_COUNT_TEACHER_BY_JURISDICTION')?.FEMALE,
    );
    expect(distinct(staff, 'PROVINCE_NAME').size).toBe(77);
    expect(staff.filter((r) => !String(r.SCHOOL_NAME).startsWith('วิทยาลัย'))).toEqual([]);
    expect([...distinct(staff, 'SCHOOL_NAME')].some((n) => String(n).startsWith('วิทยาลัยเกษตรและเทคโนโลยี'))).toBe(true);
  });

  it('dataset 9 lists a few thousand schools whose size band fits STUDENT_TOTAL', () => {
    const schools = data.MV_DWH_SCHOOL1;
    expect(schools.length).toBeGreaterThan(2_000);
    expect(distinct(schools, 'SCHOOL_CODE').size).toBe(schools.length);
    const odd = schools.filter(
      (s) =>
        s.SCHOOL_SIZE !== schoolSizeOf(Number(s.STUDENT_TOTAL)) ||
        !String(s.SCHOOL_NAME).startsWith('โรงเรียน') ||
        !(Number(s.TEACHER_TOTAL) > 0 && Number(s.CLASSROOM_TOTAL) > 0),
    );
    expect(odd).toEqual([]);
  });

  it('other datasets use the sourced labels and magnitudes', () => {
    const certificate2563 = data.ODS_COUNT_STUDENT_BY_MAJOR.filter(
      (r) => r.ACADEMIC_YEAR === '2563' && r.EDU_LEVEL === 'ปวช.',
    );
    expect(sumBy(certificate2563, 'TOTAL')).toBe(668_500);
    const statuses = new Set(CHECK_STATUSES.map((s) => s.label));
    expect(data.V10_DUPWITH.filter((r) => !statuses.has(String(r.CHECK_STATUS)))).toEqual([]);
    for (const year of YEARS) {
      const total = sumBy(
        data.OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER,
        'STUDENT_COUNT',
        (r) => r.ACADEMIC_YEAR === year,
      );
      expect(total).toBeGreaterThanOrEqual(DISABLED_STUDENTS_RANGE.min);
      expect(total).toBeLessThanOrEqual(DISABLED_STUDENTS_RANGE.max);
    }
    expect(distinct(data.OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER, 'DISABILITY_TYPE').size).toBe(9);
  });

  it('generateSummary selects by body and refuses bodies that are not objects', () => {
    expect(generateSummary(85, { ACADEMIC_YEAR: 2566 }, seed)).toHaveLength(8);
    expect(generateSummary(85, { ACADEMIC_YEAR: ['2560', '2561'] }, seed)).toHaveLength(16);
    expect(() => generateSummary(85, [], seed)).toThrow(FilterInputError);
    expect(() => generateSummary(99, {}, seed)).toThrow(RangeError);
  });
});

describe('simulator environment', () => {
  it('defaults every variable', () => {
    expect(simulatorSettingsFrom({})).toEqual({
      ok: true,
      settings: {
        options: {
          host: '127.0.0.1',
          port: 8888,
          tls: false,
          apiKey: 'simulator-key',
          apiKeyHeader: 'api-key',
          seed: DEFAULT_SEED,
        },
        faults: [],
      },
    });
  });

  it('reads faults keyed by dataset code, endpoint id or *', () => {
    const result = simulatorSettingsFrom({
      SIMULATOR_TLS: 'true',
      SIMULATOR_FAULTS: '{"V10_DUPWITH":{"status":503,"times":2},"84":{"hang":true},"*":{"latencyMs":20}}',
    });
    expect(result.ok && result.settings.options.tls).toBe(true);
    const faults = result.ok ? [...result.settings.faults] : [];
    expect(faults).toHaveLength(3);
    expect(faults).toEqual(
      expect.arrayContaining([
        ['V10_DUPWITH', { status: 503, times: 2 }],
        [84, { hang: true }],
        ['*', { latencyMs: 20 }],
      ]),
    );
  });

  it('lists every problem', () => {
    const result = simulatorSettingsFrom({
      SIMULATOR_PORT: 'eighty',
      SIMULATOR_TLS: 'maybe',
      SIMULATOR_FAULTS: '{"NOPE":{"status":503}}',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toHaveLength(3);
      expect(result.problems.join('\n')).toMatch(/SIMULATOR_PORT[\s\S]*SIMULATOR_TLS[\s\S]*SIMULATOR_FAULTS\.NOPE/);
    }
  });
});
