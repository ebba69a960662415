import { builder } from '../builder.js';
import { CALLER_DEPENDENT } from '../caller-dependence.js';
import { spendRegistration } from '../../rate-limit/ip-budgets.js';
import { parseIdempotencyKey } from '../../access/idempotency.js';
import { operatorActor, type ClientEventRecord, type ClientRecord } from '../../access/model.js';

export const ClientEventKind = builder.enumType('ClientEventKind', {
  description: 'What happened to a client (its requests for use have their own history).',
  values: {
    REGISTERED: { description: 'ลงทะเบียน: it registered.' },
    KEY_ISSUED_FOR_RETRY: {
      description: 'A retried registration (same Idempotency-Key and input) was given a further key.',
    },
    KEY_ROTATED: { description: 'It rotated its key; `detail` says when the replaced keys stop.' },
    DISABLED: { description: 'ระงับ: the operator disabled it.' },
    ENABLED: { description: 'The operator enabled it again.' },
    QUOTA_SET: { description: 'The operator set its rate-limit quota; `detail` says which.' },
    DELETED: {
      description:
        'ลบข้อมูล: its registration was deleted, by itself or by the operator (eraseClient, `detail` the grounds); its personal data is erased.',
    },
  } as const,
});

export const ClientEvent = builder.objectRef<ClientEventRecord>('ClientEvent').implement({
  description: "One entry of a client's audit trail: pseudonymous ids and facts, no personal data.",
  fields: (t) => ({
    kind: t.expose('kind', { type: ClientEventKind, description: 'What happened.' }),
    actor: t.exposeString('actor', {
      description: 'Who did it: client:<id>, operator:<name> (ADMIN_TOKENS), operator (ADMIN_TOKEN) or operator:cli.',
    }),
    detail: t.exposeString('detail', { nullable: true, description: 'Facts about it, e.g. rateLimitPoints=6000.' }),
    note: t.exposeString('note', {
      nullable: true,
      description:
        "หมายเหตุ: why, as the operator wrote it when disabling or enabling the client; null when none was given, and after the client's erasure.",
    }),
    at: t.expose('at', { type: 'DateTime', description: 'When.' }),
  }),
});

export const Client = builder.objectRef<ClientRecord>('Client').implement({
  description: 'ผู้ใช้บริการ: an application registered to use this API, identified by its API key.',
  // A client sees only itself: what node(id:) answers for a cl_ id depends on who asks.
  extensions: CALLER_DEPENDENT,
  fields: (t) => ({
    name: t.exposeString('name', { description: "The application's name, as registered." }),
    contactEmail: t.expose('contactEmail', {
      type: 'EmailAddress',
      description: 'Where the operator can reach the client.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the client registered.' }),
    disabledAt: t.expose('disabledAt', {
      type: 'DateTime',
      nullable: true,
      description:
        "When the operator disabled the client; null while it is enabled. A disabled client's keys are refused with CLIENT_DISABLED.",
    }),
    rateLimitPoints: t.exposeInt('rateLimitPoints', {
      nullable: true,
      description:
        "The client's own rate-limit quota, operations per rate-limit window; null when the server's default (RATE_LIMIT_POINTS) applies.",
    }),
    history: t.field({
      authScopes: (client) => ({ operatorOrOwnClient: client.id }),
      type: [ClientEvent],
      description:
        'Its audit trail, oldest first: registration, key rotations, disabling, quotas. For the operator and the client itself.',
      resolve: (client, _args, { loaders }) => loaders.clientHistory.load(client.id),
    }),
  }),
});

builder.nodeRef<ClientRecord, string, typeof Client>(Client, {
  id: { description: 'The client id (cl_…), also its Node id.', resolve: (client) => client.id },
  // A client sees only itself, answered without the store; only the operator's ids are looked up (one query).
  loadManyWithoutCache: async (ids, { caller, access }) => {
    if (caller.kind === 'anonymous') return ids.map(() => null);
    if (caller.kind === 'client') return ids.map((id) => (id === caller.client.id ? caller.client : null));
    const found = new Map((await access.findClients(ids)).map((client) => [client.id, client]));
    return ids.map((id) => found.get(id) ?? null);
  },
});

const RegisterClientInput = builder.inputType('RegisterClientInput', {
  description: 'Who is registering.',
  fields: (t) => ({
    name: t.string({ required: true, description: "The application's name, 1 to 200 characters." }),
    contactEmail: t.field({ type: 'EmailAddress', required: true, description: 'A contact address for the operator.' }),
  }),
});

const RegisterClientPayload = builder
  .objectRef<{ client: ClientRecord; apiKey: string }>('RegisterClientPayload')
  .implement({
    description: 'A new client and its API key.',
    fields: (t) => ({
      client: t.field({ type: Client, description: 'The registered client.', resolve: (payload) => payload.client }),
      apiKey: t.exposeString('apiKey', {
        description:
          'The API key, shown this once and stored only as a hash: keep it secret and send it as "Authorization: Bearer <apiKey>".',
      }),
    }),
  });

const RotateApiKeyInput = builder.inputType('RotateApiKeyInput', {
  description: 'How long the keys being replaced keep working.',
  fields: (t) => ({
    graceS: t.int({
      description:
        'Seconds the replaced keys keep working, so that deployed copies can be updated: 0 stops them at once; at most KEY_ROTATION_MAX_GRACE_S (default 604800, 7 days). Default 86400 (1 day) or that maximum if smaller.',
    }),
  }),
});

