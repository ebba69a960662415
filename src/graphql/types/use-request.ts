import { builder } from '../builder.js';
import { CALLER_DEPENDENT } from '../caller-dependence.js';
import { operatorActor, type UseRequestEventRecord, type UseRequestRecord } from '../../access/model.js';
import { connectionOf, connectionType, PAGE_ARGS, pageRequest } from './store-pages.js';
import { delivered } from '../../live/subscription-hub.js';
import { answerToKey, openStream } from '../stream-key.js';
import { findSummaryEndpoint } from '../../catalogue.js';
import { useRequestStatusLabel } from '../messages.js';
import { Client } from './client.js';
import { endpointNumber, SummaryEndpoint, UseRequestStatus } from './summary-endpoint.js';

export const ReviewDecision = builder.enumType('ReviewDecision', {
  description: "ผลการพิจารณา: the operator's decision on a pending request for use.",
  values: {
    APPROVE: { value: 'APPROVE', description: 'อนุมัติ: approve; the client may read the payload.' },
    REJECT: { value: 'REJECT', description: 'ไม่อนุมัติ: reject; the client may ask again.' },
  } as const,
});

export const UseRequestEvent = builder.objectRef<UseRequestEventRecord>('UseRequestEvent').implement({
  description: 'ประวัติ: one transition of a request for use, as the audit trail keeps it.',
  fields: (t) => ({
    from: t.expose('from', { type: UseRequestStatus, description: 'The status before.' }),
    to: t.expose('to', { type: UseRequestStatus, description: 'The status after.' }),
    actor: t.exposeString('actor', {
      description: 'Who made it: client:<id>, operator:<name> (ADMIN_TOKENS), operator (ADMIN_TOKEN) or operator:cli.',
    }),
    note: t.exposeString('note', { nullable: true, description: 'Why, as the actor wrote it.' }),
    at: t.expose('at', { type: 'DateTime', description: 'When.' }),
  }),
});

export const UseRequest = builder.objectRef<UseRequestRecord>('UseRequest').implement({
  description: "คำขอใช้งาน: one client's request to use one summary endpoint, with its audit trail.",
  // Only its client and the operator see a request: what node(id:) answers for a ur_ id depends on who asks.
  extensions: CALLER_DEPENDENT,
  fields: (t) => ({
    endpoint: t.field({
      type: SummaryEndpoint,
      description: 'The summary endpoint asked for.',
      resolve: (request) => {
        const endpoint = findSummaryEndpoint(request.endpointId);
        // The store accepts only catalogue ids, so this means the catalogue lost an endpoint.
        if (endpoint === undefined) throw new Error(`Summary endpoint ${request.endpointId} is not in the catalogue`);
        return endpoint;
      },
    }),
    client: t.field({
      type: Client,
      description: 'The client that asked.',
      resolve: (request, _args, { loaders }) => loaders.client.load(request.clientId),
    }),
    status: t.expose('status', { type: UseRequestStatus, description: 'สถานะ: the current status.' }),
    statusLabel: t.string({
      description:
        'ป้ายสถานะ: the label of `status` in the language of the request, Thai unless `Accept-Language` prefers English, e.g. รอการอนุมัติ / Awaiting approval.',
      resolve: (request, _args, context) => useRequestStatusLabel(request.status, context.language),
    }),
    purpose: t.exposeString('purpose', { description: 'วัตถุประสงค์: why the client wants the data, in its own words.' }),
    note: t.exposeString('note', { nullable: true, description: "The operator's note on the latest decision." }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was first asked.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its status last changed.' }),
    history: t.field({
      type: [UseRequestEvent],
      description: 'Every transition, oldest first: who, when, why.',
      resolve: (request, _args, { loaders }) => loaders.useRequestHistory.load(request.id),
    }),
  }),
});

builder.nodeRef<UseRequestRecord, string, typeof UseRequest>(UseRequest, {
  id: {
    description: 'The request id (ur_…): what the operator reviews or revokes; also its Node id.',
    resolve: (request) => request.id,
  },
  // One store query per nodes(ids:) field, whatever ids a client sends (it has at most one request per endpoint),
  // and none for anonymous callers, so ids of other clients' requests cost what unknown ids cost.
  loadManyWithoutCache: async (ids, { caller, access }) => {
    if (caller.kind === 'anonymous') return ids.map(() => null);
    if (caller.kind === 'client') {
      const own = new Map(
        (await access.listUseRequests({ clientId: caller.client.id })).map((request) => [request.id, request]),
      );
      return ids.map((id) => own.get(id) ?? null);
    }
    return Promise.all(ids.map(async (id) => (await access.findUseRequest(id)) ?? null));
  },
});

const UseRequestPayload = builder.objectRef<UseRequestRecord>('UseRequestPayload').implement({
  description: 'The request for use after the change.',
  fields: (t) => ({
    useRequest: t.field({
      type: UseRequest,
      description: 'The request, with its new status.',
      resolve: (request) => request,
    }),
  }),
});

const RequestEndpointUseInput = builder.inputType('RequestEndpointUseInput', {
  description: 'What to ask for, and why.',
  fields: (t) => ({
    endpointId: t.int({ description: 'The summary endpoint number, 83 to 86; or give `id` instead.' }),
    id: t.id({ description: 'The summary endpoint Node id (se_83 …); or give `endpointId` instead.' }),
    purpose: t.string({
      required: true,
      description: 'Why the data is needed, 1 to 2000 characters; the operator reads it.',
    }),
  }),
});

const ReviewUseRequestInput = builder.inputType('ReviewUseRequestInput', {
  description: "The operator's decision on a pending request.",
  fields: (t) => ({
    id: t.id({ required: true, description: 'The request id.' }),
    decision: t.field({ type: ReviewDecision, required: true, description: 'Approve or reject.' }),
    note: t.string({ description: 'Why, for the client and the audit trail (up to 2000 characters).' }),
    rateLimitPoints: t.int({
      description:
        "With APPROVE only: the client's own rate-limit quota, operations per rate-limit window, 1 to 1000000 (null: back to the default). Absent: unchanged.",
    }),
  }),
});

const RevokeUseRequestInput = builder.inputType('RevokeUseRequestInput', {
  description: 'Withdraw an approval.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The request id.' }),
    note: t.string({ description: 'Why, for the client and the audit trail (up to 2000 characters).' }),
  }),
});

