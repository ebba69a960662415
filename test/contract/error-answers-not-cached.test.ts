import { beforeEach, describe, expect, it } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import type { Fault } from '../../src/simulator/faults.js';
import { useListeningStack } from '../helpers/stack.js';
import { responseCacheHitsIn } from '../helpers/prometheus.js';

// Every test's answer would be public for 300 s were it not for its error.
const CACHING = { ttlS: 300, swrS: 3_600, staleIfErrorS: 0 };
const SIBLING: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';
const LARGEST: DatasetCode = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';

type Listening = ReturnType<ReturnType<typeof useListeningStack>>;

async function get(listening: Listening, query: string): Promise<{ response: Response; codes: string[] }> {
  const response = await fetch(`${listening.origin}/graphql?query=${encodeURIComponent(query)}`, {
    headers: { accept: 'application/graphql-response+json' },
  });
  const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  return { response, codes: (body.errors ?? []).map((error) => error.extensions?.code ?? '') };
}

async function cacheHits(listening: Listening): Promise<number> {
  return responseCacheHitsIn(await listening.stack.metrics.registry.metrics());
}

/** Asks the same GET twice: each answer carries `code`, says no-store, has no ETag, and none is a stored answer. */
async function expectNeverKept(listening: Listening, query: string, code: string): Promise<void> {
  const before = await cacheHits(listening);
  for (let round = 0; round < 2; round++) {
    const { response, codes } = await get(listening, query);
    expect(codes).toContain(code);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toBeNull();
  }
  expect(await cacheHits(listening)).toBe(before);
}

const payloadOf = (code: DatasetCode, alias = 'failing'): string => `${alias}: dataset(code: ${code}) { payload }`;

describe('a GET answer with any error is no-store and never stored, whatever its status', () => {
  const listening = useListeningStack({ cache: CACHING, timeoutMs: 1_500, retries: 0, breakerCooldownS: 0 });
  beforeEach(() => {
    listening().stack.simulator.clearFaults();
  });

  it('the same kind of answer without an error is public, so each case below is refused for its error', async () => {
    const { response, codes } = await get(listening(), `{ ${payloadOf(SIBLING, 'ok')} }`);
    expect(codes).toEqual([]);
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(response.headers.get('etag')).not.toBeNull();
  });

  it.each<[string, DatasetCode, Fault, string]>([
    ['an upstream 404', 'ODS_COUNT_STUDENT_BY_MAJOR', { status: 404 }, 'UPSTREAM_HTTP_ERROR'],
    ['an upstream 500', 'ODS_COUNT_SCHOOL_BY_JURISDICTION', { status: 500 }, 'UPSTREAM_HTTP_ERROR'],
    ['a slow upstream', 'ODS_COUNT_GRADUATE_BY_YEAR', { latencyMs: 4_000 }, 'UPSTREAM_TIMEOUT'],
    ['a body that is not JSON', 'V10_DUPWITH', { malformedBody: true }, 'UPSTREAM_BAD_RESPONSE'],
  ])('%s, alone and beside a field that succeeded (200)', async (_, code, fault, expected) => {
    listening().stack.simulator.setFault(code, fault);
    await expectNeverKept(listening(), `{ ${payloadOf(code)} }`, expected);
    await expectNeverKept(listening(), `{ ${payloadOf(SIBLING, 'ok')} ${payloadOf(code)} }`, expected);
    // Once the upstream recovers, the same URL answers the data: no cache kept the failure.
    listening().stack.simulator.clearFaults();
    const recovered = await get(listening(), `{ ${payloadOf(code)} }`);
    expect(recovered.codes).toEqual([]);
    expect(recovered.response.headers.get('cache-control')).toMatch(/^public/);
  });

  it('a refused input inside an answer (BAD_USER_INPUT from a resolver, HTTP 200)', async () => {
    const nested = `{ ${payloadOf(SIBLING, 'ok')} bad: dataset(code: ${SIBLING}) { payload(query: { a: { b: 1 } }) } }`;
    const { response } = await get(listening(), nested);
    expect(response.status).toBe(200);
    await expectNeverKept(listening(), nested, 'BAD_USER_INPUT');
  });

  it('an unknown enum value (a 400 refused by validation)', async () => {
    const { response } = await get(listening(), '{ dataset(code: NOT_A_CODE) { code } }');
    expect(response.status).toBe(400);
    await expectNeverKept(listening(), '{ dataset(code: NOT_A_CODE) { code } }', 'GRAPHQL_VALIDATION_FAILED');
  });
});

describe('SERVER_BUSY, which any caller can provoke, is never served to the next one', () => {
  // One byte of in-flight budget: an answer past its free first 256 KB (the largest dataset's payload) is refused as
  // busy, and the catalogue still answers.
  const listening = useListeningStack({ cache: CACHING, limits: { maxInFlightResponseBytes: 1 } });

  it('an answer whose payload is SERVER_BUSY is no-store, alone or beside a catalogue field', async () => {
    await expectNeverKept(listening(), `{ ${payloadOf(LARGEST)} }`, 'SERVER_BUSY');
    await expectNeverKept(listening(), `{ datasets { code } ${payloadOf(LARGEST)} }`, 'SERVER_BUSY');
    const catalogue = await get(listening(), '{ datasets { code } }');
    expect(catalogue.response.headers.get('cache-control')).toMatch(/^public/);
  });
});
