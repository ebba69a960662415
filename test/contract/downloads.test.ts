/**
 * GET /datasets/<CODE>.csv, .json, .xlsx through the real HTTP path (on the production build): the URL contract the
 * portal's links use, the files' bytes, and the same budgets, caching and refusals as a GraphQL query.
 */
import { gunzipSync } from 'node:zlib';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { otherKey } from '../helpers/other-upstream.js';
import { useOtherStack } from '../helpers/other-stack.js';
import { startStack, useStack, type Stack } from '../helpers/stack.js';
import { afterAll, beforeAll } from 'vitest';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';

const Count = graphql(`
  query DownloadCount($code: DatasetCode!, $where: [RecordFilter!], $query: JSONObject) {
    dataset(code: $code) {
      recordCount(where: $where, query: $query)
    }
  }
`);

const Records = graphql(`
  query DownloadRecords($code: DatasetCode!, $where: [RecordFilter!], $orderBy: [RecordOrder!]) {
    dataset(code: $code) {
      records(where: $where, orderBy: $orderBy, first: 500) {
        edges {
          node
        }
      }
    }
  }
`);

const BOM = '\uFEFF';

function get(stack: Stack, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(stack.app.fetch(`http://localhost${path}`, { headers }));
}

/** A CSV's rows, read by RFC 4180's rules (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe('downloads from the simulator', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 } });

  it('answers a filtered CSV: UTF-8 with a BOM, CRLF, a header row, Thai intact, the rows the API counts', async () => {
    const response = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_JURISDICTION.csv?where.ACADEMIC_YEAR=2566');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="ODS_COUNT_TEACHER_BY_JURISDICTION.csv"',
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith(BOM)).toBe(true);
    expect(text.includes('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual(expect.arrayContaining(['ACADEMIC_YEAR', 'JURISDICTION_NAME', 'TOTAL']));
    const { body } = await stack().execute(Count, {
      code: 'ODS_COUNT_TEACHER_BY_JURISDICTION',
      where: [{ field: 'ACADEMIC_YEAR', eq: '2566' }],
    });
    expect(rows).toHaveLength(body.data?.dataset.recordCount ?? -1);
    expect(response.headers.get('x-records-count')).toBe(String(rows.length));
    const year = header?.indexOf('ACADEMIC_YEAR') ?? -1;
    expect(rows.every((row) => row[year] === '2566')).toBe(true);
    const names = rows.map((row) => row[header?.indexOf('JURISDICTION_NAME') ?? -1]);
    expect(names).toContain('สำนักงานคณะกรรมการการศึกษาขั้นพื้นฐาน');
  });

  it("answers a filter that matches nothing with the dataset's header row alone (CSV, XLSX) and an empty array (JSON)", async () => {
    const csv = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_JURISDICTION.csv?where.ACADEMIC_YEAR=1999');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('x-records-count')).toBe('0');
    const rows = parseCsv((await csv.text()).replace(/^\uFEFF/, ''));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual(expect.arrayContaining(['ACADEMIC_YEAR', 'JURISDICTION_NAME', 'TOTAL']));
    const xlsx = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_JURISDICTION.xlsx?where.ACADEMIC_YEAR=1999');
    const files = unzipSync(new Uint8Array(await xlsx.arrayBuffer()));
    const sheetName = Object.keys(files).find((name) => /^xl\/worksheets\/sheet\d*\.xml$/.test(name)) ?? '';
    const sheet = strFromU8(files[sheetName] ?? new Uint8Array());
    expect(sheet).toContain('JURISDICTION_NAME');
    expect(sheet.match(/<row /g)).toHaveLength(1);
    const json = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_JURISDICTION.json?where.ACADEMIC_YEAR=1999');
    expect(await json.json()).toEqual([]);
  });

  it('takes a repeated where as any of its values, sorts with sort=-<column>, as records(where:, orderBy:) does', async () => {
    const response = await get(
      stack(),
      '/datasets/ODS_COUNT_TEACHER_BY_JURISDICTION.json?where.ACADEMIC_YEAR=2565&where.ACADEMIC_YEAR=2566&sort=-TOTAL',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const file = (await response.json()) as Record<string, unknown>[];
    const { body } = await stack().execute(Records, {
      code: 'ODS_COUNT_TEACHER_BY_JURISDICTION',
      where: [{ field: 'ACADEMIC_YEAR', in: ['2565', '2566'] }],
      orderBy: [{ field: 'TOTAL', direction: 'DESC' }],
    });
    expect(file).toEqual(body.data?.dataset.records?.edges.map((edge) => edge.node));
    expect(file.length).toBeGreaterThan(2);
  });

  it('passes query.<param> to the upstream as the query argument does', async () => {
    stack().simulator.resetRequests();
    const response = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_YEAR.json?query.ACADEMIC_YEAR=2564');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([expect.objectContaining({ ACADEMIC_YEAR: '2564' })]);
    expect(stack().simulator.requests.map((request) => request.query)).toEqual(['ACADEMIC_YEAR=2564']);
  });

  it("writes an XLSX workbook: the records' sheet first, the header and the rows, numbers as numbers, Thai as text", async () => {
    const response = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_JURISDICTION.xlsx?where.ACADEMIC_YEAR=2566');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const sheetName = Object.keys(files).find((name) => /^xl\/worksheets\/sheet\d*\.xml$/.test(name)) ?? '';
    const sheet = strFromU8(files[sheetName] ?? new Uint8Array());
    const strings = strFromU8(files['xl/sharedStrings.xml'] ?? new Uint8Array());
    const rows = sheet.match(/<row /g) ?? [];
    expect(rows.length).toBe(1 + Number(response.headers.get('x-records-count')));
    expect(`${sheet}${strings}`).toContain('สำนักงานคณะกรรมการการศึกษาขั้นพื้นฐาน');
    expect(sheet).toMatch(/<c [^>]*><v>\d+<\/v><\/c>/);
  });

  it("writes an XLSX a reader can cite: a citation sheet and the document properties, from the feeds' facts", async () => {
    const path = '/datasets/ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER.xlsx?where.PROVINCE_NAME=เชียงใหม่';
    const response = await get(stack(), encodeURI(path));
    expect(response.status).toBe(200);
    const buffer = Buffer.from(await response.arrayBuffer());
    const citation = await readSheet(buffer, 'อ้างอิง (citation)');
    const row = (label: string): unknown[] => citation.find((cells) => String(cells[0]).includes(label)) ?? [];
    expect(row('cite as')[2]).toMatch(
      /^Office of the Vocational Education Commission\. \((?:\d{4}|n\.d\.)\)\. .*\[ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER; Data set, XLSX\]\. Licence: Open Government License - Thailand \(https:\/\/data\.go\.th\/.*\)\. Retrieved \d{4}-\d{2}-\d{2}, from http:\/\/localhost\/datasets\//,
    );
    expect(row('cite as')[1]).toMatch(/สืบค้นเมื่อ .* จาก http:\/\/localhost\/datasets\//);
    expect(row('publisher)')[1]).toBe('สำนักงานคณะกรรมการการอาชีวศึกษา');
    expect(row('licence)')[2]).toBe('Open Government License - Thailand');
    expect(row('licence URL')[2]).toBe('https://data.go.th/pages/open-government-licence');
    expect(row('downloaded from')[2]).toBe(`http://localhost${encodeURI(path)}`);
    expect(row('filter')[1]).toBe('where.PROVINCE_NAME=เชียงใหม่');
    expect(row('records')[2]).toBe(Number(response.headers.get('x-records-count')));
    expect(row('years')[1]).toContain('ลบ 543');
    expect(row('geographic coverage')[2]).toMatch(/^OVEC vocational colleges only/);
    expect(row('reference period')[2]).toMatch(/^No year field: as of \d{4}-\d{2}-\d{2}$/);
    expect(citation.some((cells) => String(cells[2]).includes('sums every personnel type'))).toBe(true);
    expect(row('PROVINCE_NAME (column)')[2]).toBe('Province');
    // The records' sheet is still the first, whole.
    const records = await readSheet(buffer);
    expect(records).toHaveLength(1 + Number(response.headers.get('x-records-count')));

    const files = unzipSync(new Uint8Array(buffer));
    const core = strFromU8(files['docProps/core.xml'] ?? new Uint8Array());
    expect(core).toContain('<dc:creator>สำนักงานคณะกรรมการการอาชีวศึกษา</dc:creator>');
    expect(core).toContain('<dc:title>');
    expect(core).toContain('(ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER)</dc:title>');
    expect(core).toMatch(
      /<dcterms:created xsi:type="dcterms:W3CDTF">\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/dcterms:created>/,
    );
    expect(strFromU8(files['docProps/app.xml'] ?? new Uint8Array())).toContain(
      '<Company>สำนักงานคณะกรรมการการอาชีวศึกษา</Company>',
    );
    const types = strFromU8(files['[Content_Types].xml'] ?? new Uint8Array());
    expect(types).toContain(
      'PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"',
    );
    expect(types).toContain('PartName="/docProps/app.xml"');
    expect(types).toContain('PartName="/xl/worksheets/sheet2.xml"');
    const relationships = strFromU8(files['_rels/.rels'] ?? new Uint8Array());
    expect(relationships).toContain('metadata/core-properties" Target="docProps/core.xml"');
    expect(relationships).toContain('extended-properties" Target="docProps/app.xml"');
  });

  it('answers 304 to If-None-Match with its ETag, and another ETag for other parameters', async () => {
    const path = '/datasets/ODS_COUNT_TEACHER_BY_YEAR.csv?where.ACADEMIC_YEAR=2566';
    const first = await get(stack(), path);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const again = await get(stack(), path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_YEAR.csv?where.ACADEMIC_YEAR=2565');
    expect(other.headers.get('etag')).not.toBe(etag);
    const reordered = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_YEAR.json?where.ACADEMIC_YEAR=2566');
    expect(reordered.headers.get('etag')).not.toBe(etag);
  });

  it('streams the largest dataset in slices, and compresses it when asked', async () => {
    const response = await get(stack(), '/datasets/ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST.csv');
    const reader = response.body?.getReader();
    let chunks = 0;
    let bytes = 0;
    for (;;) {
      const next = await reader?.read();
      if (next === undefined || next.done) break;
      chunks += 1;
      bytes += next.value.byteLength;
    }
    expect(chunks).toBeGreaterThan(5);
    const gzipped = await get(stack(), '/datasets/ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST.csv', {
      'accept-encoding': 'gzip',
    });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    const packed = Buffer.from(await gzipped.arrayBuffer());
    expect(packed.length).toBeLessThan(bytes / 3);
    expect(gunzipSync(packed).length).toBe(bytes);
  });

  it.each([
    ['an unknown parameter', '/datasets/V10_DUPWITH.csv?filter=x', 400, 'BAD_USER_INPUT'],
    ['a column no record has', '/datasets/V10_DUPWITH.csv?where.NOPE=1', 400, 'BAD_USER_INPUT'],
    ['sort without a column', '/datasets/V10_DUPWITH.csv?sort=-', 400, 'BAD_USER_INPUT'],
    ['an unknown dataset', '/datasets/NOT_A_DATASET.csv', 404, 'NOT_FOUND'],
    ['an unknown format', '/datasets/V10_DUPWITH.pdf', 404, 'NOT_FOUND'],
  ])('refuses %s with a JSON body and a registry code, in Thai by default', async (_name, path, status, code) => {
    const response = await get(stack(), path);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe(code);
    expect(body.errors[0]?.message).toMatch(/[\u0E00-\u0E7F]/);
    const english = await get(stack(), path, { 'accept-language': 'en' });
    const inEnglish = (await english.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(inEnglish.errors[0]?.extensions.code).toBe(code);
    expect(inEnglish.errors[0]?.message).not.toMatch(/[\u0E00-\u0E7F]{4}/);
  });

  it('refuses another method with 405', async () => {
    const response = await Promise.resolve(
      stack().app.fetch('http://localhost/datasets/V10_DUPWITH.csv', { method: 'POST', body: '' }),
    );
    expect(response.status).toBe(405);
    expect(((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'BAD_REQUEST',
    );
  });
});

describe('downloads are bounded and paid for before any work', () => {
  const stack = useStack({ rateLimit: { points: 2, windowS: 3_600 }, http: { downloadMaxRows: 20 } });

  it('refuses a file of more records than DOWNLOAD_MAX_ROWS with 413, then the empty bucket with 429', async () => {
    const small = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_YEAR.csv');
    expect(small.status).toBe(200);
    expect(small.headers.get('ratelimit')).toMatch(/;r=1;/);
    const large = await get(stack(), '/datasets/ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST.csv');
    expect(large.status).toBe(413);
    expect(((await large.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'RESPONSE_TOO_LARGE',
    );
    stack().simulator.resetRequests();
    // A request that would be refused for its parameters pays first: the bucket is empty, so it is 429.
    const refused = await get(stack(), '/datasets/ODS_COUNT_TEACHER_BY_YEAR.csv?nonsense=1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'RATE_LIMITED',
    );
    expect(stack().simulator.requestCount()).toBe(0);
  });
});

describe('CSV cells a spreadsheet would run', () => {
  let upstream: LoopbackServer;
  let stack: Stack;
  const records = [
    { NAME: '=HYPERLINK("http://evil.example","click")', NOTE: '+1', COUNT: -5 },
    { NAME: '@SUM(A1:A2)', NOTE: '-2+3', COUNT: 7 },
    { NAME: 'tab\tfirst', NOTE: '\tx', COUNT: 0 },
    { NAME: 'comma, "quote"\nand line', NOTE: 'plain', COUNT: 1 },
  ];
  beforeAll(async () => {
    upstream = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: records }));
    });
    stack = await startStack({ baseUrl: upstream.origin, caPem: null });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('prefixes formula-like text with an apostrophe and quotes as RFC 4180 says', async () => {
    const response = await get(stack, '/datasets/V10_DUPWITH.csv');
    const text = await response.text();
    const rows = parseCsv(text.replace(/^\uFEFF/, ''));
    expect(rows).toEqual([
      ['NAME', 'NOTE', 'COUNT'],
      [`'=HYPERLINK("http://evil.example","click")`, "'+1", '-5'],
      ["'@SUM(A1:A2)", "'-2+3", '7'],
      ['tab\tfirst', "'\tx", '0'],
      ['comma, "quote"\nand line', 'plain', '1'],
    ]);
    expect(text).toContain('"comma, ""quote""\nand line"');
  });
});

describe('records an upstream writes to break a file', () => {
  let upstream: LoopbackServer;
  let stack: Stack;
  // Every name Object.prototype has, and __proto__ itself, as a key of one record and not of the others: a writer
  // that reads record[key] finds the inherited function for the records without it.
  const HOSTILE_KEYS = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'];
  // Cells a spreadsheet would start a formula or a new row with, once it has skipped what it does not show.
  const INJECTIONS = [
    '\n=1+1',
    'x\r@SUM(1+1)',
    '\r\n+1',
    ' =1+1',
    '\u00a0=1+1',
    '\u3000=1+1',
    '\u200b=1+1',
    '\ufeff=1+1',
    '\ufe66 1',
    '|calc',
    ';=1',
    '%0A=1',
  ];
  const body = (): string => {
    const hostile = HOSTILE_KEYS.map((key) => `${JSON.stringify(key)}:${JSON.stringify(`own ${key}`)}`).join(',');
    const plain = INJECTIONS.map((cell, i) => JSON.stringify({ ID: String(i), CELL: cell }));
    return `{"data":[{"ID":"hostile",${hostile}},${plain.join(',')}]}`;
  };
  beforeAll(async () => {
    upstream = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body());
    });
    stack = await startStack({ baseUrl: upstream.origin, caPem: null });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('writes every format of records keyed by every Object.prototype name, and the process serves on', async () => {
    for (const format of ['csv', 'json', 'xlsx']) {
      const response = await get(stack, `/datasets/V10_DUPWITH.${format}`);
      expect(response.status, format).toBe(200);
      expect((await response.arrayBuffer()).byteLength, format).toBeGreaterThan(0);
    }
    const csv = parseWithCsvParse(await (await get(stack, '/datasets/V10_DUPWITH.csv')).text());
    const header = csv[0] ?? [];
    for (const key of HOSTILE_KEYS) expect(header, key).toContain(key);
    // The hostile record's own values are its cells; the other records have none under those keys.
    const hostileRow = csv[1] ?? [];
    for (const key of HOSTILE_KEYS) expect(hostileRow[header.indexOf(key)], key).toBe(`own ${key}`);
    for (const row of csv.slice(2)) for (const key of HOSTILE_KEYS) expect(row[header.indexOf(key)], key).toBe('');
    const sheet = await readSheet(Buffer.from(await (await get(stack, '/datasets/V10_DUPWITH.xlsx')).arrayBuffer()));
    expect(sheet).toHaveLength(INJECTIONS.length + 2);
    const sheetHeader = (sheet[0] ?? []).map(String);
    for (const row of sheet.slice(2))
      for (const key of HOSTILE_KEYS) expect(row[sheetHeader.indexOf(key)] ?? null, key).toBeNull();
    expect((await get(stack, '/health')).status).toBe(200);
  });

  it('quotes any CR or LF and guards a formula behind blanks and invisible characters, read back by a real CSV parser', async () => {
    const rows = parseWithCsvParse(await (await get(stack, '/datasets/V10_DUPWITH.csv')).text());
    // The header, the hostile record, then one row per injection: no cell started a row of its own.
    expect(rows).toHaveLength(INJECTIONS.length + 2);
    const header = rows[0] ?? [];
    const cells = rows.slice(2).map((row) => row[header.indexOf('CELL')]);
    const guarded = INJECTIONS.map((cell) => (cell.startsWith('x') ? cell : `'${cell}`));
    expect(cells).toEqual(guarded);
  });
});

/** A CSV read by csv-parse, a parser the file's readers use, not ours: the BOM taken off, RFC 4180's quoting. */
function parseWithCsvParse(text: string): string[][] {
  const rows: unknown = parseCsvSync(text, { bom: true, relax_column_count: false });
  return rows as string[][];
}