export const UseRequestOrder = builder.enumType('UseRequestOrder', {
  description: 'The order of a page of requests, by when their status last changed.',
  values: {
    OLDEST_FIRST: { description: 'Waiting longest first: the order of a review queue.' },
    NEWEST_FIRST: { description: 'Latest change first.' },
  } as const,
});

const UseRequestConnection = connectionType('UseRequest', UseRequest, 'request for use');

builder.queryFields((t) => ({
  myUseRequests: t.authField({
    authScopes: { client: true },
    type: [UseRequest],
    description: "คำขอของฉัน: the calling client's requests for use, newest first. UNAUTHENTICATED when anonymous.",
    resolve: (_root, _args, { caller, access }) => access.listUseRequests({ clientId: caller.client.id }),
  }),
  useRequests: t.field({
    authScopes: { operator: true },
    tag: 'operator',
    type: [UseRequest],
    description: "Every client's requests for use, newest first, optionally of one status. Operator only.",
    args: { status: t.arg({ type: UseRequestStatus, description: 'Only requests in this status.' }) },
    resolve: (_root, { status }, { access }) => {
      // NOT_REQUESTED means "no request", so no stored request has it.
      return status === 'NOT_REQUESTED' ? [] : access.listUseRequests({ status: status ?? undefined });
    },
  }),
  useRequestsPage: t.field({
    authScopes: { operator: true },
    tag: 'operator',
    extensions: CALLER_DEPENDENT,
    type: UseRequestConnection,
    description:
      "คิวพิจารณา: every client's requests for use a page at a time, optionally of one status, with the whole count: `useRequestsPage(status: PENDING, order: OLDEST_FIRST)` is the review queue. Operator only.",
    args: {
      status: t.arg({ type: UseRequestStatus, description: 'Only requests in this status.' }),
      order: t.arg({ type: UseRequestOrder, description: 'NEWEST_FIRST when absent.' }),
      first: t.arg.int({ description: PAGE_ARGS.first }),
      after: t.arg.string({ description: PAGE_ARGS.after }),
    },
    resolve: async (_root, args, { access }) =>
      connectionOf(
        await access.pageUseRequests({
          status: args.status ?? undefined,
          order: args.order ?? 'NEWEST_FIRST',
          page: pageRequest(args),
        }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  requestEndpointUse: t.authField({
    authScopes: { client: true },
    type: UseRequestPayload,
    description:
      'ขอใช้งาน: ask to use a summary endpoint (status becomes PENDING). Allowed when not yet asked, or after a rejection or revocation.',
    args: { input: t.arg({ type: RequestEndpointUseInput, required: true, description: 'Endpoint and purpose.' }) },
    resolve: (_root, { input }, { caller, access }) =>
      access.requestEndpointUse({
        client: caller.client,
        endpointId: endpointNumber(input),
        purpose: input.purpose,
      }),
  }),
  reviewUseRequest: t.authField({
    authScopes: { operator: true },
    tag: 'operator',
    type: UseRequestPayload,
    description: 'พิจารณา: approve or reject a PENDING request. Operator only.',
    args: { input: t.arg({ type: ReviewUseRequestInput, required: true, description: 'Request, decision and note.' }) },
    resolve: (_root, { input }, { caller, access }) =>
      access.reviewUseRequest({
        id: String(input.id),
        decision: input.decision,
        note: input.note ?? null,
        actor: operatorActor(caller),
        // Absent leaves the quota as it is; an explicit null goes back to the default.
        rateLimitPoints: input.rateLimitPoints,
      }),
  }),
  revokeUseRequest: t.authField({
    authScopes: { operator: true },
    tag: 'operator',
    type: UseRequestPayload,
    description: 'ยกเลิกสิทธิ์: withdraw an APPROVED request. Operator only.',
    args: { input: t.arg({ type: RevokeUseRequestInput, required: true, description: 'Request and note.' }) },
    resolve: (_root, { input }, { caller, access }) =>
      access.revokeUseRequest({ id: String(input.id), note: input.note ?? null, actor: operatorActor(caller) }),
  }),
}));

builder.subscriptionField('useRequestChanged', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: UseRequest,
    description:
      "คำขอของฉันที่เปลี่ยน: an event each time one of your requests for use changes status (you ask, the operator approves, rejects or revokes), on whichever server instance it happened. Needs your API key, as `myUseRequests` does; with the ADMIN_TOKEN, every client's requests.",
    subscribe: (_root, _args, context) => {
      const { caller } = context;
      const clientId = caller.kind === 'operator' ? undefined : caller.client.id;
      return openStream(context, 'useRequestChanged', (event) =>
        event.topic === 'useRequestChanged' && (clientId === undefined || event.request.clientId === clientId)
          ? event.request
          : undefined,
      );
    },
    resolve: async (value, args, context, info) => {
      const request = delivered(value);
      await answerToKey(request, context, info, value, args);
      const { loaders } = context;
      // The subscription's loaders live as long as it does: what they remember of the request is now old.
      loaders.useRequestHistory.clear(request.id);
      loaders.callerUseStatus.clearAll();
      return request;
    },
  }),
);
