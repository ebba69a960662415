import { builder } from '../builder.js';
import { CALLER_DEPENDENT } from '../caller-dependence.js';
import { operatorActor, type SummaryReadRecord, type UsageDayRecord } from '../../access/model.js';
import { AccessError } from '../../access/errors.js';
import { findSummaryEndpoint } from '../../catalogue.js';
import { CODE } from '../../errors/registry.js';
import { Client } from './client.js';
import { connectionOf, connectionType, PAGE_ARGS, pageRequest } from './store-pages.js';
import { SummaryEndpoint } from './summary-endpoint.js';
import { UseRequest } from './use-request.js';

/** Days of usage `Client.usage` shows unless asked for more (up to USAGE_RETENTION_DAYS). */
const DEFAULT_USAGE_DAYS = 30;

export const UsageDay = builder.objectRef<UsageDayRecord>('UsageDay').implement({
  description: "การใช้งานรายวัน: a client's operations on one UTC day.",
  fields: (t) => ({
    day: t.exposeString('day', { description: 'The day, YYYY-MM-DD (UTC).' }),
    operations: t.exposeInt('operations', {
      description: 'GraphQL requests the client sent that day (answers from the shared response cache included).',
    }),
  }),
});

export const SummaryRead = builder.objectRef<SummaryReadRecord>('SummaryRead').implement({
  description: 'การอ่านข้อมูลสรุป: one read of a gated summary payload by a client, kept for the audit.',
  fields: (t) => ({
    endpoint: t.field({
      type: SummaryEndpoint,
      description: 'The summary endpoint read.',
      resolve: (read) => {
        const endpoint = findSummaryEndpoint(read.endpointId);
        // Reads are recorded only of catalogue endpoints, so this means the catalogue lost one.
        if (endpoint === undefined) throw new Error(`Summary endpoint ${read.endpointId} is not in the catalogue`);
        return endpoint;
      },
    }),
    at: t.expose('at', { type: 'DateTime', description: 'When.' }),
  }),
});

const ClientConnection = connectionType('Client', Client, 'client');
const SummaryReadConnection = connectionType('SummaryRead', SummaryRead, 'summary read');

builder.objectFields(Client, (t) => ({
  useRequests: t.field({
    authScopes: (client) => ({ operatorOrOwnClient: client.id }),
    type: [UseRequest],
    description: 'คำขอใช้งาน: its requests for use, newest first. For the operator and the client itself.',
    resolve: (client, _args, { loaders }) => loaders.clientUseRequests.load(client.id),
  }),
  usage: t.field({
    authScopes: (client) => ({ operatorOrOwnClient: client.id }),
    type: [UsageDay],
    description:
      'การใช้งาน: its operations per UTC day over the last `days` days, oldest first; days without any are left out. Counted in memory and written every USAGE_FLUSH_S, so the latest seconds may not show yet on another instance. For the operator and the client itself.',
    args: {
      days: t.arg.int({
        description: `How many days back, today included: 1 to USAGE_RETENTION_DAYS; ${DEFAULT_USAGE_DAYS} when absent.`,
      }),
    },
    resolve: (client, { days }, { loaders, usageRetentionDays }) => {
      const wanted = days ?? Math.min(DEFAULT_USAGE_DAYS, usageRetentionDays);
      if (wanted < 1 || wanted > usageRetentionDays)
        throw new AccessError(CODE.BAD_USER_INPUT, `days must be 1 to ${usageRetentionDays} (got ${wanted})`, {
          field: 'days',
        });
      return loaders.clientUsage(wanted).load(client.id);
    },
  }),
  summaryReads: t.field({
    authScopes: (client) => ({ operatorOrOwnClient: client.id }),
    type: SummaryReadConnection,
    description:
      'ประวัติการอ่านข้อมูลสรุป: which gated summaries it read and when, newest first, kept USAGE_RETENTION_DAYS. For the operator and the client itself.',
    args: { first: t.arg.int({ description: PAGE_ARGS.first }), after: t.arg.string({ description: PAGE_ARGS.after }) },
    resolve: async (client, args, { access }) =>
      connectionOf(await access.pageSummaryReads(client.id, pageRequest(args))),
  }),
}));

builder.queryField('clients', (t) =>
  t.field({
    authScopes: { operator: true },
    tag: 'operator',
    extensions: CALLER_DEPENDENT,
    type: ClientConnection,
    description: 'ผู้ใช้บริการ: the directory of registered clients (erased ones left out), newest first. Operator only.',
    args: {
      search: t.arg.string({ description: 'A part of the name or the contact address; case is ignored.' }),
      disabled: t.arg.boolean({ description: 'Only disabled clients (true) or only enabled ones (false).' }),
      first: t.arg.int({ description: PAGE_ARGS.first }),
      after: t.arg.string({ description: PAGE_ARGS.after }),
    },
    resolve: async (_root, args, { access }) =>
      connectionOf(
        await access.pageClients({
          search: args.search ?? undefined,
          disabled: args.disabled ?? undefined,
          page: pageRequest(args),
        }),
      ),
  }),
);

const EraseClientInput = builder.inputType('EraseClientInput', {
  description: 'Which client to erase, and on what grounds.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The client id.' }),
    note: t.string({
      description:
        'The grounds, for the audit trail, up to 2000 characters: a reference such as a ticket number, never personal data (it outlives the erasure).',
    }),
  }),
});

const EraseClientPayload = builder.objectRef<{ clientId: string; deletedAt: Date }>('EraseClientPayload').implement({
  description: 'The client is erased: keys refused, personal data gone, pseudonymous records kept.',
  fields: (t) => ({
    clientId: t.exposeID('clientId', { description: 'The erased client id.' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', description: 'When it was erased.' }),
  }),
});

builder.mutationField('eraseClient', (t) =>
  t.authField({
    authScopes: { operator: true },
    tag: 'operator',
    type: EraseClientPayload,
    description:
      'ลบข้อมูลตามคำขอ (PDPA): erase a client on its request, as deleteMyRegistration does, without its key: also a disabled client or one whose key is lost. Every key stops at once; its name, contact address, purposes and the notes on its requests are erased; the audit trail records the operator. Operator only.',
    args: { input: t.arg({ type: EraseClientInput, required: true, description: 'The client and the grounds.' }) },
    resolve: async (_root, { input }, { caller, access }) => {
      const clientId = String(input.id);
      const erased = await access.eraseClient({ clientId, actor: operatorActor(caller), note: input.note ?? null });
      return { clientId, ...erased };
    },
  }),
);
