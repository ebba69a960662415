import { responsePathAsArray, type GraphQLResolveInfo } from 'graphql';
import type { PayloadRead } from '../upstream/source.js';
import { rememberAnswerSize } from './answer-size.js';
import { CALLER_DEPENDENT } from './caller-dependence.js';
import type { Context } from './context.js';
import { recordsPageCost, UPSTREAM_FIELD_COST } from './cost.js';
import { PRICED_BY_BODY } from './payload-sizes.js';

/**
 * What a field reads: a dataset's payload is the same for everyone, a summary's only for approved callers; a
 * field whose value is the whole body (rather than a page or a count made from it) knows its size in the answer
 * (the body's length) and is priced by it before the operation runs. A records page says how many rows its
 * arguments ask for (`first`), and is priced by them (recordsPageCost).
 */
export interface PayloadFieldKind<Args = never> {
  readonly reads: 'dataset' | 'summary';
  readonly wholeBody: boolean;
  readonly pageRows?: (args: Args) => number | null | undefined;
}

/**
 * The options every upstream-backed field shares, declared in one place so that a new one cannot forget any:
 * its cost (an operation asking for many payloads is refused before any upstream call), nullability (an upstream
 * failure nulls the field, not its parent), the read recorded in the response's ledger (freshness, stale
 * fields, HTTP caching) and, for summaries, that the answer depends on the caller.
 *
 * `load` fetches the payload through the per-request loaders; `resolve` turns the read into the field's value (and
 * may warn about the request with `context.warnings`, at `info`'s path).
 */
export function payloadField<Parent, Args, Value>(
  kind: PayloadFieldKind<Args>,
  load: (parent: Parent, args: Args, context: Context) => Promise<PayloadRead>,
  resolve: (
    read: PayloadRead,
    parent: Parent,
    args: Args,
    context: Context,
    info: GraphQLResolveInfo,
  ) => Value | Promise<Value>,
) {
  return {
    complexity:
      kind.pageRows === undefined
        ? UPSTREAM_FIELD_COST
        : (args: Args) => recordsPageCost((kind.pageRows as (args: Args) => number | null | undefined)(args)),
    nullable: true as const,
    extensions: kind.reads === 'summary' ? CALLER_DEPENDENT : kind.wholeBody ? PRICED_BY_BODY : {},
    resolve: async (parent: Parent, args: Args, context: Context, info: GraphQLResolveInfo): Promise<Value> => {
      const read = await load(parent, args, context);
      context.freshness.recordRead(responsePathAsArray(info.path), read);
      // The body's length is its size in the answer: the plugin that charges it need not walk it.
      if (kind.wholeBody) rememberAnswerSize(read.value, read.bytes);
      return resolve(read, parent, args, context, info);
    },
  };
}
