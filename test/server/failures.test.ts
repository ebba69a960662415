import type { ExecutionResult } from 'graphql';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findSummaryEndpoint } from '../../src/catalogue.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { graphql } from '../gql/index.js';
import { startStack, TEST_UPSTREAM_KEY, useStack } from '../helpers/stack.js';

const TwoDatasets = graphql(`
  query TwoDatasets {
    failing: dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {
      code
      payload
    }
    healthy: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      code
      payload
    }
  }
`);

const SummaryPayload = graphql(`
  query SummaryPayload {
    summaryEndpoint(endpointId: 84) {
      status
      payload(input: { ACADEMIC_YEAR: "2566" })
    }
  }
`);

function expectFailingFieldOnly(body: ExecutionResult<unknown>, code: string) {
  const data = body.data as { failing: { code: string; payload: unknown }; healthy: { payload: { data: unknown[] } } };
  expect(data.failing.code).toBe('ODS_COUNT_SCHOOL_BY_JURISDICTION');
  expect(data.failing.payload).toBeNull();
  expect(data.healthy.payload.data.length).toBeGreaterThan(0);
  expect(body.errors).toHaveLength(1);
  const [error] = body.errors ?? [];
  expect(error?.path).toEqual(['failing', 'payload']);
  expect(error?.extensions?.['code']).toBe(code);
  return error;
}

