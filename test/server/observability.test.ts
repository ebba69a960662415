import { describe, expect, it, vi } from 'vitest';
import { buildInfo } from '../../src/server/observability/build-info.js';
import { loggedAddress } from '../../src/server/observability/access-log.js';
import { parsePrometheus, sampled } from '../helpers/prometheus.js';
import { DEFAULTS } from '../helpers/settings.js';
import { useListeningStack } from '../helpers/stack.js';

const REDIS_URL = process.env['REDIS_URL'];

type Line = Record<string, unknown>;

describe('logs an operator can use', () => {
  // A rate limit of 2 per window, by address (X-Forwarded-For is trusted), so one address can be refused.
  const listening = useListeningStack({
    cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 },
    rateLimit: { points: 2, windowS: 600, trustProxy: true },
  });
  let address = 0;
  // Each request from its own documentation address (RFC 5737), unless told, so only the 429 case spends a budget.
  const freshAddress = (): string => `198.51.100.${(address++ % 250) + 1}`;

  async function send(
    init: { method?: string; headers?: Record<string, string>; body?: string; path?: string } = {},
  ): Promise<{ status: number; requestId: string; line: Line; lines: Line[] }> {
    const { origin, stack } = listening();
    const response = await fetch(`${origin}${init.path ?? '/graphql'}`, {
      method: init.method ?? 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        'x-forwarded-for': freshAddress(),
        ...init.headers,
      },
      body: init.body,
    });
    await response.arrayBuffer();
    const requestId = response.headers.get('x-request-id') ?? '';
    expect(requestId).not.toBe('');
    // The line is written once the answer has left: wait for it rather than for a time.
    const lines = await vi.waitFor(() => {
      const found = stack.logLines.filter((line) => line['requestId'] === requestId);
      expect(found.some((line) => line['msg'] === 'request')).toBe(true);
      return found;
    });
    const line = lines.find((candidate) => candidate['msg'] === 'request') ?? {};
    return { status: response.status, requestId, line, lines };
  }
  const query = (text: string): string => JSON.stringify({ query: text });

  it('writes one access line per request, with what an operator reads, and the operation merged into it', async () => {
    const answered = await send({
      body: query('query Listed { datasets { no } }'),
      headers: { 'user-agent': 'observability-test/1.0', 'x-forwarded-for': '203.0.113.7' },
    });
    expect(answered.status).toBe(200);
    expect(answered.lines).toHaveLength(1);
    expect(answered.line).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'POST',
      path: '/graphql',
      status: 200,
      clientAddress: '203.0.113.7',
      userAgent: 'observability-test/1.0',
      operationName: 'Listed',
      caller: 'anonymous',
    });
    expect(answered.line['bytes']).toBeGreaterThan(100);
    expect(typeof answered.line['ms']).toBe('number');
    expect(answered.line).not.toHaveProperty('errorCodes');

    // The query string is never on the line: a GET carries the whole document there.
    const get = await send({
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent('query Secretive { datasets { no } }')}`,
    });
    expect(get.line).toMatchObject({ method: 'GET', path: '/graphql', status: 200, operationName: 'Secretive' });
  });

  it("names the client on the access lines of its key's requests: what a leaked key did is in the logs", async () => {
    const { origin } = listening();
    const registration = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
      body: query(
        'mutation { registerClient(input: { name: "Logged app", contactEmail: "log@example.org" }) { apiKey client { id } } }',
      ),
    });
    const { apiKey, client } = (
      (await registration.json()) as { data: { registerClient: { apiKey: string; client: { id: string } } } }
    ).data.registerClient;
    const keyed = await send({
      body: query('query Keyed { datasets { no } }'),
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(keyed.line).toMatchObject({ status: 200, operationName: 'Keyed', caller: `client:${client.id}` });
    expect(JSON.stringify(keyed.line)).not.toContain(apiKey);
  });

  it('logs refused requests too, with their codes at info, and gives each its x-request-id', async () => {
    const cases: { name: string; request: Parameters<typeof send>[0]; status: number; codes?: string[] }[] = [
      {
        name: 'an unknown key',
        request: { body: query('{ datasets { no } }'), headers: { authorization: 'Bearer not-a-key-of-ours' } },
        status: 401,
        codes: ['UNAUTHENTICATED'],
      },
      {
        name: 'a form POST without the CSRF header',
        request: { body: 'query=%7B__typename%7D', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        status: 403,
        codes: ['CSRF_HEADER_REQUIRED'],
      },
      { name: 'a method GraphQL has not', request: { method: 'PUT', body: query('{ __typename }') }, status: 405 },
      {
        name: 'a body over LIMIT_MAX_BODY_BYTES',
        request: { body: JSON.stringify({ query: `{ __typename } #${'x'.repeat(DEFAULTS.limits.maxBodyBytes)}` }) },
        status: 413,
      },
      {
        name: 'a document that does not parse',
        request: { body: query('{ datasets { no ') },
        status: 400,
        codes: ['GRAPHQL_PARSE_FAILED'],
      },
      {
        name: 'a document that does not validate',
        request: { body: query('{ datasetz { no } }') },
        status: 400,
        codes: ['GRAPHQL_VALIDATION_FAILED'],
      },
      {
        name: 'a domain error in an executed operation',
        request: { body: query('query Refused { useRequests { id } }') },
        status: 200,
        codes: ['UNAUTHENTICATED'],
      },
    ];
    for (const { name, request, status, codes } of cases) {
      const answered = await send(request);
      expect({ name, status: answered.status }).toEqual({ name, status });
      expect({ name, lines: answered.lines.length }).toEqual({ name, lines: 1 });
      expect(answered.line).toMatchObject({ level: 30, status, ...(codes === undefined ? {} : { errorCodes: codes }) });
    }

    // The third request from one address within the window: 429, logged with its code. Three questions, so three
    // misses: a stored answer costs a fraction of a token.
    const one = { 'x-forwarded-for': '203.0.113.99' };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await send({ body: query(`{ a${i}: __typename }`), headers: one })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = listening()
      .stack.logLines.filter((line) => line['msg'] === 'request' && line['clientAddress'] === '203.0.113.99')
      .at(-1);
    expect(refused).toMatchObject({ status: 429, errorCodes: ['RATE_LIMITED'] });

    // None of these is an operator's business: nothing at error level, no stack.
    expect(listening().stack.logLines.filter((line) => Number(line['level']) >= 50)).toEqual([]);
  });

  it('keeps probes and scrapes at debug, and reuses a plain request id the caller sent', async () => {
    const probe = await send({ method: 'GET', path: '/health' });
    expect(probe.line).toMatchObject({ level: 20, path: '/health', status: 200 });
    const mine = await send({ body: query('{ __typename }'), headers: { 'x-request-id': 'caller-chosen.42' } });
    expect(mine.requestId).toBe('caller-chosen.42');
  });
});

