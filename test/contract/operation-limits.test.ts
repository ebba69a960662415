import { describe, expect, it } from 'vitest';
import { fencedBlocks, readDoc } from '../helpers/docs.js';
import { DEFAULTS } from '../helpers/settings.js';
import { useListeningStack, useStack } from '../helpers/stack.js';

interface Refusal {
  errors: { message: string; extensions: { code: string; limit?: string; detail?: string } }[];
}

// The README's example: what a newcomer pastes first.
const README_EXAMPLE = fencedBlocks(readDoc('README.md'), 'graphql')[0] ?? '';

const aliases = (count: number, selection: (index: number) => string): string =>
  `{ ${Array.from({ length: count }, (_, index) => `a${index}: ${selection(index)}`).join(' ')} }`;
const payloads = (count: number): string =>
  aliases(count, (index) => `dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload(query: { N: ${index} }) }`);

describe('operation limits: refused with HTTP 400 and a code before any upstream call', () => {
  const stack = useStack();

  async function refusal(body: unknown): Promise<{ status: number; body: Refusal }> {
    stack().simulator.resetRequests();
    const response = await stack().post(body);
    const text = await response.text();
    expect(stack().simulator.requestCount()).toBe(0);
    return { status: response.status, body: JSON.parse(text) as Refusal };
  }

  it('refuses a query 50 levels deep', async () => {
    // __type(name:) … ofType nests as deep as one likes over a schema of any shape.
    const deep = `{ __type(name: "Dataset") { ${'ofType { '.repeat(49)}name${' }'.repeat(49)} } }`;
    const { status, body } = await refusal({ query: deep });
    expect(status).toBe(400);
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'depth' });
    expect(body.errors[0]?.extensions.detail).toMatch(/depth limit of 12 exceeded, found 5\d/);
  });

  it('refuses 1,000 aliases, and admits 50', async () => {
    const manyNumbers = `{ datasets { ${Array.from({ length: 1_000 }, (_, index) => `a${index}: no`).join(' ')} } }`;
    const { status, body } = await refusal({ query: manyNumbers });
    expect(status).toBe(400);
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'aliases' });
    const admitted = await stack().post({ query: aliases(50, () => 'datasets { no }') });
    expect(admitted.status).toBe(200);
    expect(((await admitted.json()) as { errors?: unknown }).errors).toBeUndefined();
  });

  const repeat = (count: number, text: (index: number) => string): string =>
    Array.from({ length: count }, (_, index) => text(index)).join(' ');
  // Fragments on Dataset that each select another field (not `no`).
  const DATASET_FIELDS = ['code', 'title', 'titleEn', 'group', 'agency', 'agencyName', 'method', 'apiUrl'];
  const datasetFragments = DATASET_FIELDS.map((field, i) => `fragment G${i} on Dataset { ${field} }`).join(' ');
  const limitsOf = (body: Refusal): (string | undefined)[] => body.errors.map((error) => error.extensions.limit);

  it('refuses what makes validation expensive before validating: the 440 fragments of `x: __typename`', async () => {
    // The attack as it was found, plus a field that does not exist: had validation run, it would have said so.
    const query = `{ ${repeat(440, (i) => `...F${i}`)} noSuchField } ${repeat(440, (i) => `fragment F${i} on Query { x: __typename }`)}`;
    const { status, body } = await refusal({ query });
    expect(status).toBe(400);
    expect(limitsOf(body)).toEqual(['fragments', 'fragmentSpreads', 'fieldsPerResponseName', 'aliases']);
    for (const error of body.errors) expect(error.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors[0]?.extensions.detail).toContain('Fragments limit of 100 exceeded, found 440.');
  });

  it('counts fields sharing a response name after every kind of fragment expansion, and fragments and spreads', async () => {
    const typenames = (count: number): string => repeat(count, () => '__typename');
    const cases: { query: string; limit: string }[] = [
      // No fragment at all: the same name repeated without an alias.
      { query: `{ ${typenames(51)} }`, limit: 'fieldsPerResponseName' },
      // Inline fragments add their fields to the set they are in.
      { query: `{ ${repeat(51, () => '... on Query { __typename }')} }`, limit: 'fieldsPerResponseName' },
      // Fragments that spread each other twice: 6 spreads, 4 fragments, 8 × 13 fields named __typename.
      {
        query: `{ ...A } fragment A on Query { ...B ...B } fragment B on Query { ...C ...C } fragment C on Query { ...D ...D } fragment D on Query { ${typenames(13)} }`,
        limit: 'fieldsPerResponseName',
      },
      // The same under a field, in a nested selection set.
      { query: `{ datasets { ${repeat(51, () => 'no')} } }`, limit: 'fieldsPerResponseName' },
      { query: `{ ...F0 } ${repeat(101, (i) => `fragment F${i} on Query { f${i}: __typename }`)}`, limit: 'fragments' },
      {
        query: `{ datasets { ${repeat(201, (i) => `...G${i % DATASET_FIELDS.length}`)} } } ${datasetFragments}`,
        limit: 'fragmentSpreads',
      },
      // An alias of __typename is an alias: 65 of them are over the 64 allowed.
      { query: `{ ${repeat(65, (i) => `t${i}: __typename`)} }`, limit: 'aliases' },
      // Issue 34: 50 same-named fields whose 3 sub-fields each differ by argument (no alias, every count within
      // its limit): 1,225 pairs compared sub-field by sub-field, over LIMIT_MAX_FIELD_COMPARISONS.
      {
        query: `{ ${repeat(50, (i) => `datasets { ${repeat(3, (j) => `records(first: ${i + j + 1}) { totalCount }`)} }`)} }`,
        limit: 'fieldComparisons',
      },
    ];
    for (const { query, limit } of cases) {
      const { status, body } = await refusal({ query });
      expect(status, query.slice(0, 60)).toBe(400);
      expect(limitsOf(body), query.slice(0, 60)).toEqual([limit]);
    }
  });

  it('admits a document at every bound, and validates a fragment cycle as before', async () => {
    // 100 fragments, 200 spreads, 50 fields named `__typename` in one selection set.
    const atBounds = `{ ${repeat(50, () => '__typename')} datasets { ${repeat(40, () => 'no')} ${repeat(200, (i) => `...G${i % 100}`)} } } ${repeat(100, (i) => `fragment G${i} on Dataset { ${DATASET_FIELDS[i % DATASET_FIELDS.length] ?? 'code'} }`)}`;
    const admitted = await stack().post({ query: atBounds });
    expect(admitted.status).toBe(200);
    expect(((await admitted.json()) as { errors?: unknown }).errors).toBeUndefined();
    const cycle = await refusal({ query: '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }' });
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors[0]?.extensions.detail).toMatch(/Cannot spread fragment "A" within itself/);
  });

  it('prices payload fields: 40 in one operation run, 60 are refused by the cost limit', async () => {
    const { status, body } = await refusal({ query: payloads(60) });
    expect(status).toBe(400);
    expect(body.errors[0]?.extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'cost',
      maxCost: DEFAULTS.limits.maxCost,
    });
    const admitted = await stack().post({ query: payloads(40) });
    const answer = (await admitted.json()) as { data: Record<string, { payload: unknown }>; errors?: unknown };
    expect(answer.errors).toBeUndefined();
    expect(Object.keys(answer.data)).toHaveLength(40);
  });

  it('prices a records page by its rows times what each row selects, under every alias, before it is built', async () => {
    const LARGEST = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
    const page = (first: number, copies: number, selection: string): string =>
      `{ dataset(code: ${LARGEST}) { rows(first: ${first}) { ${Array.from({ length: copies }, (_, i) => `e${i}: edges { ${selection} }`).join(' ')} } } }`;
    // 12 aliases of 500 edges of two values each: 18,000 values, refused before any upstream call.
    const { status, body } = await refusal({ query: page(500, 12, '__typename cursor') });
    expect(status).toBe(400);
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'cost' });
    // The same aliases over pages of 20 rows, a full untyped page, and a full typed page with every field, its
    // paging and its count: what clients page with.
    const typedFields =
      'academicYear provinceCode provinceName districtCode districtName subdistrictCode subdistrictName eduLevel male female total';
    for (const query of [
      page(20, 12, '__typename cursor'),
      `{ dataset(code: ${LARGEST}) { records(first: 500) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node } } } }`,
      `{ typedRecords { odsCountGraduateByProvDistSubdist { rows(first: 500) { totalCount pageInfo { hasNextPage endCursor } nodes { ${typedFields} } } } } }`,
    ]) {
      const admitted = await stack().post({ query });
      expect(admitted.status).toBe(200);
      expect(((await admitted.json()) as { errors?: unknown }).errors).toBeUndefined();
    }
  });

  it('prices each request of a document by its own variables: a refused page size does not refuse a small one', async () => {
    // The document is validated once and its result kept; the cost limit's refusal must not be kept with it.
    const query = `query Pages($first: Int) { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { ${Array.from({ length: 12 }, (_, i) => `e${i}: rows(first: $first) { edges { __typename cursor } }`).join(' ')} } }`;
    for (const first of [500, 20, 500, 20]) {
      const response = await stack().post({ query, variables: { first } });
      const body = (await response.json()) as Partial<Refusal> & { data?: unknown };
      if (first === 500) expect(body.errors?.[0]?.extensions).toMatchObject({ limit: 'cost' });
      else expect(body.errors).toBeUndefined();
    }
  });

  it('refuses too many directives and too many tokens', async () => {
    const directives = await refusal({ query: `{ datasets { no ${'@include(if: true) '.repeat(60)} } }` });
    expect(directives.status).toBe(400);
    expect(directives.body.errors[0]?.extensions).toMatchObject({ limit: 'directives' });
    const tokens = await refusal({ query: `{ ${'__typename '.repeat(6_000)} }` });
    expect(tokens.status).toBe(400);
    expect(tokens.body.errors[0]?.extensions).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED', limit: 'tokens' });
  });

  it('runs a batch of a few operations and refuses a larger one', async () => {
    const batch = (count: number) => Array.from({ length: count }, () => ({ query: '{ datasets { no } }' }));
    const few = await stack().post(batch(DEFAULTS.limits.maxBatch));
    expect(few.status).toBe(200);
    expect((await few.json()) as unknown[]).toHaveLength(DEFAULTS.limits.maxBatch);
    const { status, body } = await refusal(batch(DEFAULTS.limits.maxBatch + 1));
    expect(status).toBe(413);
    // One coded answer per operation sent, so that a batching client gives each query its code (issue 24).
    expect(body).toHaveLength(DEFAULTS.limits.maxBatch + 1);
    for (const answer of body as unknown as Refusal[])
      expect(answer.errors[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', maxBatch: DEFAULTS.limits.maxBatch });
  });

  it('answers a batch of thousands of empty operations with one refusal, not one per operation', async () => {
    // 30,000 `{}` fit the body limit: their refusals repeated would be a hundred times the request.
    const { status, body } = await refusal(Array.from({ length: 30_000 }, () => ({})));
    expect(status).toBe(413);
    expect(Array.isArray(body)).toBe(false);
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', operations: 30_000 });
  });

  it("accepts Apollo BatchHttpLink's default batch of 10 operations", async () => {
    expect(DEFAULTS.limits.maxBatch).toBe(10);
    const response = await stack().post(Array.from({ length: 10 }, () => ({ query: '{ datasets { no } }' })));
    expect(response.status).toBe(200);
    const answers = (await response.json()) as { data?: unknown; errors?: unknown }[];
    expect(answers).toHaveLength(10);
    expect(answers.every((answer) => answer.errors === undefined && answer.data !== undefined)).toBe(true);
  });

  it("admits the README's example", async () => {
    const response = await stack().post({ query: README_EXAMPLE });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
  });
});

// The listener reads a body within the limit before anything else sees it (src/server/transport/request-guard.ts).
describe('the body limit, where the body arrives', () => {
  const listening = useListeningStack();
  it('refuses a 1 MB body with 413 without reading it as GraphQL', async () => {
    listening().stack.simulator.resetRequests();
    const response = await fetch(`${listening().origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ datasets { no } }${' '.repeat(1_000_000)}` }),
    });
    expect(response.status).toBe(413);
    expect(listening().stack.simulator.requestCount()).toBe(0);
    expect(((await response.json()) as Refusal).errors[0]?.extensions).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      maxBytes: DEFAULTS.limits.maxBodyBytes,
    });
  });

  it('counts a body sent without Content-Length as it arrives', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 16) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${listening().origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('answers a refusal made before yoga as yoga answers: media type by Accept, request id, CORS', async () => {
    const response = await fetch(`${listening().origin}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        origin: 'https://app.example',
        'x-request-id': 'refused-1',
        'accept-language': 'en',
      },
      body: ' '.repeat(DEFAULTS.limits.maxBodyBytes + 1),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(response.headers.get('x-request-id')).toBe('refused-1');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-language')).toBe('en');
  });
});
