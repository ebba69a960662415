import { describe, expect, it } from 'vitest';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { subscribe } from '../helpers/sse.js';
import { listen, useStack } from '../helpers/stack.js';

/** RESPONSE_MAX_MB for these suites: under the largest dataset's page sizes times the aliases an operation admits. */
const BUDGET = 2 * 1_048_576;
// What an answer may carry beside the budgeted values: the refusal's error and the nulls the refused fields left.
const SLACK = 16 * 1024;
const TYPED = 'odsCountGraduateByProvDistSubdist';
/**
 * LIMIT_MAX_COST for the byte-budget suites: the default refuses most of their documents before they run, as records
 * pages are priced by their rows (operation-costs.test.ts); the byte budget is what bounds them should it be raised.
 */
const UNPRICED = 1_000_000;

interface Answer {
  data?: unknown;
  errors?: { message: string; path?: (string | number)[]; extensions: Record<string, unknown> }[];
  incremental?: { errors?: Answer['errors'] }[];
}

const aliased = (count: number, selection: (i: number) => string): string =>
  Array.from({ length: count }, (_, i) => selection(i)).join(' ');

/** The JSON parts of a multipart/mixed body (GraphQL incremental delivery). */
function parts(body: string, contentType: string): Answer[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1] ?? '-';
  return body
    .split(`--${boundary}`)
    .map((part) => part.split('\r\n\r\n').slice(1).join('\r\n\r\n').trim())
    .filter((json) => json.startsWith('{'))
    .map((json) => JSON.parse(json) as Answer);
}

const codesOf = (answers: readonly Answer[]): unknown[] =>
  answers
    .flatMap((answer) => [
      ...(answer.errors ?? []),
      ...(answer.incremental ?? []).flatMap((increment) => increment.errors ?? []),
    ])
    .map((error) => error.extensions['code']);

