import { describe, expect, it } from 'vitest';
import { useStack, type Stack } from '../helpers/stack.js';
import { OPERATOR } from '../helpers/callers.js';

interface GraphQLAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}

const REGISTER =
  'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey client { id name } } }';
const ME = '{ me { id rateLimitPoints disabledAt } }';

async function send(
  stack: Stack,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<GraphQLAnswer> {
  const response = await stack.post({ query, variables }, headers);
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLAnswer['body'] };
}

const codes = (answer: GraphQLAnswer): unknown[] =>
  (answer.body.errors ?? []).map((error) => error.extensions?.['code']);

describe('key life cycle over HTTP', () => {
  let clock = Date.parse('2031-01-01T00:00:00Z');
  const stack = useStack({
    access: { now: () => new Date(clock) },
    // No operation limit, but the per-IP budget of failed authentications: one failure and the IP is shut out.
    rateLimit: { points: 0, windowS: 60, trustProxy: true, authenticationFailures: { points: 1, windowS: 3_600 } },
  });

  let count = 0;
  async function register(
    headers: Record<string, string> = {},
    input?: { name: string; contactEmail: string },
  ): Promise<GraphQLAnswer> {
    count += 1;
    return send(
      stack(),
      REGISTER,
      { input: input ?? { name: `HTTP App ${count}`, contactEmail: `http${count}@example.org` } },
      headers,
    );
  }
  async function newClient(): Promise<{ id: string; apiKey: string }> {
    const answer = await register();
    const payload = answer.body.data?.['registerClient'] as { apiKey: string; client: { id: string } };
    return { id: payload.client.id, apiKey: payload.apiKey };
  }
  const as = (apiKey: string): Record<string, string> => ({ authorization: `Bearer ${apiKey}` });

  describe('registerClient with an Idempotency-Key header', () => {
    it('answers a retry with the same client and a working key, and never logs the header', async () => {
      const idempotencyKey = 'c0ffee00-1111-4222-8333-444455556666';
      const input = { name: 'แอปลงทะเบียนซ้ำ', contactEmail: 'retry@example.org' };
      const header = { 'idempotency-key': `"${idempotencyKey}"` };
      const [first, retry] = [await register(header, input), await register(header, input)];
      expect([first.status, retry.status]).toEqual([200, 200]);
      const a = first.body.data?.['registerClient'] as { apiKey: string; client: { id: string } };
      const b = retry.body.data?.['registerClient'] as { apiKey: string; client: { id: string } };
      expect(b.client.id).toBe(a.client.id);
      for (const key of [a.apiKey, b.apiKey])
        expect((await send(stack(), ME, {}, as(key))).body.data).toMatchObject({ me: { id: a.client.id } });
      expect(stack().logText()).not.toContain(idempotencyKey);
    });

    it('takes the key bare, as Stripe-style clients send it, and as the same key as its quoted form', async () => {
      const idempotencyKey = '5d0b7c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';
      const input = { name: 'Bare Key App', contactEmail: 'bare@example.org' };
      const bare = await register({ 'idempotency-key': idempotencyKey }, input);
      const quoted = await register({ 'idempotency-key': `"${idempotencyKey}"` }, input);
      expect([bare.status, quoted.status]).toEqual([200, 200]);
      const ids = [bare, quoted].map(
        (answer) => (answer.body.data?.['registerClient'] as { client: { id: string } }).client.id,
      );
      expect(ids[1]).toBe(ids[0]);
    });

    it('refuses the same key with another input with IDEMPOTENCY_KEY_REUSED and HTTP 422', async () => {
      const header = { 'idempotency-key': '"9d1e3f5a-7b2c-4d6e-8f01-23456789abcd"' };
      expect((await register(header, { name: 'First Input', contactEmail: 'first@example.org' })).status).toBe(200);
      const reused = await register(header, { name: 'Second Input', contactEmail: 'first@example.org' });
      expect(reused.status).toBe(422);
      expect(codes(reused)).toEqual(['IDEMPOTENCY_KEY_REUSED']);
      expect(reused.body.data).toBeNull();
    });

    it.each([
      ['the key the registration answered', 'first'],
      ['a key a retry answered', 'retry'],
    ] as const)(
      'a replay from someone else, once %s was used, gets no key and cannot take the client',
      async (_name, used) => {
        const header = { 'idempotency-key': `"replayed-${used}-5a1f0c2e-8d7b-4b1e-9f3a"` };
        const input = { name: `Victim App ${used}`, contactEmail: `victim-${used}@example.org` };
        const first = (await register(header, input)).body.data?.['registerClient'] as { apiKey: string };
        // A genuine retry before any key was used (the first answer was lost) still gets a working key.
        const retry = (await register(header, input)).body.data?.['registerClient'] as { apiKey: string };
        const victimKey = used === 'first' ? first.apiKey : retry.apiKey;
        expect(codes(await send(stack(), ME, {}, as(victimKey)))).toEqual([]);
        // The attacker repeats the header and the exact input, from anywhere, within the window.
        for (let attempt = 0; attempt < 2; attempt++) {
          const replay = await register(header, input);
          expect(replay.status).toBe(409);
          expect(codes(replay)).toEqual(['IDEMPOTENCY_RETRIES_EXHAUSTED']);
          expect(replay.body.data).toBeNull();
        }
        // The client is still the victim's: its current key (the retry's) rotates with no grace and keeps it.
        const rotated = await send(
          stack(),
          'mutation { rotateApiKey(input: { graceS: 0 }) { apiKey } }',
          {},
          as(retry.apiKey),
        );
        expect(codes(rotated)).toEqual([]);
      },
    );

    it.each([
      ['too short', '"abc"'],
      ['too long', `"${'k'.repeat(256)}"`],
      ['unterminated', '"0123456789abcdef'],
      ['not a string', 'one two three four five'],
      ['a list', '"0123456789abcdef", "fedcba9876543210"'],
    ])('refuses a malformed key (%s) with BAD_USER_INPUT and HTTP 400, registering nothing', async (_name, value) => {
      const answer = await register({ 'idempotency-key': value });
      expect(answer.status).toBe(400);
      expect(codes(answer)).toEqual(['BAD_USER_INPUT']);
      expect(answer.body.errors?.[0]?.extensions?.['field']).toBe('Idempotency-Key');
    });
  });

  describe('rotateApiKey and deleteMyRegistration', () => {
    it('rotates with a day of grace by default, refuses a grace beyond the maximum, and only the current key may act', async () => {
      const { apiKey } = await newClient();
      const tooLong = await send(
        stack(),
        'mutation { rotateApiKey(input: { graceS: 604801 }) { apiKey } }',
        {},
        as(apiKey),
      );
      expect(codes(tooLong)).toEqual(['BAD_USER_INPUT']);
      const rotated = await send(stack(), 'mutation { rotateApiKey { apiKey previousKeysExpireAt } }', {}, as(apiKey));
      expect(rotated.body.data?.['rotateApiKey']).toMatchObject({
        previousKeysExpireAt: new Date(clock + 86_400_000).toISOString(),
      });
      for (const mutation of [
        'mutation { rotateApiKey { apiKey } }',
        'mutation { deleteMyRegistration { deletedAt } }',
      ]) {
        const refused = await send(stack(), mutation, {}, as(apiKey));
        expect(codes(refused)).toEqual(['FORBIDDEN']);
      }
      const anonymous = await send(stack(), 'mutation { rotateApiKey { apiKey } }');
      expect(codes(anonymous)).toEqual(['UNAUTHENTICATED']);
    });

    it('deletes the registration: its keys answer 401 and the operator no longer lists it', async () => {
      const { id, apiKey } = await newClient();
      await send(
        stack(),
        'mutation { requestEndpointUse(input: { endpointId: 83, purpose: "Temporary study" }) { useRequest { id } } }',
        {},
        as(apiKey),
      );
      const deleted = await send(stack(), 'mutation { deleteMyRegistration { deletedAt } }', {}, as(apiKey));
      expect(deleted.body).toEqual({ data: { deleteMyRegistration: { deletedAt: new Date(clock).toISOString() } } });
      const after = await send(stack(), ME, {}, { ...as(apiKey), 'x-forwarded-for': '203.0.113.50' });
      expect(after.status).toBe(401);
      expect(codes(after)).toEqual(['UNAUTHENTICATED']);
      const listed = await send(stack(), '{ useRequests { client { id } } }', {}, OPERATOR);
      expect((listed.body.data?.['useRequests'] as { client: { id: string } }[]).map((r) => r.client.id)).not.toContain(
        id,
      );
    });
  });

  describe('the operator: disable, enable, quotas', () => {
    it('refuses a disabled client with 403 CLIENT_DISABLED on every request, without counting it as a failed guess', async () => {
      const { id, apiKey } = await newClient();
      const disabled = await send(
        stack(),
        'mutation ($id: ID!) { disableClient(input: { id: $id }) { client { id disabledAt } } }',
        { id },
        OPERATOR,
      );
      expect(disabled.body.data?.['disableClient']).toEqual({
        client: { id, disabledAt: new Date(clock).toISOString() },
      });
      // Three in a row from one IP: a budget of one failed authentication would have turned the second into 429.
      for (let i = 0; i < 3; i++) {
        const refused = await send(stack(), '{ datasets { no } }', {}, as(apiKey));
        expect(refused.status).toBe(403);
        expect(codes(refused)).toEqual(['CLIENT_DISABLED']);
        expect(refused.headers.get('www-authenticate')).toBeNull();
      }
      await send(
        stack(),
        'mutation ($id: ID!) { enableClient(input: { id: $id }) { client { id } } }',
        { id },
        OPERATOR,
      );
      expect((await send(stack(), ME, {}, as(apiKey))).body.data).toEqual({
        me: { id, rateLimitPoints: null, disabledAt: null },
      });
      // The client sees its own audit trail: who disabled it and when.
      const history = await send(stack(), '{ me { history { kind actor detail at } } }', {}, as(apiKey));
      expect(history.body.data).toEqual({
        me: {
          history: [
            { kind: 'REGISTERED', actor: `client:${id}`, detail: null, at: new Date(clock).toISOString() },
            { kind: 'DISABLED', actor: 'operator', detail: null, at: new Date(clock).toISOString() },
            { kind: 'ENABLED', actor: 'operator', detail: null, at: new Date(clock).toISOString() },
          ],
        },
      });
    });

    it('keeps the operator mutations to the operator', async () => {
      const { id, apiKey } = await newClient();
      for (const mutation of [
        'mutation ($id: ID!) { disableClient(input: { id: $id }) { client { id } } }',
        'mutation ($id: ID!) { enableClient(input: { id: $id }) { client { id } } }',
        'mutation ($id: ID!) { setClientQuota(input: { id: $id, rateLimitPoints: 9 }) { client { id } } }',
      ]) {
        expect(codes(await send(stack(), mutation, { id }, as(apiKey)))).toEqual(['FORBIDDEN']);
        expect(codes(await send(stack(), mutation, { id }))).toEqual(['UNAUTHENTICATED']);
      }
      expect(
        codes(
          await send(stack(), 'mutation { disableClient(input: { id: "cl_nobody" }) { client { id } } }', {}, OPERATOR),
        ),
      ).toEqual(['NOT_FOUND']);
    });

    it('sets a quota when approving, and later, bounded', async () => {
      const { id, apiKey } = await newClient();
      const asked = await send(
        stack(),
        'mutation { requestEndpointUse(input: { endpointId: 86, purpose: "Graduates app" }) { useRequest { id } } }',
        {},
        as(apiKey),
      );
      const requestId = (asked.body.data?.['requestEndpointUse'] as { useRequest: { id: string } }).useRequest.id;
      const approve =
        'mutation ($id: ID!, $points: Int) { reviewUseRequest(input: { id: $id, decision: APPROVE, rateLimitPoints: $points }) { useRequest { status client { rateLimitPoints } } } }';
      expect(codes(await send(stack(), approve, { id: requestId, points: 0 }, OPERATOR))).toEqual(['BAD_USER_INPUT']);
      const approved = await send(stack(), approve, { id: requestId, points: 2_400 }, OPERATOR);
      expect(approved.body.data?.['reviewUseRequest']).toEqual({
        useRequest: { status: 'APPROVED', client: { rateLimitPoints: 2_400 } },
      });
      const setQuota =
        'mutation ($id: ID!, $points: Int) { setClientQuota(input: { id: $id, rateLimitPoints: $points }) { client { rateLimitPoints } } }';
      expect(codes(await send(stack(), setQuota, { id, points: 1_000_001 }, OPERATOR))).toEqual(['BAD_USER_INPUT']);
      expect((await send(stack(), setQuota, { id, points: null }, OPERATOR)).body.data).toEqual({
        setClientQuota: { client: { rateLimitPoints: null } },
      });
      // The operator reads every client's trail in one query (one store query for all of them).
      const listed = await send(
        stack(),
        '{ useRequests(status: APPROVED) { client { id history { kind detail } } } }',
        {},
        OPERATOR,
      );
      const mine = (
        listed.body.data?.['useRequests'] as {
          client: { id: string; history: { kind: string; detail: string | null }[] };
        }[]
      ).find((r) => r.client.id === id);
      expect(mine?.client.history.filter((e) => e.kind === 'QUOTA_SET').map((e) => e.detail)).toEqual([
        'rateLimitPoints=2400',
        'rateLimitPoints=default',
      ]);
      clock += 1_000;
    });
  });
});