describe('downloads from the second upstream', () => {
  const other = useOtherStack();

  it('filters by its own Thai keys: one province of graduates, the rows the API counts', async () => {
    const province = otherKey('PROVINCE_NAME');
    const path = `/datasets/ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST.csv?where.${encodeURIComponent(province)}=${encodeURIComponent('เชียงใหม่')}&sort=${encodeURIComponent(otherKey('DISTRICT_NAME'))}`;
    const response = await get(other().stack, path);
    expect(response.status).toBe(200);
    const [header, ...rows] = parseCsv((await response.text()).replace(/^\uFEFF/, ''));
    expect(header).toContain('จังหวัด');
    const expected = other()
      .upstream.records('ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST')
      .filter((record) => record[province] === 'เชียงใหม่');
    expect(rows).toHaveLength(expected.length);
    expect(rows.length).toBeGreaterThan(10);
    const { body } = await other().stack.execute(Count, {
      code: 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST',
      where: [{ field: province, eq: 'เชียงใหม่' }],
    });
    expect(rows).toHaveLength(body.data?.dataset.recordCount ?? -1);
    const district = header?.indexOf('อำเภอ') ?? -1;
    const districts = rows.map((row) => row[district] ?? '');
    expect(districts).toEqual([...districts].sort(new Intl.Collator('th', { numeric: true }).compare));
  });

  it('compares a year given as text with years written as numbers, as the engine does', async () => {
    const response = await get(
      other().stack,
      `/datasets/ODS_COUNT_TEACHER_BY_YEAR.json?where.${encodeURIComponent(otherKey('ACADEMIC_YEAR'))}=2566`,
    );
    expect(await response.json()).toEqual([{ ปีการศึกษา: 2566, male: '308620', female: '592014', total: '900634' }]);
  });
});
