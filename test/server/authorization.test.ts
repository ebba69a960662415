import {
  getNamedType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { AccessError } from '../../src/access/errors.js';
import type { Caller, ClientRecord } from '../../src/access/model.js';
import type { Context } from '../../src/graphql/context.js';
import { authorizeFieldFor, declaredScopes } from '../../src/graphql/field-authorization.js';
import { schema } from '../../src/graphql/schema.js';
import { TEST_ADMIN_TOKEN, useStack, type Stack } from '../helpers/stack.js';

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
    // A registration answers with the new client, whose registrant is that client for the answer: whoever sent it.
    const register =
      'mutation { registerClient(input: { name: "Scoped Newcomer", contactEmail: "newcomer@example.org" }) { client { history { kind } } } }';
    for (const headers of [{}, as(other.apiKey)]) {
      const registered = await send(stack(), register, headers);
      expect(registered.body.errors).toBeUndefined();
      expect(registered.body.data).toEqual({ registerClient: { client: { history: [{ kind: 'REGISTERED' }] } } });
    }
  });

  it('words the refusals in Thai unless English is asked for, with the same codes', async () => {
    const thai = await stack().post({ query: '{ useRequests { id } }' }, { 'accept-language': 'th' });
    const body = (await thai.json()) as Answer['body'];
    expect(body.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
    expect(body.errors?.[0]?.message).toBe('ยืนยันตัวตนไม่สำเร็จ: ส่งคีย์ API ในส่วนหัว "Authorization: Bearer <คีย์>"');
    expect(body.errors?.[0]?.extensions?.['detail']).toBe(OPERATOR_TOKEN_WANTED);
  });
});

