import type { GraphQLResolveInfo } from 'graphql';
import { CodedError } from '../errors/coded-error.js';
import type { Context } from './context.js';
import { CODE } from '../errors/registry.js';

/**
 * Relay's global ids, as this API writes them: the entity's own id, which says what it names by its prefix
 * (`ds_<DatasetCode>`, `se_<endpointId>`, `cl_…`, `ur_…`, `pv_<province code>`). Clients and requests for use already had such ids, used by the operator
 * in reviewUseRequest, so a Node id is exactly the `id` a client has always read: nothing is base64-wrapped, and
 * `node(id:)` takes the same string that every other field takes.
 *
 * A string that cannot be any node's id (no known prefix, characters an id never has, too long) is refused with
 * BAD_USER_INPUT; a well-formed id of nothing the caller may see is `null`, whether it exists or not.
 */
const NODE_TYPES_BY_PREFIX: Readonly<Record<string, { typename: string; rest: RegExp }>> = {
  ds: { typename: 'Dataset', rest: /^[A-Z0-9_]{1,80}$/ },
  se: { typename: 'SummaryEndpoint', rest: /^[0-9]{1,6}$/ },
  cl: { typename: 'Client', rest: /^[A-Za-z0-9_-]{1,64}$/ },
  ur: { typename: 'UseRequest', rest: /^[A-Za-z0-9_-]{1,64}$/ },
  pv: { typename: 'Province', rest: /^[0-9]{2}$/ },
};

/** The Node id of a summary endpoint: its upstream number after `se_`. */
export function summaryEndpointNodeId(endpointId: number): string {
  return `se_${endpointId}`;
}

/** The Node id of a province: its two-digit code after `pv_`. */
export function provinceNodeId(code: string): string {
  return `pv_${code}`;
}

/** The Node id of a dataset: its code after `ds_`. */
export function datasetNodeId(code: string): string {
  return `ds_${code}`;
}

/** The dataset code a Node id names, or undefined when it names something else (or is no id). */
export function datasetCodeOf(id: unknown): string | undefined {
  return typeof id === 'string' && id.startsWith('ds_') ? id.slice('ds_'.length) : undefined;
}

export class InvalidNodeIdError extends CodedError<typeof CODE.BAD_USER_INPUT> {
  override readonly name = 'InvalidNodeIdError';
  constructor(id: string) {
    // Quoted only in part: the message must not carry a whole hostile string back.
    super(
      CODE.BAD_USER_INPUT,
      `${JSON.stringify(id.slice(0, 40))}${id.length > 40 ? '…' : ''} is not a Node id: ids look like ds_<DatasetCode>, se_<endpointId>, pv_<province code>, cl_… or ur_….`,
    );
  }
}

/** The relay plugin's `decodeGlobalID`: which type an id names; the id itself is passed on unchanged. */
export function decodeNodeId(id: string): { typename: string; id: string } {
  const separator = id.indexOf('_');
  const type = separator > 0 ? NODE_TYPES_BY_PREFIX[id.slice(0, separator)] : undefined;
  if (type === undefined || !type.rest.test(id.slice(separator + 1))) throw new InvalidNodeIdError(id);
  return { typename: type.typename, id };
}

/** The relay plugin's `encodeGlobalID`: each node type's `id` resolver already returns its prefixed id. */
export function encodeNodeId(_typename: string, id: bigint | number | string): string {
  return String(id);
}

/**
 * Whether the answer for a node of this type depends on who asks: declared on the type as
 * `extensions: CALLER_DEPENDENT` (a client sees only its own Client and requests), read here so that `node` and
 * `nodes` mark their response as the type's own root fields do.
 */
export function markCallerDependentNodes(
  typenames: readonly string[],
  context: Context,
  info: GraphQLResolveInfo,
): void {
  if (typenames.some((typename) => info.schema.getType(typename)?.extensions['dependsOnCaller'] === true)) {
    context.ledger.markCallerDependent();
  }
}

export class TooManyNodeIdsError extends CodedError<typeof CODE.BAD_USER_INPUT> {
  override readonly name = 'TooManyNodeIdsError';
  constructor(asked: number, max: number) {
    super(CODE.BAD_USER_INPUT, `nodes(ids:) takes at most ${max} ids, got ${asked}: ask in several operations.`, {
      limit: 'nodeIds',
      max,
    });
  }
}
