import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_PATH } from '../../src/server/app.js';
import { OPERATION_COSTS } from '../../src/rate-limit/limiter.js';
import { backOffMs } from '../clients/back-off.js';
import { createWebSocketClient } from '../clients/setups.js';
import { fencedBlocks, readDoc } from '../helpers/docs.js';
import { DEFAULTS } from '../helpers/settings.js';
import { useListeningStack, type StackOptions } from '../helpers/stack.js';

/**
 * What docs/app-developers/limits.md tells an app about its budgets, against the server: the table of costs is
 * OPERATION_COSTS at the default quota, each HTTP example is what the server answers at the defaults, and the
 * back-off helper is tested code.
 */

const LIMITS_DOC = 'docs/app-developers/limits.md';
const DOC = readDoc(LIMITS_DOC);
const REGISTER = 'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey } }';

// The limiters' clock stands still: the figures of the examples are exact.
const frozen = (): number => Date.parse('2026-11-25T00:00:00Z');

function useBudgetStack(rateLimit: Partial<NonNullable<StackOptions['rateLimit']>>) {
  const listening = useListeningStack({
    rateLimit: { points: 0, windowS: 60, trustProxy: true, now: frozen, ...rateLimit },
  });
  const send = (ip: string, init: { query?: string; variables?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${listening().origin}${GRAPHQL_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        'x-forwarded-for': ip,
        ...init.headers,
      },
      body: JSON.stringify({ query: init.query ?? '{ datasets { no } }', variables: init.variables }),
    });
  return Object.assign(send, { socketUrl: () => `${listening().origin.replace('http', 'ws')}${GRAPHQL_PATH}` });
}

const registration = (n: number) => ({
  query: REGISTER,
  variables: { input: { name: `NAT App ${n}`, contactEmail: `nat${n}@example.org` } },
});

describe(`the costs and examples of ${LIMITS_DOC}`, () => {
  const send = useBudgetStack({
    points: DEFAULTS.rateLimit.points,
    windowS: DEFAULTS.rateLimit.windowS,
    registration: DEFAULTS.rateLimit.registration,
    authenticationFailures: DEFAULTS.rateLimit.authenticationFailures,
    upstreamFetches: DEFAULTS.rateLimit.upstreamFetches,
  });

  it('gives the cost of each answer as the server charges it, and what an address gets a minute', () => {
    const rows = DOC.split('\n')
      .map((line) => /^\| [^|]+ \| (1(?:\/\d+)?) \| (\d+) \|$/.exec(line))
      .filter((match) => match !== null)
      .map(([, tokens, perMinute]) => {
        const [numerator, denominator = '1'] = (tokens ?? '').split('/');
        return { cost: Number(numerator) / Number(denominator), perMinute: Number(perMinute) };
      });
    const costs = [OPERATION_COSTS.executed, OPERATION_COSTS.stored, OPERATION_COSTS.notModified];
    expect(rows.map((row) => row.cost)).toEqual(costs);
    expect(DEFAULTS.rateLimit.windowS).toBe(60);
    expect(rows.map((row) => row.perMinute)).toEqual(costs.map((cost) => DEFAULTS.rateLimit.points / cost));
  });

  it('answers as the HTTP examples show: the sixth registration of an hour, then a first wrong key', async () => {
    const examples = fencedBlocks(DOC, 'http').map((block) => {
      const [statusLine = '', ...fields] = block.trim().split('\n');
      return {
        status: Number(statusLine.split(' ')[1]),
        fields: fields.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 2),
        ]),
      };
    });
    expect(examples).toHaveLength(2);
    for (let n = 1; n <= DEFAULTS.rateLimit.registration.points; n++)
      expect((await send('203.0.113.60', registration(n))).status).toBe(200);
    const refused = await send('203.0.113.60', registration(6));
    const wrongKey = await send('203.0.113.61', { headers: { authorization: 'Bearer tegk_copied-wrong' } });
    for (const [example, answer] of [
      [examples[0], refused],
      [examples[1], wrongKey],
    ] as const) {
      expect(answer.status).toBe(example?.status);
      for (const [name = '', value] of example?.fields ?? []) expect(answer.headers.get(name)).toBe(value);
    }
  });
});

describe(`the socket example of ${LIMITS_DOC}`, () => {
  const send = useBudgetStack({ points: DEFAULTS.rateLimit.points, windowS: DEFAULTS.rateLimit.windowS });

  it("gives a WebSocket operation's first result the extensions the example shows, at the defaults", async () => {
    const [example] = fencedBlocks(DOC, 'json').filter((block) => block.includes('rateLimit'));
    const client = createWebSocketClient(send.socketUrl());
    try {
      const results: unknown[] = [];
      for await (const result of client.iterate({ query: '{ datasets { no } }' })) results.push(result.extensions);
      expect(results).toEqual([JSON.parse(example ?? '')]);
    } finally {
      await client.dispose();
    }
  });
});

describe(`the back-off of ${LIMITS_DOC}`, () => {
  const send = useBudgetStack({ points: 3, registration: { points: 1, windowS: 3_600 } });
  const within = (ms: number, base: number) => {
    expect(ms).toBeGreaterThanOrEqual(base);
    expect(ms).toBeLessThanOrEqual(base * 1.5);
  };

  it('holds only lines of the tested helper', () => {
    const helper = new Set(
      readFileSync(new URL('../clients/back-off.ts', import.meta.url), 'utf8')
        .split('\n')
        .map((line) => line.trim()),
    );
    const blocks = fencedBlocks(DOC, 'ts');
    expect(blocks).toHaveLength(1);
    const untested = (blocks[0] ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !helper.has(line));
    expect(untested).toEqual([]);
  });

  it('goes on while operations are left, waits for the next token at r=0, and for Retry-After on a 429', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send('203.0.113.70', { query: `{ a${i}: datasets { no } }` }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(backOffMs(answers[0] as Response)).toBe(0);
    expect(backOffMs(answers[1] as Response)).toBe(0);
    // Three a minute: a token every 20 s.
    within(backOffMs(answers[2] as Response), 20_000);
    within(backOffMs(answers[3] as Response), 20_000);
  });

  it('does not stop an app whose registration budget is spent, and waits out a refused registration', async () => {
    const registered = await send('203.0.113.71', registration(7));
    expect(registered.headers.get('ratelimit')).toContain('"registration";r=0;');
    expect(backOffMs(registered)).toBe(0);
    const refused = await send('203.0.113.71', registration(8));
    expect(refused.status).toBe(429);
    within(backOffMs(refused), 3_600_000);
  });
});