describe('one budget of answer bytes per HTTP request, charged where the bytes are made', () => {
  const stack = useStack({ limits: { maxResponseBytes: BUDGET, maxCost: UNPRICED } });

  /** Posts `body` and expects an answer within the budget that reports the refusal once. */
  const refusedWithin = async (body: unknown, headers: Record<string, string> = {}): Promise<string> => {
    const response = await stack().post(body, headers);
    const text = await response.text();
    expect(text.length).toBeLessThan(BUDGET + SLACK);
    const contentType = response.headers.get('content-type') ?? '';
    const answers = contentType.includes('multipart')
      ? parts(text, contentType)
      : ([JSON.parse(text)].flat() as Answer[]);
    expect(codesOf(answers).filter((code) => code === 'RESPONSE_TOO_LARGE')).toHaveLength(1);
    return text;
  };

  const records = (fields: string): string =>
    `{ dataset(code: ${LARGEST_DATASET}) { records(first: 500) { ${fields} } } }`;

  it('refuses 63 aliases of one records page at the budget: the page is made once, its lists are charged each time', async () => {
    await refusedWithin({ query: records(aliased(63, (i) => `a${i}: edges { node }`)) });
  });

  it('charges aliases reached through fragments, inline fragments and nodes beside edges the same', async () => {
    const fragments = aliased(31, (i) => `f${i}: edges { node }`);
    await refusedWithin({
      query: `{ dataset(code: ${LARGEST_DATASET}) { records(first: 500) { ...Page ... on RecordConnection { ${aliased(31, (i) => `n${i}: edges { cursor node }`)} } } } }
        fragment Page on RecordConnection { ${fragments} }`,
    });
  });

  it('refuses the typed form: aliased nodes and edges of one typed page', async () => {
    await refusedWithin({
      query: `{ typedRecords { ${TYPED} { rows(first: 500) { ${aliased(60, (i) => `n${i}: nodes { node }`)} } } } }`,
    });
    await refusedWithin({
      query: `{ typedRecords { ${TYPED} { rows(first: 500) { ${aliased(28, (i) => `e${i}: edges { cursor node { total node } }`)} } } } }`,
    });
  });

  it('refuses the Relay-shaped form: aliased nodes and edges of one `rows` page, which fits when asked for twice', async () => {
    const rows = (fields: string): string => `{ dataset(code: ${LARGEST_DATASET}) { rows(first: 500) { ${fields} } } }`;
    const twice = (await (
      await stack().post({ query: rows(aliased(2, (i) => `n${i}: nodes { values }`)) })
    ).json()) as {
      data: { dataset: { rows: { n0: unknown[]; n1: unknown[] } } };
      errors?: unknown;
    };
    expect(twice.errors).toBeUndefined();
    expect([twice.data.dataset.rows.n0.length, twice.data.dataset.rows.n1.length]).toEqual([500, 500]);
    await refusedWithin({ query: rows(aliased(63, (i) => `n${i}: nodes { values }`)) });
    await refusedWithin({ query: rows(aliased(40, (i) => `e${i}: edges { cursor node { values } }`)) });
  });

  it('shares the budget between the operations of a batch', async () => {
    // Each operation alone is well within the budget; the five together are not.
    const operation = { query: records(aliased(12, (i) => `a${i}: edges { node }`)) };
    const alone = await stack().post(operation);
    const aloneText = await alone.text();
    expect((JSON.parse(aloneText) as Answer).errors).toBeUndefined();
    expect(aloneText.length).toBeGreaterThan(BUDGET / 5);
    await refusedWithin(Array.from({ length: 5 }, () => operation));
  });

  it('charges incremental parts: @stream(initialCount: 0) on aliased edges and @defer of records', async () => {
    await refusedWithin(
      { query: records(aliased(48, (i) => `s${i}: edges @stream(initialCount: 0) { node }`)) },
      { accept: 'multipart/mixed' },
    );
    await refusedWithin(
      {
        query: `{ dataset(code: ${LARGEST_DATASET}) { ${aliased(20, (i) => `... @defer(label: "d${i}") { d${i}: records(first: 500) { edges { node } } }`)} } }`,
      },
      { accept: 'multipart/mixed' },
    );
  });

  it('serves what fits whole and stops at the field that tips it: the payload beside records', async () => {
    const response = await stack().post({
      query: `{ dataset(code: ${LARGEST_DATASET}) { code payload records(first: 10) { edges { cursor } } } }`,
    });
    const answer = (await response.json()) as { data: { dataset: { code: string; payload: unknown } | null } } & Answer;
    // The 3.7 MB body is over the 2 MB budget: the field is null with the code, its siblings are served.
    expect(answer.data.dataset?.code).toBe(LARGEST_DATASET);
    expect(answer.data.dataset?.payload).toBeNull();
    expect(codesOf([answer])).toEqual(['RESPONSE_TOO_LARGE']);
  });

  it('writes an answer over a megabyte in slices that read back as the same data', async () => {
    const page = async (copies: number): Promise<{ text: string; pages: unknown[] }> => {
      const response = await stack().post({ query: records(aliased(copies, (i) => `a${i}: edges { cursor node }`)) });
      const text = await response.text();
      const answer = JSON.parse(text) as { data: { dataset: { records: Record<string, unknown> } } } & Answer;
      expect(answer.errors).toBeUndefined();
      return { text, pages: Object.values(answer.data.dataset.records) };
    };
    const one = await page(1);
    const many = await page(9);
    expect(many.text.length).toBeGreaterThan(1_048_576);
    for (const copy of many.pages) expect(copy).toEqual(one.pages[0]);
  });

  it('writes a deferred part over a megabyte in slices too', async () => {
    const selection = aliased(9, (i) => `a${i}: edges { cursor node }`);
    const whole = (await (await stack().post({ query: records(selection) })).json()) as {
      data: { dataset: { records: unknown } };
    };
    const response = await stack().post(
      {
        query: `{ dataset(code: ${LARGEST_DATASET}) { code ... @defer(label: "page") { records(first: 500) { ${selection} } } } }`,
      },
      { accept: 'multipart/mixed' },
    );
    const text = await response.text();
    expect(text.length).toBeGreaterThan(1_048_576);
    const deferred = parts(text, response.headers.get('content-type') ?? '').flatMap(
      (part) => (part as { incremental?: { data: { records: unknown } }[] }).incremental ?? [],
    );
    expect(deferred.map((part) => part.data.records)).toEqual([whole.data.dataset.records]);
  });

  it('answers a small request in full: the budget is the answer’s, not a guess from the document', async () => {
    const response = await stack().post({ query: records(aliased(5, (i) => `a${i}: edges { node }`)) });
    expect(((await response.json()) as Answer).errors).toBeUndefined();
  });
});

