import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useStack, type Stack } from './helpers/stack.js';

interface Answer {
  readonly status: number;
  readonly body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}

async function send(stack: Stack, query: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await stack.post({ query }, headers);
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** What a caller hears: the data it got, or the code and message of its one refusal. */
function outcome(answer: Answer): unknown {
  const [error, ...more] = answer.body.errors ?? [];
  if (error === undefined) return { status: answer.status, data: answer.body.data };
  return { status: answer.status, code: error.extensions?.['code'], message: error.message, more: more.length };
}

const refused = (code: string, message: string): unknown => ({ status: 200, code, message, more: 0 });

// The refusals as they read in English (`Accept-Language: en`); the Thai is the catalogue's lead before them.
const CLIENT_KEY_WANTED = 'Send your API key as "Authorization: Bearer <key>" (registerClient gives you one)';
const NOT_A_CLIENT = 'The operator is not a client: use a client API key for this';
const KEY_REPLACED = "This key has been replaced: only the client's current key may do this";
const OPERATOR_TOKEN_WANTED = 'This is for the operator: send "Authorization: Bearer <ADMIN_TOKEN>"';
const OPERATOR_ONLY = 'Only the operator may do this';
const OWN_KEY_WANTED = 'Send your API key as "Authorization: Bearer <key>"';
const OPERATOR_OR_ITSELF = 'Only the operator and the client itself may see this';

const OPERATOR_MUTATIONS = [
  'mutation { reviewUseRequest(input: { id: "ur_unknown", decision: APPROVE }) { useRequest { id } } }',
  'mutation { revokeUseRequest(input: { id: "ur_unknown" }) { useRequest { id } } }',
  'mutation { disableClient(input: { id: "cl_unknown" }) { client { id } } }',
  'mutation { enableClient(input: { id: "cl_unknown" }) { client { id } } }',
  'mutation { setClientQuota(input: { id: "cl_unknown", rateLimitPoints: 5 }) { client { id } } }',
];

describe('who may read and run what, over HTTP', () => {
  const stack = useStack({ acceptLanguage: 'en' });
  const OPERATOR = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  const as = (apiKey: string): Record<string, string> => ({ authorization: `Bearer ${apiKey}` });

  let count = 0;
  async function newClient(): Promise<{ id: string; apiKey: string }> {
    count += 1;
    const { client, apiKey } = await stack().access.registerClient({
      name: `Scoped App ${count}`,
      contactEmail: `scoped${count}@example.org`,
    });
    return { id: client.id, apiKey };
  }

  it('keeps the operator fields and mutations to the operator', async () => {
    const client = await newClient();
    for (const query of ['{ useRequests { id } }', ...OPERATOR_MUTATIONS]) {
      expect(outcome(await send(stack(), query)), query).toEqual(refused('UNAUTHENTICATED', OPERATOR_TOKEN_WANTED));
      expect(outcome(await send(stack(), query, as(client.apiKey))), query).toEqual(
        refused('FORBIDDEN', OPERATOR_ONLY),
      );
      // Past the scope: an unknown id is the operator's only refusal.
      const operator = await send(stack(), query, OPERATOR);
      expect(
        (operator.body.errors ?? []).map((error) => error.extensions?.['code']),
        query,
      ).not.toContain('FORBIDDEN');
    }
  });

  it("keeps a client's own fields and mutations to clients", async () => {
    const client = await newClient();
    const ask =
      'mutation { requestEndpointUse(input: { endpointId: 83, purpose: "Scoped study" }) { useRequest { status } } }';
    for (const query of ['{ myUseRequests { id } }', ask]) {
      expect(outcome(await send(stack(), query)), query).toEqual(refused('UNAUTHENTICATED', CLIENT_KEY_WANTED));
      expect(outcome(await send(stack(), query, OPERATOR)), query).toEqual(refused('FORBIDDEN', NOT_A_CLIENT));
    }
    expect(outcome(await send(stack(), ask, as(client.apiKey)))).toEqual({
      status: 200,
      data: { requestEndpointUse: { useRequest: { status: 'PENDING' } } },
    });
    expect(outcome(await send(stack(), '{ myUseRequests { status } }', as(client.apiKey)))).toEqual({
      status: 200,
      data: { myUseRequests: [{ status: 'PENDING' }] },
    });
  });

  it("keeps rotating and deleting to the client's current key", async () => {
    const client = await newClient();
    const { apiKey: current } = await stack().access.rotateApiKey({
      client: (await stack().access.findClients([client.id]))[0]!,
      graceS: 600,
    });
    for (const query of ['mutation { rotateApiKey { apiKey } }', 'mutation { deleteMyRegistration { deletedAt } }']) {
      expect(outcome(await send(stack(), query)), query).toEqual(refused('UNAUTHENTICATED', CLIENT_KEY_WANTED));
      expect(outcome(await send(stack(), query, OPERATOR)), query).toEqual(refused('FORBIDDEN', NOT_A_CLIENT));
      // The replaced key still reads (it is in its grace period) but may not take the client back.
      expect(outcome(await send(stack(), query, as(client.apiKey))), query).toEqual(refused('FORBIDDEN', KEY_REPLACED));
    }
    expect(outcome(await send(stack(), '{ me { id } }', as(client.apiKey)))).toEqual({
      status: 200,
      data: { me: { id: client.id } },
    });
    const deleted = await send(stack(), 'mutation { deleteMyRegistration { deletedAt } }', as(current));
    expect(deleted.body.errors).toBeUndefined();
  });

  it("shows a client's history to itself and the operator only", async () => {
    const client = await newClient();
    const other = await newClient();
    const history = (id: string): string => `{ node(id: "${id}") { ... on Client { id history { kind } } } }`;
    expect(outcome(await send(stack(), history(client.id), as(client.apiKey)))).toEqual({
      status: 200,
      data: { node: { id: client.id, history: [{ kind: 'REGISTERED' }] } },
    });
    expect(outcome(await send(stack(), history(client.id), OPERATOR))).toEqual({
      status: 200,
      data: { node: { id: client.id, history: [{ kind: 'REGISTERED' }] } },
    });
    // Another client cannot reach the client at all, so it never meets the scope by node(id:).
    expect(outcome(await send(stack(), history(client.id), as(other.apiKey)))).toEqual({
      status: 200,
      data: { node: null },
    });
    // A registration answers with the new client, whose history is not the registrant's to read.
    const register =
      'mutation { registerClient(input: { name: "Scoped Newcomer", contactEmail: "newcomer@example.org" }) { client { history { kind } } } }';
    const anonymous = await send(stack(), register);
    expect(anonymous.body.errors?.map((error) => [error.extensions?.['code'], error.message])).toEqual([
      ['UNAUTHENTICATED', OWN_KEY_WANTED],
    ]);
    const byOther = await send(stack(), register, as(other.apiKey));
    expect(byOther.body.errors?.map((error) => [error.extensions?.['code'], error.message])).toEqual([
      ['FORBIDDEN', OPERATOR_OR_ITSELF],
    ]);
  });

  it('words the refusals in Thai unless English is asked for, with the same codes', async () => {
    const thai = await stack().post({ query: '{ useRequests { id } }' }, { 'accept-language': 'th' });
    const body = (await thai.json()) as Answer['body'];
    expect(body.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
    expect(body.errors?.[0]?.message).toBe(
      `ยืนยันตัวตนไม่สำเร็จ: ส่งคีย์ API ในส่วนหัว "Authorization: Bearer <คีย์>" (${OPERATOR_TOKEN_WANTED})`,
    );
  });
});
