import { builder } from '../builder.js';
import { CALLER_DEPENDENT } from '../caller-dependence.js';
import { spendRegistration } from '../ip-limits.js';
import type { ClientRecord } from '../../access/model.js';

export const Client = builder.objectRef<ClientRecord>('Client').implement({
  description: 'ผู้ใช้บริการ: an application registered to use this API, identified by its API key.',
  // A client sees only itself: what node(id:) answers for a cl_ id depends on who asks.
  extensions: CALLER_DEPENDENT,
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The application\'s name, as registered.' }),
    contactEmail: t.expose('contactEmail', { type: 'EmailAddress', description: 'Where the operator can reach the client.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the client registered.' }),
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
    name: t.string({ required: true, description: 'The application\'s name, 1 to 200 characters.' }),
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

builder.queryField('me', (t) =>
  t.field({
    extensions: CALLER_DEPENDENT,
    type: Client,
    nullable: true,
    description: 'The calling client; null when anonymous (or the operator).',
    resolve: (_root, _args, { caller }) => (caller.kind === 'client' ? caller.client : null),
  }),
);

builder.mutationField('registerClient', (t) =>
  t.field({
    type: RegisterClientPayload,
    description: 'ลงทะเบียน: register an application and receive its API key (shown once).',
    args: { input: t.arg({ type: RegisterClientInput, required: true, description: 'Name and contact.' }) },
    resolve: async (_root, { input }, context) => {
      // A new key is a new rate-limit bucket: without a budget of its own, registering would lift every limit.
      await spendRegistration(context);
      return context.access.registerClient(input);
    },
  }),
);
