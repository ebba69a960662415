import { AccessError } from '../../access/errors.js';
import { builder } from '../builder.js';
import { decodeNodeId, InvalidNodeIdError, summaryEndpointNodeId } from '../node-ids.js';
import { CodedError } from '../../errors/coded-error.js';
import { CALLER_DEPENDENT } from '../caller-dependence.js';
import { payloadField } from '../payload-field.js';
import type { JsonObject } from '../../json.js';
import {
  findSummaryEndpoint,
  SUMMARY_ENDPOINTS,
  SUMMARY_METHOD,
  SUMMARY_SUBJECT_TITLES,
  SUMMARY_SUBJECT_TITLES_EN,
  SUMMARY_SUBJECTS,
  USE_REQUEST_STATUS_LABELS,
  USE_REQUEST_STATUSES,
  type SummaryEndpointEntry,
  type SummarySubject as SummarySubjectValue,
  type UseRequestStatus as UseRequestStatusValue,
} from '../../catalogue.js';
import { useRequestStatusLabel } from '../messages.js';
import type { Context } from '../context.js';
import { HttpMethod } from './dataset.js';
import { describedValues } from './described-values.js';
import { CODE, WARNING } from '../../errors/registry.js';
import { findRecords } from '../../records/index.js';
import { SummaryInput } from './summary-input.js';
import { entityReference } from '../entity-reference.js';

const SUBJECT_MEANINGS: Readonly<Record<SummarySubjectValue, string>> = {
  SCHOOLS: 'schools',
  PERSONNEL: 'education personnel',
  STUDENTS: 'students',
  GRADUATES: 'graduates',
};

export const SummarySubject = builder.enumType('SummarySubject', {
  description: 'เรื่องของข้อมูลสรุป: what a summary endpoint counts.',
  values: describedValues(
    SUMMARY_SUBJECTS,
    (subject) => `${SUMMARY_SUBJECT_TITLES[subject]}: ${SUBJECT_MEANINGS[subject]}`,
  ),
});

const STATUS_MEANINGS: Readonly<Record<UseRequestStatusValue, string>> = {
  NOT_REQUESTED: 'use has not been requested',
  PENDING: 'requested, waiting for the operator',
  APPROVED: 'approved: the payload may be read',
  REJECTED: 'the request was refused; it may be asked again',
  REVOKED: 'an approval was withdrawn; it may be asked again',
};

export const UseRequestStatus = builder.enumType('UseRequestStatus', {
  description: 'สถานะการขอใช้งาน: the status of request for use of a summary endpoint, for one client.',
  values: describedValues(
    USE_REQUEST_STATUSES,
    (status) => `${USE_REQUEST_STATUS_LABELS[status]}: ${STATUS_MEANINGS[status]}`,
  ),
});

/**
 * The endpoint number an input names, by `endpointId` or by Node `id` (exactly one of them): old clients send the
 * number, Relay clients the id they read. Which endpoints exist is the store's to check, as before.
 */
export function endpointNumber(input: { endpointId?: number | null; id?: string | number | null }): number {
  const { endpointId, id } = input;
  if (((endpointId ?? undefined) === undefined) === ((id ?? undefined) === undefined)) {
    throw new CodedError(
      CODE.BAD_USER_INPUT,
      'Name the summary endpoint once: either endpointId (83 to 86) or id (se_83 …), not both and not neither.',
    );
  }
  if (endpointId !== undefined && endpointId !== null) return endpointId;
  const nodeId = String(id);
  if (decodeNodeId(nodeId).typename !== 'SummaryEndpoint') throw new InvalidNodeIdError(nodeId);
  return Number(nodeId.slice('se_'.length));
}