describe('upstream failures, each with its own code on its own field', () => {
  const stack = useStack({ timeoutMs: 1_200, acceptLanguage: 'en' });
  beforeAll(() => {
    // The healthy field must answer within the 1.2 s budget (retries of a 5xx included, on a loaded machine): its data is generated now, not on the first request.
    stack().simulator.datasetBody('ODS_COUNT_TEACHER_BY_YEAR');
  });
  beforeEach(() => {
    stack().simulator.clearFaults();
  });

  it('a hanging upstream: UPSTREAM_TIMEOUT', async () => {
    stack().simulator.setFault('ODS_COUNT_SCHOOL_BY_JURISDICTION', { hang: true });
    const { status, body } = await stack().execute(TwoDatasets);
    expect(status).toBe(200);
    const error = expectFailingFieldOnly(body, 'UPSTREAM_TIMEOUT');
    expect(error?.message).toBe('Upstream dataset ODS_COUNT_SCHOOL_BY_JURISDICTION did not answer within 1200 ms');
  });

  it('a slow body beyond the budget: UPSTREAM_TIMEOUT', async () => {
    stack().simulator.setFault('ODS_COUNT_SCHOOL_BY_JURISDICTION', { latencyMs: 3_000 });
    expectFailingFieldOnly((await stack().execute(TwoDatasets)).body, 'UPSTREAM_TIMEOUT');
  });

  it.each([500, 502, 503, 404, 429])('an HTTP %i: UPSTREAM_HTTP_ERROR with upstreamStatus', async (status) => {
    stack().simulator.setFault('ODS_COUNT_SCHOOL_BY_JURISDICTION', { status });
    const error = expectFailingFieldOnly((await stack().execute(TwoDatasets)).body, 'UPSTREAM_HTTP_ERROR');
    expect(error?.extensions?.['upstreamStatus']).toBe(status);
    expect(error?.message).toBe(`Upstream dataset ODS_COUNT_SCHOOL_BY_JURISDICTION answered HTTP ${status}`);
  });

  it('a body that is not JSON: UPSTREAM_BAD_RESPONSE, without the body in the message', async () => {
    stack().simulator.setFault('ODS_COUNT_SCHOOL_BY_JURISDICTION', { malformedBody: true });
    const { body, text } = await stack().execute(TwoDatasets);
    const error = expectFailingFieldOnly(body, 'UPSTREAM_BAD_RESPONSE');
    expect(error?.message).toBe(
      'Upstream dataset ODS_COUNT_SCHOOL_BY_JURISDICTION answered with a body that is not JSON',
    );
    expect(text).not.toContain('SyntaxError');
  });

  it('recovers on the next operation once the upstream does', async () => {
    // One attempt and two retries: three 503s exhaust them.
    stack().simulator.setFault('ODS_COUNT_SCHOOL_BY_JURISDICTION', { status: 503, times: 3 });
    expect((await stack().execute(TwoDatasets)).body.errors).toHaveLength(1);
    expect((await stack().execute(TwoDatasets)).body.errors).toBeUndefined();
  });

  it('never shows a stack trace or an internal detail to the client', async () => {
    stack().simulator.setFault('*', { malformedBody: true });
    const { text } = await stack().execute(TwoDatasets);
    expect(text).not.toMatch(/\s+at\s+\S+\s+\(|node_modules|undici|stack/i);
  });
});

describe('an upstream that cannot be reached', () => {
  // Port 1 (tcpmux) on loopback: privileged, and nothing here listens on it, so connections are refused.
  const stack = useStack({ baseUrl: 'http://127.0.0.1:1', acceptLanguage: 'en' });

  it('a refused connection: UPSTREAM_UNAVAILABLE on every payload, the catalogue intact', async () => {
    const { body } = await stack().execute(TwoDatasets);
    expect(body.data?.failing.code).toBe('ODS_COUNT_SCHOOL_BY_JURISDICTION');
    expect(body.data?.healthy.payload).toBeNull();
    expect(body.errors?.map((error) => error.extensions?.['code'])).toEqual([
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_UNAVAILABLE',
    ]);
    expect(body.errors?.[0]?.message).toMatch(/^Upstream dataset \w+ could not be reached$/);
  });
});

describe('the operator key', () => {
  const stack = useStack();

  it('an anonymous caller cannot read a summary payload: USE_NOT_APPROVED, and nothing is sent upstream', async () => {
    stack().simulator.resetRequests();
    const { body } = await stack().execute(SummaryPayload);
    expect(body.data?.summaryEndpoint?.status).toBe('NOT_REQUESTED');
    expect(body.data?.summaryEndpoint?.payload).toBeNull();
    expect(body.errors?.[0]?.extensions?.['code']).toBe('USE_NOT_APPROVED');
    expect(body.errors?.[0]?.path).toEqual(['summaryEndpoint', 'payload']);
    expect(stack().simulator.requestCount()).toBe(0);
  });

  it('is sent in the api-key header on summary calls and appears in no error and no log line', async () => {
    const endpoint = findSummaryEndpoint(84);
    if (endpoint === undefined) throw new Error('catalogue lacks 84');
    stack().simulator.resetRequests();
    const answer = await stack().upstream.postSummary(endpoint, { ACADEMIC_YEAR: '2566' });
    expect(answer.value).toMatchObject({ status: 200 });
    const [request] = stack().simulator.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/services/api/ods_count_personal_by_year/84');
    expect(request?.headers['api-key']).toBe(TEST_UPSTREAM_KEY);
    expect(JSON.parse(request?.body ?? '')).toEqual({ ACADEMIC_YEAR: '2566' });

    stack().simulator.setFault(84, { status: 500 });
    const failure = await stack()
      .upstream.postSummary(endpoint, {})
      .catch((error: unknown) => error);
    stack().simulator.clearFaults();
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(JSON.stringify(failure)).not.toContain(TEST_UPSTREAM_KEY);
    expect(String(failure)).not.toContain(TEST_UPSTREAM_KEY);
    expect(stack().logText()).toContain('upstream call failed');
    expect(stack().logText()).not.toContain(TEST_UPSTREAM_KEY);
  });

  it("a wrong key is the upstream's 401, reported as UPSTREAM_HTTP_ERROR", async () => {
    const endpoint = findSummaryEndpoint(83);
    if (endpoint === undefined) throw new Error('catalogue lacks 83');
    const other = await startStack({ simulator: { apiKey: 'a-different-key' } });
    try {
      const failure = await other.upstream.postSummary(endpoint, {}).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'UPSTREAM_HTTP_ERROR', upstreamStatus: 401 });
    } finally {
      await other.close();
    }
  });
});

describe('an HTTPS upstream', () => {
  const stack = useStack({ simulator: { tls: true } });

  it('is read over TLS when its CA is trusted (UPSTREAM_CA_FILE)', async () => {
    expect(stack().simulator.url).toMatch(/^https:\/\//);
    const { body } = await stack().execute(TwoDatasets);
    expect(body.errors).toBeUndefined();
    expect(body.data?.healthy.payload).toEqual(
      JSON.parse(stack().simulator.datasetBody('ODS_COUNT_TEACHER_BY_YEAR').toString('utf8')),
    );
  });

  it('is refused when the certificate is not trusted: UPSTREAM_UNAVAILABLE', async () => {
    const untrusting = await startStack({ baseUrl: stack().simulator.url, caPem: null });
    try {
      const { body } = await untrusting.execute(TwoDatasets);
      expect(body.errors?.map((error) => error.extensions?.['code'])).toEqual([
        'UPSTREAM_UNAVAILABLE',
        'UPSTREAM_UNAVAILABLE',
      ]);
    } finally {
      await untrusting.close();
    }
  });
});
