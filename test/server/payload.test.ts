import { describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { useStack } from '../helpers/stack.js';

const Payload = graphql(`
  query Payload($code: DatasetCode!, $query: JSONObject) {
    dataset(code: $code) {
      payload(query: $query)
    }
  }
`);

const AllPayloads = graphql(`
  query AllPayloads {
    datasets {
      code
      payload
    }
  }
`);

// The N+1 guard: the same (dataset, query) under aliases, inside the list, and with keys in another order.
const AliasedPayloads = graphql(`
  query AliasedPayloads {
    datasets {
      code
      payload
    }
    a: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      payload
    }
    b: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      payload
    }
    y1: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      payload(query: { ACADEMIC_YEAR: "2566", LIMIT: 5 })
    }
    y2: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      again: payload(query: { LIMIT: "5", ACADEMIC_YEAR: "2566" })
    }
    y3: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      payload(query: { ACADEMIC_YEAR: "2565" })
    }
  }
`);

const stack = useStack();

describe('dataset payloads', () => {
  it('is exactly the JSON the upstream served, for every dataset', async () => {
    stack().simulator.resetRequests();
    const { body } = await stack().execute(AllPayloads);
    expect(body.errors).toBeUndefined();
    const datasets = body.data?.datasets ?? [];
    expect(datasets).toHaveLength(13);
    for (const dataset of datasets) {
      expect(dataset.payload, dataset.code).toEqual(
        JSON.parse(stack().simulator.datasetBody(dataset.code).toString('utf8')),
      );
    }
    expect(stack().simulator.requestCount()).toBe(13);
  });

  it('passes the query through as a canonical query string', async () => {
    stack().simulator.resetRequests();
    const { body } = await stack().execute(Payload, {
      code: 'ODS_COUNT_TEACHER_BY_JURISDICTION',
      query: { JURISDICTION_ABBR: ['สพฐ.', 'สช.'], ACADEMIC_YEAR: 2566, verbose: true },
    });
    expect(body.errors).toBeUndefined();
    const [request] = stack().simulator.requests;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/services/v1/api/ODS_COUNT_TEACHER_BY_JURISDICTION');
    expect(request?.query).toBe(
      new URLSearchParams([
        ['ACADEMIC_YEAR', '2566'],
        ['JURISDICTION_ABBR', 'สพฐ.'],
        ['JURISDICTION_ABBR', 'สช.'],
        ['verbose', 'true'],
      ]).toString(),
    );
    // The simulator filters on the parameters it knows, so the answer proves they arrived intact.
    const payload = body.data?.dataset.payload as { data: { ACADEMIC_YEAR: string; JURISDICTION_ABBR: string }[] };
    expect(payload.data.length).toBe(2);
    expect(new Set(payload.data.map((row) => row.JURISDICTION_ABBR))).toEqual(new Set(['สพฐ.', 'สช.']));
    expect(payload.data.every((row) => row.ACADEMIC_YEAR === '2566')).toBe(true);
  });

  it('makes one upstream call per distinct (dataset, query) in an operation, whatever the aliases', async () => {
    stack().simulator.resetRequests();
    const { body } = await stack().execute(AliasedPayloads);
    expect(body.errors).toBeUndefined();
    // 13 unfiltered datasets (a and b share the list's call) + one for 2566 (y1 = y2) + one for 2565.
    expect(stack().simulator.requestCount()).toBe(15);
    expect(stack().simulator.requestCount('ODS_COUNT_TEACHER_BY_YEAR')).toBe(3);
    expect(body.data?.a.payload).toEqual(body.data?.b.payload);
    expect(body.data?.y1.payload).toEqual(body.data?.y2.again);
    expect(body.data?.y1.payload).not.toEqual(body.data?.y3.payload);
  });

  it('does not share calls between operations (loaders are per request)', async () => {
    stack().simulator.resetRequests();
    await stack().execute(Payload, { code: 'V10_DUPWITH' });
    await stack().execute(Payload, { code: 'V10_DUPWITH' });
    expect(stack().simulator.requestCount('V10_DUPWITH')).toBe(2);
  });

  it('sends distinct calls concurrently, not one after another', async () => {
    stack().simulator.resetRequests();
    // Every route holds its answer back until all 13 calls have arrived: a serial loader, with only one call open
    // at a time, would never get there.
    let release!: () => void;
    stack().simulator.setFault('*', { until: new Promise<void>((resolve) => (release = resolve)) });
    const pending = stack().execute(AllPayloads);
    await stack().simulator.whenReceived(13);
    expect(stack().simulator.requests.every((request) => request.status === undefined)).toBe(true);
    release();
    stack().simulator.clearFaults();
    const { body } = await pending;
    expect(body.errors).toBeUndefined();
    expect(body.data?.datasets).toHaveLength(13);
  });

  it('refuses a nested object or a null in query as BAD_USER_INPUT, before calling the upstream', async () => {
    stack().simulator.resetRequests();
    for (const query of [{ ACADEMIC_YEAR: { gte: 2560 } }, { ACADEMIC_YEAR: null }]) {
      const { status, body } = await stack().execute(Payload, { code: 'ODS_COUNT_TEACHER_BY_YEAR', query });
      expect(status).toBe(200);
      expect(body.data?.dataset.payload).toBeNull();
      expect(body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(body.errors?.[0]?.extensions?.['detail']).toContain('query.ACADEMIC_YEAR');
      expect(body.errors?.[0]?.path).toEqual(['dataset', 'payload']);
    }
    expect(stack().simulator.requestCount()).toBe(0);
  });

  it('refuses a query that is not a JSON object in validation, with HTTP 400', async () => {
    const response = await stack().post({
      query: '{ dataset(code: V10_DUPWITH) { payload(query: "ACADEMIC_YEAR=2566") } }',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions).toMatchObject({
      detail: expect.stringContaining('ACADEMIC_YEAR=2566') as unknown,
    });
  });
});
