import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';
import { PageInfo } from './records.js';
import { AccessError } from '../../access/errors.js';
import type { Page, PageRequest } from '../../access/model.js';
import { CODE } from '../../errors/registry.js';
import type { PageInfo as PageInfoShape } from '../../records/index.js';

/** Items per page of the store's lists (the operator's queue and directory, a client's summary reads). */
const DEFAULT_FIRST = 20;
const MAX_FIRST = 100;

/** A page of the store as a Relay connection: edges, the shared PageInfo, and the whole list's length. */
interface ConnectionShape<T> {
  readonly edges: readonly { readonly cursor: string; readonly node: T }[];
  readonly pageInfo: PageInfoShape;
  readonly totalCount: number;
}

/** The connection of `page`: forward only, as the records connection is. */
export function connectionOf<T>(page: Page<T>): ConnectionShape<T> {
  return {
    edges: page.edges,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: false,
      startCursor: page.edges[0]?.cursor ?? null,
      endCursor: page.edges.at(-1)?.cursor ?? null,
    },
    totalCount: page.totalCount,
  };
}

/** `first` and `after` as the store takes them; BAD_USER_INPUT for `first` out of 1..100. */
export function pageRequest(args: { first?: number | null; after?: string | null }): PageRequest {
  const first = args.first ?? DEFAULT_FIRST;
  if (first < 1 || first > MAX_FIRST)
    throw new AccessError(CODE.BAD_USER_INPUT, `first must be 1 to ${MAX_FIRST} (got ${first})`, { field: 'first' });
  return { first, after: args.after ?? null };
}

/** The paging arguments every store connection takes. */
export const PAGE_ARGS = {
  first: `How many to return, 1 to ${MAX_FIRST}; ${DEFAULT_FIRST} when absent.`,
  after: 'Continue after this cursor (`pageInfo.endCursor` of the page before).',
} as const;

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/** A connection type over `node`, named `<name>Connection` with `<name>Edge`. */
export function connectionType<T>(name: string, node: ObjectRef<BuilderTypes, T>, what: string) {
  const edge = builder.objectRef<{ cursor: string; node: T }>(`${name}Edge`).implement({
    description: `One ${what} and its cursor.`,
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: 'Opaque: pass it as `after` to continue after this one.' }),
      // Pothos cannot relate a generic T to the shape `node` resolves to; they are the same by the signature above.
      node: t.field({ type: node, description: `The ${what}.`, resolve: (e) => e.node as never }),
    }),
  });
  return builder.objectRef<ConnectionShape<T>>(`${name}Connection`).implement({
    description: `A page of ${what}s.`,
    fields: (t) => ({
      edges: t.field({ type: [edge], description: `The ${what}s of this page.`, resolve: (c) => [...c.edges] }),
      pageInfo: t.field({ type: PageInfo, description: 'Paging state.', resolve: (c) => c.pageInfo }),
      totalCount: t.exposeInt('totalCount', { description: `How many ${what}s match, over all pages.` }),
    }),
  });
}