describe('a subscription', () => {
  const stack = useStack({ limits: { maxResponseBytes: BUDGET, maxCost: UNPRICED } });

  it('has the whole budget for each event: two events that each fit are served whole, one over it is refused once', async () => {
    const server = await listen(stack().app);
    const revise = async (): Promise<void> => {
      const revision = await fetch(`${stack().simulator.url}/__simulator/datasets/${LARGEST_DATASET}/revisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(revision.status).toBe(201);
      await stack().live.watcher.check();
    };
    await stack().live.watcher.check();
    const event = (copies: number): string =>
      `subscription { datasetChanged(codes: [${LARGEST_DATASET}]) { dataset { records(first: 500) { ${aliased(copies, (i) => `a${i}: edges { node }`)} } } } }`;
    // About 1.3 MB an event: two together would be over the 2 MB budget.
    const fitting = await subscribe(`${server.origin}/graphql`, event(9));
    const over = await subscribe(`${server.origin}/graphql`, event(40));
    try {
      for (let round = 0; round < 2; round++) {
        await revise();
        const served = await fitting.next();
        expect(served.errors).toBeUndefined();
        expect(JSON.stringify(served).length).toBeGreaterThan(BUDGET / 2);
        const refused = await over.next();
        expect(JSON.stringify(refused).length).toBeLessThan(BUDGET + SLACK);
        expect(codesOf([refused as Answer])).toEqual(['RESPONSE_TOO_LARGE']);
      }
    } finally {
      fitting.close();
      over.close();
      await server.close();
    }
  });
});

describe('with a budget smaller than what keys alone can write', () => {
  const SMALL_BUDGET = 256 * 1024;
  const small = useStack({ limits: { maxResponseBytes: SMALL_BUDGET, maxCost: UNPRICED } });

  it('charges the keys and __typename of objects that no resolver writes', async () => {
    // 500 edges, each with 60 response keys of __typename: no leaf resolver runs, the objects' keys are the answer.
    const response = await small().post({
      query: `{ dataset(code: ${LARGEST_DATASET}) { ${aliased(4, (r) => `r${r}: records(first: 500, select: ["TOTAL"]) { edges { ${aliased(14, (i) => `t${i}: __typename`)} } }`)} } }`,
    });
    const text = await response.text();
    expect(text.length).toBeLessThan(SMALL_BUDGET + SLACK);
    expect(codesOf([JSON.parse(text) as Answer])).toEqual(['RESPONSE_TOO_LARGE']);
  });
});

describe('payload fields are priced by what they return, wherever their Dataset is reached', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 } });
  const costRefusal = async (query: string, variables?: Record<string, unknown>): Promise<void> => {
    const response = await stack().post({ query, variables });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer;
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'cost' });
  };
  const SMALL = 'ODS_COUNT_TEACHER_BY_YEAR';
  const payloads = (count: number): string => aliased(count, (i) => `p${i}: payload`);

  it('knows the body sizes once read', async () => {
    const answer = (await (await stack().post({ query: '{ datasets { code payload } }' })).json()) as Answer;
    expect(answer.errors).toBeUndefined();
  });

  it('refuses the largest payload a hundred times through nodes(ids:), with an inline fragment or a named one', async () => {
    const ids = JSON.stringify(Array.from({ length: 100 }, () => `ds_${LARGEST_DATASET}`));
    await costRefusal(`{ nodes(ids: ${ids}) { ... on Dataset { payload } } }`);
    await costRefusal(`{ nodes(ids: ${ids}) { ...Body } } fragment Body on Dataset { payload }`);
    await costRefusal('query Q($ids: [ID!]!) { nodes(ids: $ids) { ... on Dataset { payload } } }', {
      ids: JSON.parse(ids) as unknown,
    });
  });

  it('prices nodes(ids:) once per id asked: 100 ids of a 30-field selection over the limit, 10 within', async () => {
    const selection = `... on Dataset { ${aliased(30, (i) => `t${i}: title`)} }`;
    const idsOf = (count: number): string => JSON.stringify(Array.from({ length: count }, () => `ds_${SMALL}`));
    await costRefusal(`{ nodes(ids: ${idsOf(100)}) { ${selection} } }`);
    await costRefusal('query Q($ids: [ID!]!) { nodes(ids: $ids) { ' + selection + ' } }', {
      ids: JSON.parse(idsOf(100)) as unknown,
    });
    const ten = (await (
      await stack().post({ query: `{ nodes(ids: ${idsOf(10)}) { ${selection} } }` })
    ).json()) as Answer;
    expect(ten.errors).toBeUndefined();
  });

  it('refuses seven aliases of the largest payload through node(id:), typedRecords and a subscription event, as through dataset(code:)', async () => {
    await costRefusal(`{ dataset(code: ${LARGEST_DATASET}) { ${payloads(7)} } }`);
    await costRefusal(
      `{ ${aliased(7, (i) => `n${i}: node(id: "ds_${LARGEST_DATASET}") { ... on Dataset { payload } }`)} }`,
    );
    await costRefusal(`{ typedRecords { ${TYPED} { dataset { ${payloads(7)} } } } }`);
    await costRefusal(`subscription { datasetChanged { dataset { ${payloads(7)} } } }`);
  });

  it('admits the same shapes over a small dataset: the price follows the dataset the document names', async () => {
    const ids = JSON.stringify(Array.from({ length: 20 }, () => `ds_${SMALL}`));
    const answer = (await (
      await stack().post({ query: `{ nodes(ids: ${ids}) { ... on Dataset { payload } } }` })
    ).json()) as Answer;
    expect(answer.errors).toBeUndefined();
    const typed = (await (
      await stack().post({ query: `{ typedRecords { odsCountTeacherByYear { dataset { ${payloads(7)} } } } }` })
    ).json()) as Answer;
    expect(typed.errors).toBeUndefined();
  });
});
