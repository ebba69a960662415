import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_PATH } from '../src/server/app.js';
import { useListeningStack } from './helpers/stack.js';
import { bearer, OPERATOR } from './helpers/callers.js';

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
    rateLimit: { points: 3, windowS: 60, trustProxy: true, now: () => clock },
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
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers))
      headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
    return { status: answer.statusCode, headers, body: await answer.body.text() };
  }

  async function hits(): Promise<number> {
    const text = await (await fetch(`${listening().origin}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('graphql_response_cache_total{') && l.includes('result="hit"'));
    return Number(line?.split(' ').at(-1) ?? 0);
  }

  it('counts down with each operation, and the 429 says none are left, with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send({ ip: '198.51.100.1' }));
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
    expect([miss, sameCallerHit, otherCallerHit].map((a) => a.headers['ratelimit'])).toEqual([
      '"default";r=2;t=20',
      '"default";r=1;t=40',
      '"default";r=2;t=20',
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
    expect(revalidated.headers['ratelimit']).toBe('"default";r=2;t=20');
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
});
