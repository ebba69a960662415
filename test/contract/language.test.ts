import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_PATH } from '../../src/server/app.js';
import { negotiateLanguage } from '../../src/http/language.js';
import { graphql } from '../gql/index.js';
import { useListeningStack, useStack } from '../helpers/stack.js';
import { responseCacheHitsIn } from '../helpers/prometheus.js';

const Labels = graphql(`
  query Labels {
    summaryEndpoint(endpointId: 83) {
      status
      statusLabel
    }
    dataset(code: ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER) {
      agencyName
      agencyNameEn
    }
  }
`);

describe('negotiateLanguage (Accept-Language, RFC 9110 q-values)', () => {
  it.each([
    [null, 'th'],
    ['', 'th'],
    ['th', 'th'],
    ['en', 'en'],
    ['EN-us', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['th-TH,th;q=0.9,en-US;q=0.8,en;q=0.7', 'th'],
    ['en;q=0.5, th;q=0.4', 'en'],
    ['th;q=0.5, en;q=0.5', 'th'],
    ['fr-FR, fr;q=0.9', 'en'],
    ['ja-JP', 'en'],
    ['ja, *;q=0.1', 'th'],
    ['ja, th;q=0.1', 'th'],
    ['fr, en;q=0.1', 'en'],
    ['*', 'th'],
    ['th;q=0, *;q=0.1', 'en'],
    ['en;q=0', 'th'],
    ['en;q=0, ja', 'th'],
    ['th;q=0, en;q=0', 'th'],
    ['en;q=1.000', 'en'],
  ] as const)('%j → %s', (header, language) => {
    expect(negotiateLanguage(header)).toBe(language);
  });

  it.each([
    ['a weight out of range', 'en;q=2'],
    ['a weight that is not a number', 'en;q=abc'],
    ['a weight with too many decimals', 'en;q=0.5000'],
    ['a parameter other than q', 'en;level=1'],
    ['a range that is not one', 'e_n, <script>, ""'],
    ['separators only', ';;;,,,;q='],
    ['a 100 kB range', 'e'.repeat(100_000)],
    ['control characters', 'en\u0000\r\n'],
  ])('ignores %s: Thai', (_name, header) => {
    expect(negotiateLanguage(header)).toBe('th');
  });

  it('reads a bounded number of ranges: an English range after the first 32 is not seen', () => {
    const filler = Array.from({ length: 32 }, (_, i) => `th-x${i};q=0.1`).join(', ');
    expect(negotiateLanguage(`${filler}, en`)).toBe('th');
    expect(negotiateLanguage(`en, ${filler}`)).toBe('en');
  });
});

describe('labels and messages in Thai by default, in English on request', () => {
  const stack = useStack();

  it('statusLabel is Thai by default and English on request; agencyNameEn beside agencyName; the codes never change', async () => {
    const thai = await stack().execute(Labels);
    expect(thai.body.data).toEqual({
      summaryEndpoint: { status: 'NOT_REQUESTED', statusLabel: 'ยังไม่ได้ขอใช้งาน' },
      dataset: {
        agencyName: 'สำนักงานคณะกรรมการการอาชีวศึกษา',
        agencyNameEn: 'Office of the Vocational Education Commission',
      },
    });
    expect(thai.response.headers.get('content-language')).toBe('th');
    expect(thai.response.headers.get('vary')).toContain('accept-language');

    const english = await stack().execute(Labels, {}, { 'accept-language': 'en-GB,en;q=0.9,th;q=0.5' });
    expect(english.body.data).toEqual({
      summaryEndpoint: { status: 'NOT_REQUESTED', statusLabel: 'Not requested' },
      dataset: {
        agencyName: 'สำนักงานคณะกรรมการการอาชีวศึกษา',
        agencyNameEn: 'Office of the Vocational Education Commission',
      },
    });
    expect(english.response.headers.get('content-language')).toBe('en');

    // A device set to a language that is neither (issue 24): English, the better fallback.
    const japanese = await stack().execute(Labels, {}, { 'accept-language': 'ja-JP,ja;q=0.9' });
    expect(japanese.body.data?.summaryEndpoint?.statusLabel).toBe('Not requested');
    expect(japanese.response.headers.get('content-language')).toBe('en');

    const garbage = await stack().execute(Labels, {}, { 'accept-language': 'en;q=oops, \u00ff\u00fe' });
    expect(garbage.body.data?.summaryEndpoint?.statusLabel).toBe('ยังไม่ได้ขอใช้งาน');
  });

  it('a resolver error: a Thai message with the English detail in extensions by default, the English message alone on request, same code', async () => {
    const query =
      '{ dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) { records(first: 1, after: "not-a-cursor") { totalCount } } }';
    const [thai, english] = await Promise.all([
      stack().post({ query }),
      stack().post({ query }, { 'accept-language': 'en' }),
    ]);
    type Body = { errors: { message: string; extensions: { code: string } }[] };
    const [thaiError, englishError] = [
      ((await thai.json()) as Body).errors[0],
      ((await english.json()) as Body).errors[0],
    ];
    expect(thaiError?.extensions.code).toBe('BAD_USER_INPUT');
    // Each message in one language: the English detail of a Thai answer is in extensions.detail (issue 24).
    expect(englishError?.extensions).toEqual({ code: 'BAD_USER_INPUT' });
    expect(englishError?.message).not.toMatch(/[\u0E00-\u0E7F]/);
    expect(thaiError?.message).toBe('ค่าที่ส่งมาไม่ถูกต้อง');
    expect(thaiError?.extensions).toEqual({ code: 'BAD_USER_INPUT', detail: englishError?.message });
  });

  it("graphql-js's validation errors: a Thai message naming what it quotes, its own English in extensions.detail", async () => {
    const response = await stack().post({ query: '{ dataset(code: ODS_NOPE) { code } }' });
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors[0]?.message).toBe('คำสั่ง GraphQL ไม่ผ่านการตรวจสอบกับสคีมา: "ODS_NOPE", "DatasetCode"');
    expect(body.errors[0]?.extensions).toMatchObject({ detail: expect.stringContaining('ODS_NOPE') as unknown });
  });

  it('every answer of a batch is in the language', async () => {
    const response = await stack().post(
      [
        { query: '{ dataset(code: ODS_NOPE) { code } }' },
        { query: '{ summaryEndpoint(endpointId: 83) { statusLabel } }' },
      ],
      {
        'accept-language': 'th-TH',
      },
    );
    const [failed, labelled] = (await response.json()) as [
      { errors: { message: string }[] },
      { data: { summaryEndpoint: { statusLabel: string } } },
    ];
    expect(failed.errors[0]?.message).toMatch(/^คำสั่ง GraphQL ไม่ผ่านการตรวจสอบกับสคีมา/);
    expect(labelled.data.summaryEndpoint.statusLabel).toBe('ยังไม่ได้ขอใช้งาน');
  });

  it('plugin refusals: CSRF wholly in Thai, or in English; the APQ protocol message stays as clients expect it', async () => {
    const get = (headers: Record<string, string>) =>
      stack().app.fetch(`http://localhost${GRAPHQL_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: `query=${encodeURIComponent('{ __typename }')}`,
      });
    type Body = { errors: { message: string; extensions: { code: string } }[] };
    const [thaiResponse, englishResponse] = [await get({}), await get({ 'accept-language': 'en' })];
    // The HTTP status rides on the error's extensions: a translated error keeps it.
    expect([thaiResponse.status, englishResponse.status]).toEqual([403, 403]);
    const thai = (await thaiResponse.json()) as Body;
    const english = (await englishResponse.json()) as Body;
    expect(thai.errors[0]?.extensions.code).toBe('CSRF_HEADER_REQUIRED');
    expect(english.errors[0]?.extensions.code).toBe('CSRF_HEADER_REQUIRED');
    expect(thai.errors[0]?.message).toMatch(/^คำขอ GraphQL แบบ POST ที่ไม่ใช่ JSON ต้องมีส่วนหัว "x-graphql-yoga-csrf: 1"/);
    expect(english.errors[0]?.message).toMatch(
      /^A GraphQL POST that is not JSON must carry the header "x-graphql-yoga-csrf: 1"/,
    );

    const unknownHash = await stack().post({
      extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } },
    });
    const apq = (await unknownHash.json()) as Body;
    expect(apq.errors[0]).toMatchObject({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
  });

  it('errors in a later part of an incremental answer carry their code and are in the language too', async () => {
    stack().simulator.setFault('ODS_COUNT_TEACHER_BY_YEAR', { status: 404, times: 1 });
    const response = await stack().post(
      {
        query:
          '{ datasets(group: TEACHERS) { code } ... @defer { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } } }',
      },
      { accept: 'multipart/mixed' },
    );
    const text = await response.text();
    expect(text).toContain('"code":"UPSTREAM_HTTP_ERROR"');
    expect(text).toContain('"message":"บริการข้อมูลต้นทางตอบกลับด้วยสถานะ HTTP 404"');
    expect(text).toContain('"detail":"Upstream dataset ODS_COUNT_TEACHER_BY_YEAR answered HTTP 404"');
  });
});

describe('the language over the socket: the request guard and the response cache', () => {
  const started = useListeningStack({
    cache: { ttlS: 60, swrS: 0, staleIfErrorS: 0 },
    limits: { maxBodyBytes: 1_000 },
  });

  const send = async (init: {
    method: 'GET' | 'POST';
    path: string;
    headers?: Record<string, string>;
    body?: string;
  }) => {
    const answer = await undiciRequest(started().origin + init.path, {
      method: init.method,
      headers: init.headers,
      body: init.body,
    });
    return { status: answer.statusCode, headers: answer.headers, text: await answer.body.text() };
  };

  it("answers the request guard's refusals in the request's language", async () => {
    const body = JSON.stringify({ query: `{ __typename } #${'x'.repeat(2_000)}` });
    const post = (headers: Record<string, string>) =>
      send({ method: 'POST', path: GRAPHQL_PATH, headers: { 'content-type': 'application/json', ...headers }, body });
    const [thai, english] = [await post({}), await post({ 'accept-language': 'en' })];
    expect(thai.status).toBe(413);
    expect(JSON.parse(thai.text)).toEqual({
      errors: [{ message: 'เนื้อหาของคำขอใหญ่เกิน 1000 ไบต์', extensions: { code: 'PAYLOAD_TOO_LARGE', maxBytes: 1000 } }],
    });
    expect(thai.headers['content-language']).toBe('th');
    expect(JSON.parse(english.text)).toMatchObject({
      errors: [{ message: 'The request body is larger than 1000 bytes.', extensions: { code: 'PAYLOAD_TOO_LARGE' } }],
    });
    expect(english.headers['content-language']).toBe('en');
  });

  it('never serves a stored Thai answer to an English request: the language is part of the key', async () => {
    const path = `${GRAPHQL_PATH}?query=${encodeURIComponent('query Agencies { datasets { agencyName agencyNameEn } }')}`;
    const get = (acceptLanguage?: string) =>
      send({
        method: 'GET',
        path,
        headers: {
          'x-graphql-yoga-csrf': '1',
          ...(acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage }),
        },
      });
    const hits = async (): Promise<number> =>
      responseCacheHitsIn((await send({ method: 'GET', path: '/metrics' })).text);
    // Stored on its second miss (RESPONSE_CACHE_MIN_USES 2).
    await get('th');
    const thai = await get('th');
    expect(thai.headers['content-language']).toBe('th');
    const before = await hits();
    expect((await get()).headers['content-language']).toBe('th');
    expect(await hits()).toBe(before + 1);
    // Stored in Thai, asked in English: misses, answered and stored in English.
    const english = await get('en-US,en;q=0.9');
    expect(english.headers['content-language']).toBe('en');
    await get('en-GB');
    expect(await hits()).toBe(before + 1);
    expect((await get('en')).headers['content-language']).toBe('en');
    expect(await hits()).toBe(before + 2);
    expect(english.headers['vary']).toContain('accept-language');
    expect(english.text).toBe(thai.text);
  });
});