const RotateApiKeyPayload = builder
  .objectRef<{ client: ClientRecord; apiKey: string; previousKeysExpireAt: Date }>('RotateApiKeyPayload')
  .implement({
    description: "The client's new API key.",
    fields: (t) => ({
      client: t.field({ type: Client, description: 'The client.', resolve: (payload) => payload.client }),
      apiKey: t.exposeString('apiKey', { description: 'The new API key, shown this once and stored only as a hash.' }),
      previousKeysExpireAt: t.expose('previousKeysExpireAt', {
        type: 'DateTime',
        description: 'When the replaced keys stop working (UNAUTHENTICATED after it).',
      }),
    }),
  });

const DeleteMyRegistrationPayload = builder.objectRef<{ deletedAt: Date }>('DeleteMyRegistrationPayload').implement({
  description: 'The registration is gone: keys refused, personal data erased.',
  fields: (t) => ({
    deletedAt: t.expose('deletedAt', { type: 'DateTime', description: 'When it was deleted.' }),
  }),
});

const ClientIdInput = builder.inputType('ClientIdInput', {
  description: 'Which client, and why.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The client id.' }),
    note: t.string({
      description:
        "Why, for the client's audit trail (ClientEvent.note), up to 2000 characters; erased with the client. Optional.",
    }),
  }),
});

const SetClientQuotaInput = builder.inputType('SetClientQuotaInput', {
  description: "A client's own rate-limit quota.",
  fields: (t) => ({
    id: t.id({ required: true, description: 'The client id.' }),
    rateLimitPoints: t.int({
      description:
        "Operations per rate-limit window (RATE_LIMIT_WINDOW_S), 1 to 1000000; null or absent for the server's default.",
    }),
  }),
});

const ClientPayload = builder.objectRef<ClientRecord>('ClientPayload').implement({
  description: 'The client after the change.',
  fields: (t) => ({ client: t.field({ type: Client, description: 'The client.', resolve: (client) => client }) }),
});

// A day: time to roll a new key out to servers; apps in stores need the longer grace they can ask for.
const DEFAULT_GRACE_S = 86_400;

builder.queryField('me', (t) =>
  t.field({
    extensions: CALLER_DEPENDENT,
    type: Client,
    nullable: true,
    description: 'The calling client; null when anonymous (or the operator).',
    resolve: (_root, _args, { caller }) => (caller.kind === 'client' ? caller.client : null),
  }),
);

builder.mutationFields((t) => ({
  registerClient: t.field({
    type: RegisterClientPayload,
    description:
      'ลงทะเบียน: register an application and receive its API key (shown once). With an Idempotency-Key header, a retry with the same input returns the same client and a working key instead of registering twice.',
    args: { input: t.arg({ type: RegisterClientInput, required: true, description: 'Name and contact.' }) },
    resolve: async (_root, { input }, context) => {
      const idempotencyKey = context.idempotencyKey === null ? undefined : parseIdempotencyKey(context.idempotencyKey);
      // A new key is a new rate-limit bucket: without a budget of its own, registering would lift every limit.
      await spendRegistration(context);
      const registration = await context.access.registerClient(input, { idempotencyKey });
      context.registeredClientIds.add(registration.client.id);
      return registration;
    },
  }),
  rotateApiKey: t.authField({
    authScopes: { currentKey: true },
    type: RotateApiKeyPayload,
    description:
      'A new API key for the calling client; the replaced keys keep working for the grace period, then stop. Only the current key may rotate.',
    args: { input: t.arg({ type: RotateApiKeyInput, description: 'The grace period.' }) },
    resolve: async (_root, { input }, { caller: { client }, access }) => {
      const graceS = input?.graceS ?? Math.min(DEFAULT_GRACE_S, access.keyPolicy.maxGraceS);
      return { client, ...(await access.rotateApiKey({ client, graceS })) };
    },
  }),
  deleteMyRegistration: t.authField({
    authScopes: { currentKey: true },
    type: DeleteMyRegistrationPayload,
    description:
      'ลบข้อมูล: delete the calling client (PDPA): every key stops at once; name, contact address and purposes are erased; the audit trail keeps its events with pseudonymous ids only. Only the current key may do this.',
    resolve: (_root, _args, { caller, access }) => access.deleteClient({ client: caller.client }),
  }),
  disableClient: t.authField({
    authScopes: { operator: true },
    tag: 'operator',
    type: ClientPayload,
    description: "ระงับ: refuse the client's keys (CLIENT_DISABLED, HTTP 403) until enabled again. Operator only.",
    args: { input: t.arg({ type: ClientIdInput, required: true, description: 'The client.' }) },
    resolve: (_root, { input }, { caller, access }) =>
      access.setClientDisabled({
        clientId: String(input.id),
        disabled: true,
        actor: operatorActor(caller),
        note: input.note ?? null,
      }),
  }),
  enableClient: t.authField({
    authScopes: { operator: true },
    tag: 'operator',
    type: ClientPayload,
    description: 'Serve a disabled client again. Operator only.',
    args: { input: t.arg({ type: ClientIdInput, required: true, description: 'The client.' }) },
    resolve: (_root, { input }, { caller, access }) =>
      access.setClientDisabled({
        clientId: String(input.id),
        disabled: false,
        actor: operatorActor(caller),
        note: input.note ?? null,
      }),
  }),
  setClientQuota: t.authField({
    authScopes: { operator: true },
    tag: 'operator',
    type: ClientPayload,
    description:
      "Set the client's own rate-limit quota, or go back to the default. Applies from its next request, on every instance. Operator only.",
    args: { input: t.arg({ type: SetClientQuotaInput, required: true, description: 'The client and its quota.' }) },
    resolve: (_root, { input }, { caller, access }) =>
      access.setClientQuota({
        clientId: String(input.id),
        rateLimitPoints: input.rateLimitPoints ?? null,
        actor: operatorActor(caller),
      }),
  }),
}));