describe('metrics an operator can use', () => {
  const listening = useListeningStack({
    cache: {
      ttlS: 300,
      swrS: 3600,
      staleIfErrorS: 86_400,
      ...(REDIS_URL === undefined ? {} : { redisUrl: REDIS_URL, keyPrefix: `observability-${process.pid}:` }),
    },
  });
  const post = async (body: unknown, headers: Record<string, string> = {}): Promise<number> => {
    const response = await fetch(`${listening().origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  };
  const scrape = async (): Promise<string> => (await fetch(`${listening().origin}/metrics`)).text();

  it('times and counts errors by operation, counts every HTTP answer, and shows the build and the process', async () => {
    expect(await post({ query: 'query Timed { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }' })).toBe(200);
    expect(await post({ query: 'query Refused { useRequests { id } }' })).toBe(200);
    expect(await post({ query: `{ __typename } #${'x'.repeat(DEFAULTS.limits.maxBodyBytes)}` })).toBe(413);
    const text = await scrape();

    expect(sampled(text, 'graphql_operation_duration_seconds_count', { operation: 'Timed', kind: 'query' })).toBe(1);
    expect(sampled(text, 'graphql_operation_errors_total', { operation: 'Refused', code: 'UNAUTHENTICATED' })).toBe(1);
    expect(sampled(text, 'graphql_operation_errors_total', { operation: 'Timed' })).toBe(0);
    expect(sampled(text, 'http_requests_total', { method: 'POST', status: '200' })).toBe(2);
    expect(sampled(text, 'http_requests_total', { method: 'POST', status: '413' })).toBe(1);
    const { version, commit } = buildInfo();
    expect(sampled(text, 'build_info', { version, commit, node: process.version })).toBe(1);
    // The payload read is held in this process's memory; nothing is in flight once it was answered.
    expect(sampled(text, 'upstream_cache_bytes', { tier: 'local' })).toBeGreaterThan(0);
    expect(sampled(text, 'response_bytes_in_flight')).toBe(0);
    expect(sampled(text, 'upstream_cache_evictions_total')).toBe(0);
    expect(sampled(text, 'store_errors_total')).toBe(0);
    for (const name of ['process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds'])
      expect(parsePrometheus(text).some((sample) => sample.name === name)).toBe(true);
  });

  it.skipIf(REDIS_URL === undefined)('times Redis commands (REDIS_URL)', async () => {
    expect(await post({ query: '{ dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) { payload } }' })).toBe(200);
    const text = await scrape();
    expect(sampled(text, 'redis_command_duration_seconds_count')).toBeGreaterThan(0);
    expect(sampled(text, 'redis_command_errors_total')).toBe(0);
  });
});

describe('what access lines keep of a client address (ACCESS_LOG_CLIENT_ADDRESS)', () => {
  it('the whole address, its network (IPv4 /24, IPv6 /48), or nothing', () => {
    expect(loggedAddress('203.0.113.7', 'full')).toBe('203.0.113.7');
    expect(loggedAddress('203.0.113.7', 'truncated')).toBe('203.0.113.0/24');
    expect(loggedAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348', 'truncated')).toBe('2001:db8:85a3::/48');
    expect(loggedAddress('2001:db8::1', 'truncated')).toBe('2001:db8:0::/48');
    expect(loggedAddress('::1', 'truncated')).toBe('0:0:0::/48');
    expect(loggedAddress('::ffff:203.0.113.7', 'truncated')).toBe('203.0.113.0/24');
    expect(loggedAddress('203.0.113.7', 'off')).toBeUndefined();
  });
});