describe('the scopes declared on the schema', () => {
  const PARENT = { id: 'cl_parent' };
  const anonymous: Caller = { kind: 'anonymous' };
  const operator: Caller = { kind: 'operator', name: null };
  const clientCaller = (id: string, currentKey = true): Caller => ({
    kind: 'client',
    client: { id } as ClientRecord,
    currentKey,
  });

  /** A context with nothing but a caller and a ledger that remembers being marked: resolvers reached past a scope fail. */
  function contextOf(caller: Caller): { context: Context; marked: () => boolean } {
    let marked = false;
    const ledger = { markCallerDependent: () => void (marked = true) };
    return { context: { caller, ledger, registeredClientIds: new Set() } as unknown as Context, marked: () => marked };
  }

  const infoOf = (type: GraphQLObjectType, field: GraphQLField<unknown, unknown>): GraphQLResolveInfo =>
    ({
      schema,
      parentType: type,
      fieldName: field.name,
      returnType: field.type,
      path: { prev: undefined, key: field.name, typename: type.name },
    }) as unknown as GraphQLResolveInfo;

  const fields = Object.values(schema.getTypeMap())
    .filter(isObjectType)
    .filter((type) => !type.name.startsWith('__'))
    .flatMap((type) =>
      Object.values(type.getFields()).map((field) => ({ type, field, name: `${type.name}.${field.name}` })),
    );
  const guarded = fields.filter(({ field }) => declaredScopes(field) !== undefined);

  it('says who may read or run each field that is not for everyone', async () => {
    const declared = Object.fromEntries(
      await Promise.all(
        guarded.map(async ({ type, field, name }) => {
          const scopes = declaredScopes(field);
          const { context } = contextOf(anonymous);
          const map = typeof scopes === 'function' ? await scopes(PARENT, {}, context, infoOf(type, field)) : scopes;
          return [name, map] as const;
        }),
      ),
    );
    expect(declared).toEqual({
      'Client.history': { operatorOrOwnClient: PARENT.id },
      'Client.summaryReads': { operatorOrOwnClient: PARENT.id },
      'Client.usage': { operatorOrOwnClient: PARENT.id },
      'Client.useRequests': { operatorOrOwnClient: PARENT.id },
      'Mutation.deleteMyRegistration': { currentKey: true },
      'Mutation.disableClient': { operator: true },
      'Mutation.enableClient': { operator: true },
      'Mutation.eraseClient': { operator: true },
      'Mutation.requestEndpointUse': { client: true },
      'Mutation.reviewUseRequest': { operator: true },
      'Mutation.revokeUseRequest': { operator: true },
      'Mutation.rotateApiKey': { currentKey: true },
      'Mutation.setClientQuota': { operator: true },
      'Query.myUseRequests': { client: true },
      'Query.useRequests': { operator: true },
      'Query.useRequestsPage': { operator: true },
      'Query.clients': { operator: true },
      'Subscription.useRequestChanged': { authenticated: true },
    });
  });

  it('leaves no mutation but registration open, nor a root field of clients or requests undeclared', () => {
    const open = fields
      .filter(({ type }) => type === schema.getMutationType())
      .filter(({ field }) => declaredScopes(field) === undefined)
      .map(({ name }) => name);
    expect(open).toEqual(['Mutation.registerClient']);
    const roots = [schema.getQueryType(), schema.getSubscriptionType()];
    const undeclared = fields
      .filter(
        ({ type, field }) => roots.includes(type) && ['Client', 'UseRequest'].includes(getNamedType(field.type).name),
      )
      .filter(({ field }) => declaredScopes(field) === undefined && field.extensions['dependsOnCaller'] !== true)
      .map(({ name }) => name);
    expect(undeclared).toEqual([]);
  });

  /** What running a resolver came to: its value, or what it threw or rejected with. */
  const settle = (run: () => unknown): Promise<unknown> =>
    Promise.resolve()
      .then(run)
      .catch((error: unknown) => error);

  it.each(guarded.map(({ type, field, name }) => [name, type, field] as const))(
    '%s refuses an anonymous caller, and marks its answer as depending on the caller',
    async (_name, type, field) => {
      const info = infoOf(type, field);
      // A subscription is authorized when it starts, by its subscribe; any other field when it resolves.
      const guard = type === schema.getSubscriptionType() ? field.subscribe : field.resolve;
      const refusal = await settle(() => guard?.(PARENT, {}, contextOf(anonymous).context, info));
      expect(refusal).toBeInstanceOf(AccessError);
      expect((refusal as AccessError).code).toBe('UNAUTHENTICATED');
      // Refused or not, the answer is never stored nor public; a subscription marks each event's.
      const { context, marked } = contextOf(anonymous);
      await settle(() => field.resolve?.(PARENT, {}, context, info));
      expect(marked()).toBe(true);
    },
  );

  it('asks the declared scopes again for another caller (what a stream asks of each event)', async () => {
    const ask = async (typeName: string, fieldName: string, caller: Caller): Promise<unknown> => {
      const type = schema.getType(typeName) as GraphQLObjectType;
      const field = type.getFields()[fieldName] as GraphQLField<unknown, unknown>;
      const { context } = contextOf(clientCaller(PARENT.id));
      return authorizeFieldFor(caller, context, infoOf(type, field), PARENT, {}).then(
        () => 'allowed',
        (error: unknown) => (error instanceof AccessError ? [error.code, error.message] : error),
      );
    };
    expect(await ask('Client', 'history', operator)).toBe('allowed');
    expect(await ask('Client', 'history', clientCaller(PARENT.id))).toBe('allowed');
    expect(await ask('Client', 'history', clientCaller('cl_other'))).toEqual(['FORBIDDEN', OPERATOR_OR_ITSELF]);
    expect(await ask('Client', 'history', anonymous)).toEqual(['UNAUTHENTICATED', OWN_KEY_WANTED]);
    expect(await ask('Subscription', 'useRequestChanged', clientCaller('cl_other'))).toBe('allowed');
    expect(await ask('Subscription', 'useRequestChanged', anonymous)).toEqual(['UNAUTHENTICATED', CLIENT_KEY_WANTED]);
    expect(await ask('Mutation', 'rotateApiKey', clientCaller(PARENT.id, false))).toEqual(['FORBIDDEN', KEY_REPLACED]);
    expect(await ask('Query', 'summaryEndpoints', anonymous)).toBe('allowed');
  });
});
