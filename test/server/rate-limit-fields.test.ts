import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_PATH } from '../../src/server/app.js';
import { useListeningStack } from '../helpers/stack.js';
import { flatHeaders } from '../helpers/headers.js';
import { responseCacheHits } from '../helpers/prometheus.js';
import { bearer, OPERATOR } from '../helpers/callers.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const CATALOGUE = '{ datasets { no code } }';

describe('RateLimit and RateLimit-Policy on every GraphQL answer', () => {
  // Nothing refills while a test runs: the limiter's clock (and the response cache's) moves only when told.
  let clock = Date.parse('2026-11-23T00:00:00Z');
  const listening = useListeningStack({
    cache: { ttlS: 60, swrS: 0, staleIfErrorS: 0, now: () => clock },
    rateLimit: {
      points: 3,
      windowS: 60,
      trustProxy: true,
      now: () => clock,
      registration: { points: 1, windowS: 3_600 },
      authenticationFailures: { points: 2, windowS: 60 },
      upstreamFetches: { points: 1, windowS: 60 },
    },
    // Stored on its first miss, so that one request primes it.
    responseCacheMinUses: 1,
  });

  async function send(init: {
    ip: string;
    method?: 'GET' | 'POST';
    query?: string;
    headers?: Record<string, string>;
    variables?: unknown;
  }): Promise<Answer> {
    const { origin } = listening();
    const query = init.query ?? CATALOGUE;
    const method = init.method ?? 'POST';
    const answer = await undiciRequest(
      method === 'GET' ? `${origin}${GRAPHQL_PATH}?query=${encodeURIComponent(query)}` : `${origin}${GRAPHQL_PATH}`,
      {
        method,
        headers: {
          accept: 'application/graphql-response+json',
          'x-forwarded-for': init.ip,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : { 'x-graphql-yoga-csrf': '1' }),
          ...init.headers,
        },
        body: method === 'POST' ? JSON.stringify({ query, variables: init.variables }) : undefined,
      },
    );
    return { status: answer.statusCode, headers: flatHeaders(answer.headers), body: await answer.body.text() };
  }

  const hits = (): Promise<number> => responseCacheHits(listening().origin);

  it('counts down with each operation, and the 429 says none are left, with Retry-After', async () => {
    const answers = [];
    // Four questions, so four misses: a stored answer would cost less (see operation-costs.test.ts).
    for (let i = 0; i < 4; i++) answers.push(await send({ ip: '198.51.100.1', query: `{ a${i}: datasets { no } }` }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['ratelimit-policy'])).toEqual(Array(4).fill('"default";q=3;w=60'));
    // Three per minute: a token every 20 s, so the bucket is full again 20 s per token taken.
    expect(answers.map((a) => a.headers['ratelimit'])).toEqual([
      '"default";r=2;t=20',
      '"default";r=1;t=40',
      '"default";r=0;t=60',
      '"default";r=0;t=60',
    ]);
    expect(answers[3]?.headers['retry-after']).toBe('20');
    expect(JSON.parse(answers[3]?.body ?? '{}')).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });
  });

  it('gives answers from the response cache the fields of the caller asking, never those of the stored answer', async () => {
    const before = await hits();
    const miss = await send({ ip: '198.51.100.2', method: 'GET' });
    const sameCallerHit = await send({ ip: '198.51.100.2', method: 'GET' });
    const otherCallerHit = await send({ ip: '198.51.100.3', method: 'GET' });
    expect(await hits()).toBe(before + 2);
    // A hit costs an eighth of a token (OPERATION_COSTS.stored): 3 - 1 - 1/8 leaves 1 whole token, and 1.125 tokens
    // come back in 22.5 s; 3 - 1/8 leaves 2, full again in 2.5 s.
    expect([miss, sameCallerHit, otherCallerHit].map((a) => a.headers['ratelimit'])).toEqual([
      '"default";r=2;t=20',
      '"default";r=1;t=23',
      '"default";r=2;t=3',
    ]);
    for (const answer of [miss, sameCallerHit, otherCallerHit]) {
      expect(answer.body).toBe(miss.body);
      expect(answer.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
      // Still one public answer for every anonymous caller: the fields add no Vary and change no Cache-Control.
      expect(answer.headers['cache-control']).toMatch(/^public, max-age=\d+/);
      expect(answer.headers['vary']).toBe(miss.headers['vary']);
    }
    expect(miss.headers['vary']).not.toMatch(/forwarded|ratelimit/i);
    // A 304 revalidation is an answer too.
    const revalidated = await send({
      ip: '198.51.100.4',
      method: 'GET',
      headers: { 'if-none-match': miss.headers['etag'] ?? '' },
    });
    expect(revalidated.status).toBe(304);
    // A sixteenth of a token (OPERATION_COSTS.notModified), back in 1.25 s.
    expect(revalidated.headers['ratelimit']).toBe('"default";r=2;t=2');
  });

  it("reports a client's own quota, set by the operator, applies it, and keeps its answers private", async () => {
    const registered = await send({
      ip: '198.51.100.5',
      query: 'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey client { id } } }',
      variables: { input: { name: 'Quota App', contactEmail: 'quota@example.org' } },
    });
    const { apiKey, client } = (
      JSON.parse(registered.body) as { data: { registerClient: { apiKey: string; client: { id: string } } } }
    ).data.registerClient;
    const asClient = bearer(apiKey);
    expect((await send({ ip: '198.51.100.6', headers: asClient })).headers['ratelimit-policy']).toBe(
      '"default";q=3;w=60',
    );

    const quota = await send({
      ip: '198.51.100.7',
      query:
        'mutation ($id: ID!) { setClientQuota(input: { id: $id, rateLimitPoints: 5 }) { client { rateLimitPoints } } }',
      variables: { id: client.id },
      headers: OPERATOR,
    });
    expect(JSON.parse(quota.body)).toEqual({ data: { setClientQuota: { client: { rateLimitPoints: 5 } } } });
    // The operator is not limited, so its answers carry no fields.
    expect(quota.headers['ratelimit']).toBeUndefined();

    // A window later the bucket has refilled up to its new size.
    clock += 60_000;
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await send({ ip: '198.51.100.6', method: 'GET', headers: asClient }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['ratelimit'])).toEqual([
      '"client";r=4;t=12',
      '"client";r=3;t=24',
      '"client";r=2;t=36',
      '"client";r=1;t=48',
      '"client";r=0;t=60',
      '"client";r=0;t=60',
    ]);
    for (const answer of answers) {
      expect(answer.headers['ratelimit-policy']).toBe('"client";q=5;w=60');
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('names the budget of failed authentications on a 401, and on the 429 once it is spent', async () => {
    const wrongKey = { authorization: 'Bearer tegk_not-the-key-of-anyone' };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await send({ ip: '198.51.100.80', headers: wrongKey }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 429]);
    // Only that budget: a bad credential is refused before an operation is paid for.
    expect(answers.map((a) => a.headers['ratelimit-policy'])).toEqual(Array(3).fill('"authentication";q=2;w=60'));
    // Two failures a minute: one comes back every 30 s; the refused guess is counted too, and owes its token.
    expect(answers.map((a) => a.headers['ratelimit'])).toEqual([
      '"authentication";r=1;t=30',
      '"authentication";r=0;t=60',
      '"authentication";r=0;t=90',
    ]);
    expect(answers[2]?.headers['retry-after']).toBe('30');
  });

  it("charges a disabled client's 403 to the address it comes from, and names that budget", async () => {
    const { access } = listening().stack;
    const { apiKey, client } = await access.registerClient({ name: 'Disabled App', contactEmail: 'off@example.org' });
    await access.setClientDisabled({ clientId: client.id, disabled: true, actor: 'test' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send({ ip: '198.51.100.81', headers: bearer(apiKey) }));
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 429]);
    expect(answers.map((a) => a.headers['ratelimit'])).toEqual([
      '"default";r=2;t=20',
      '"default";r=1;t=40',
      '"default";r=0;t=60',
      '"default";r=0;t=60',
    ]);
    // It was the address's bucket: an anonymous question from there is refused as well.
    expect((await send({ ip: '198.51.100.81', query: '{ b: datasets { no } }' })).status).toBe(429);
  });

  it('names the operations budget on the answer for an unknown persisted query, whatever the client asks', async () => {
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } });
    const ask = (accept: string) =>
      undiciRequest(`${listening().origin}${GRAPHQL_PATH}?extensions=${encodeURIComponent(extensions)}`, {
        headers: { accept, 'x-forwarded-for': '198.51.100.82' },
      });
    const spec = await ask('application/graphql-response+json');
    const apolloIos = await ask('application/json');
    expect([spec.statusCode, apolloIos.statusCode]).toEqual([200, 200]);
    for (const answer of [spec, apolloIos]) {
      expect(await answer.body.text()).toContain('PERSISTED_QUERY_NOT_FOUND');
      expect(answer.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
    }
    expect([spec.headers['ratelimit'], apolloIos.headers['ratelimit']]).toEqual([
      '"default";r=2;t=20',
      '"default";r=1;t=40',
    ]);
  });

  it("names the registration budget beside the operations budget on registerClient, and on the registration's 429", async () => {
    const register = () =>
      send({
        ip: '198.51.100.83',
        query: 'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey } }',
        variables: { input: { name: 'NAT App', contactEmail: 'nat@example.org' } },
      });
    const first = await register();
    const second = await register();
    expect([first.status, second.status]).toEqual([200, 429]);
    expect(JSON.parse(second.body)).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });
    for (const answer of [first, second])
      expect(answer.headers['ratelimit-policy']).toBe('"default";q=3;w=60, "registration";q=1;w=3600');
    expect([first.headers['ratelimit'], second.headers['ratelimit']]).toEqual([
      '"default";r=2;t=20, "registration";r=0;t=3600',
      '"default";r=1;t=40, "registration";r=0;t=3600',
    ]);
    // The refusal's Retry-After is the registration budget's, not the operations budget's.
    expect(second.headers['retry-after']).toBe('3600');
  });

  it('names the budget of upstream fetches on an answer that sent a new question upstream, and on its refusal', async () => {
    const payload = (year: string) =>
      `{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload(query: { ACADEMIC_YEAR: "${year}" }) } }`;
    const fetched = await send({ ip: '198.51.100.84', query: payload('2561') });
    const refused = await send({ ip: '198.51.100.84', query: payload('2562') });
    expect(JSON.parse(fetched.body)).not.toHaveProperty('errors');
    expect(JSON.parse(refused.body)).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });
    for (const answer of [fetched, refused])
      expect(answer.headers['ratelimit-policy']).toBe('"default";q=3;w=60, "upstream";q=1;w=60');
    expect([fetched.headers['ratelimit'], refused.headers['ratelimit']]).toEqual([
      '"default";r=2;t=20, "upstream";r=0;t=60',
      '"default";r=1;t=40, "upstream";r=0;t=60',
    ]);
  });

  it("spends a download's upstream fetch budget on its miss alone: the same file again is a hit, a new question is refused", async () => {
    const download = async (year: string): Promise<Answer> => {
      const answer = await undiciRequest(
        `${listening().origin}/datasets/ODS_COUNT_TEACHER_BY_YEAR.csv?query.ACADEMIC_YEAR=${year}`,
        { headers: { 'x-forwarded-for': '198.51.100.86' } },
      );
      return { status: answer.statusCode, headers: flatHeaders(answer.headers), body: await answer.body.text() };
    };
    // Years no other test here asks of the upstream: the first is a miss.
    const fetched = await download('2563');
    const again = await download('2563');
    const refused = await download('2564');
    expect([fetched.status, again.status, refused.status]).toEqual([200, 200, 429]);
    expect(JSON.parse(refused.body)).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });
    // The hit names no upstream budget: it neither spent nor consulted one.
    expect([fetched.headers['ratelimit'], again.headers['ratelimit'], refused.headers['ratelimit']]).toEqual([
      '"default";r=2;t=20, "upstream";r=0;t=60',
      '"default";r=1;t=40',
      '"default";r=0;t=60, "upstream";r=0;t=60',
    ]);
  });

  it('lets a browser app read the fields of a refusal: CORS exposes them', async () => {
    const answer = await send({
      ip: '198.51.100.85',
      headers: { origin: 'https://app.example', authorization: 'Bearer tegk_wrong' },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers['ratelimit']).toBe('"authentication";r=1;t=30');
    expect(answer.headers['access-control-expose-headers']?.split(/,\s*/)).toEqual(
      expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'retry-after']),
    );
  });
});
