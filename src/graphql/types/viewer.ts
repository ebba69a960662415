import { builder } from '../builder.js';
import { CALLER_DEPENDENT } from '../caller-dependence.js';
import type { Caller } from '../../access/model.js';

export const ViewerKind = builder.enumType('ViewerKind', {
  description: 'What kind of caller this is.',
  values: {
    ANONYMOUS: { description: 'No credential was sent.' },
    CLIENT: { description: 'A registered client, with its API key.' },
    OPERATOR: { description: 'An operator, with an operator token.' },
  } as const,
});

export const Viewer = builder.objectRef<Caller>('Viewer').implement({
  description: 'ผู้ใช้งานขณะนี้: who the server takes the caller to be.',
  fields: (t) => ({
    kind: t.field({
      type: ViewerKind,
      description: 'Anonymous, a client or an operator.',
      resolve: (caller) =>
        caller.kind === 'anonymous' ? 'ANONYMOUS' : caller.kind === 'client' ? 'CLIENT' : 'OPERATOR',
    }),
    name: t.string({
      nullable: true,
      description:
        "A client's registered name, or an operator's name from ADMIN_TOKENS (what the audit trail records as operator:<name>); null when anonymous or for the unnamed ADMIN_TOKEN.",
      resolve: (caller) =>
        caller.kind === 'client' ? caller.client.name : caller.kind === 'operator' ? caller.name : null,
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    extensions: CALLER_DEPENDENT,
    type: Viewer,
    description: 'Who is calling, as the credential sent says: what a sign-in page checks first.',
    resolve: (_root, _args, { caller }) => caller,
  }),
);