/** The known inputs of the endpoints, for the description of `payload(input:)`: "83, 84: ACADEMIC_YEAR, …; 86: …". */
const KNOWN_INPUTS = (() => {
  const endpointsByKeys = new Map<string, number[]>();
  for (const endpoint of SUMMARY_ENDPOINTS) {
    const keys = endpoint.inputs.map((input) => input.key).join(', ');
    endpointsByKeys.set(keys, [...(endpointsByKeys.get(keys) ?? []), endpoint.id]);
  }
  return [...endpointsByKeys].map(([keys, ids]) => `${ids.join(', ')}: ${keys}`).join('; ');
})();

// How much of a key a warning repeats: enough to recognise it, not an echo of a huge input.
const MAX_WARNED_KEY_LENGTH = 100;

/**
 * The keys of `input` the upstream most likely ignored: keys that are neither known inputs of the endpoint nor keys
 * of any record it answered. None when the answer holds no records to compare with (it may have selected nothing).
 */
function ignoredInputKeys(endpoint: SummaryEndpointEntry, input: JsonObject, body: unknown): string[] {
  const unknown = Object.keys(input).filter((key) => !endpoint.inputs.some((known) => known.key === key));
  if (unknown.length === 0) return [];
  const records = findRecords(body);
  if (records === undefined || records.length === 0) return [];
  return unknown.filter((key) => !records.some((record) => Object.hasOwn(record, key)));
}

/** The calling client's status for an endpoint: NOT_REQUESTED when it never asked, or is not a client. */
async function callerStatus(endpoint: SummaryEndpointEntry, context: Context): Promise<UseRequestStatusValue> {
  return (await context.loaders.callerUseStatus.load(endpoint.id)) ?? 'NOT_REQUESTED';
}

export const SummaryEndpoint = builder.objectRef<SummaryEndpointEntry>('SummaryEndpoint').implement({
  description:
    'ข้อมูลสรุป: one of the 4 upstream summary endpoints (group B), called with POST. Use must be requested and approved before `payload` can be read.',
  fields: (t) => ({
    endpointId: t.exposeInt('id', {
      description: 'The upstream endpoint number, 83 to 86: the last segment of `apiUrl`.',
    }),
    name: t.exposeString('name', { description: 'The upstream endpoint name, e.g. ods_count_school_by_jurisdiction.' }),
    subject: t.expose('subject', { type: SummarySubject, description: 'What the endpoint counts.' }),
    title: t.string({
      description: 'ชื่อ: the Thai name of the subject, as the upstream portal lists it.',
      resolve: (endpoint) => SUMMARY_SUBJECT_TITLES[endpoint.subject],
    }),
    titleEn: t.string({
      description: 'The subject in English, e.g. Educational institutions.',
      resolve: (endpoint) => SUMMARY_SUBJECT_TITLES_EN[endpoint.subject],
    }),
    method: t.field({
      type: HttpMethod,
      description: 'The HTTP method the upstream expects: POST.',
      resolve: () => SUMMARY_METHOD,
    }),
    apiUrl: t.field({
      type: 'URL',
      description: 'The upstream address of this endpoint, on the configured base address.',
      resolve: (endpoint, _args, context) => context.upstreamUrls.summaryEndpointUrl(endpoint),
    }),
    version: t.exposeInt('version', { description: 'เวอร์ชัน: the endpoint version.' }),
    inputs: t.field({
      type: [SummaryInput],
      description:
        'ข้อมูลนำเข้า: the keys of `payload(input:)` known to select its records, with an example of each; a key left out selects every value (all years, all jurisdictions).',
      resolve: (endpoint) => endpoint.inputs,
    }),
    status: t.field({
      type: UseRequestStatus,
      extensions: CALLER_DEPENDENT,
      description: "สถานะการขอใช้งาน: the calling client's status of request for use; NOT_REQUESTED when anonymous.",
      resolve: (endpoint, _args, context) => callerStatus(endpoint, context),
    }),
    statusLabel: t.string({
      extensions: CALLER_DEPENDENT,
      description:
        'ป้ายสถานะ: the label of `status` in the language of the request, Thai unless `Accept-Language` prefers English, e.g. ยังไม่ได้ขอใช้งาน / Not requested.',
      resolve: async (endpoint, _args, context) =>
        useRequestStatusLabel(await callerStatus(endpoint, context), context.language),
    }),
    payload: t.field({
      type: 'JSON',
      description:
        'ข้อมูล: the upstream answer to `input` (sent as the JSON body; {} when absent), exactly as JSON. Only for a caller whose status is APPROVED; anyone else gets the error USE_NOT_APPROVED.',
      args: {
        input: t.arg({
          type: 'JSONObject',
          description: `The request body, e.g. { "ACADEMIC_YEAR": "2566" }. The keys known to select records are in \`inputs\` (${KNOWN_INPUTS}); a key that is neither one of them nor a key of the records answered is most likely ignored by the upstream, and the answer says so in \`extensions.warnings\` (${WARNING.INPUT_KEY_IGNORED}).`,
        }),
      },
      ...payloadField(
        { reads: 'summary', wholeBody: true },
        async (endpoint: SummaryEndpointEntry, args: { input?: JsonObject | null }, context) => {
          const status = await callerStatus(endpoint, context);
          if (status !== 'APPROVED') {
            throw new AccessError(
              CODE.USE_NOT_APPROVED,
              `Use of summary endpoint ${endpoint.id} is not approved for this caller (status ${status}): ask with requestEndpointUse`,
              { status },
            );
          }
          const read = await context.loaders.summaryPayload.load({ endpoint, input: args.input ?? {} });
          // The audit a ministry is asked for: which client read which gated summary, when.
          if (context.caller.kind === 'client') context.access.recordSummaryRead(context.caller.client.id, endpoint.id);
          return read;
        },
        (read, endpoint, args, context, info) => {
          const known = endpoint.inputs.map((input) => input.key);
          for (const key of ignoredInputKeys(endpoint, args.input ?? {}, read.value)) {
            const shown = key.length > MAX_WARNED_KEY_LENGTH ? `${key.slice(0, MAX_WARNED_KEY_LENGTH)}…` : key;
            context.warnings.add(info, WARNING.INPUT_KEY_IGNORED, { key: shown, known });
          }
          return read.value;
        },
      ),
    }),
  }),
});

builder.queryFields((t) => ({
  summaryEndpoints: t.field({
    type: [SummaryEndpoint],
    description: "ข้อมูลสรุปทั้งหมด: the summary endpoints, ids 83 to 86, with the caller's status.",
    resolve: () => SUMMARY_ENDPOINTS,
  }),
  summaryEndpoint: t.field({
    type: SummaryEndpoint,
    nullable: true,
    description: 'One summary endpoint by its upstream number; null for an unknown one. `node(id:)` takes its ID.',
    args: { endpointId: t.arg.int({ required: true, description: 'The endpoint number, 83 to 86.' }) },
    resolve: (_root, { endpointId }) => findSummaryEndpoint(endpointId) ?? null,
  }),
}));

builder.nodeRef<SummaryEndpointEntry, string, typeof SummaryEndpoint>(SummaryEndpoint, {
  id: {
    description: 'The Node id, se_ and the endpoint number (e.g. se_83): the key normalised caches store it under.',
    resolve: (endpoint) => summaryEndpointNodeId(endpoint.id),
  },
  loadWithoutCache: (id) => findSummaryEndpoint(Number(id.slice('se_'.length))) ?? null,
});

// A federation entity by its upstream number; one outside 83 to 86 is null in its place. Its status and payload
// are the calling client's, as on /graphql: the router passes the caller's Authorization on.
builder.asEntity(SummaryEndpoint, {
  key: builder.selection<{ endpointId: number }>('endpointId'),
  resolveReference: (representation) =>
    entityReference(representation, ['endpointId'], (endpointId) =>
      /^[0-9]{1,6}$/.test(endpointId ?? '') ? (findSummaryEndpoint(Number(endpointId)) ?? null) : null,
    ),
});
