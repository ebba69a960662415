/**
 * Keyset pages over the store: a cursor is the sort key and id of the last item a page held, so that the next
 * page starts right after it however many rows were added or changed meanwhile (no offset to drift).
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { AccessError } from './errors.js';
import type { Edge, Page, PageRequest } from './model.js';
import { CODE } from '../errors/registry.js';

/** Where a page continues: after the row sorted at `key` with this `id`. */
export interface Position {
  readonly key: string;
  readonly id: string;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.key, position.id]), 'utf8').toString('base64url');
}

/**
 * What a list's cursors hold as their sort key, by kind: only what the list itself writes into them. A key of
 * another kind would reach the store's query (PostgreSQL refuses "garbage" as a timestamp with an error of its own).
 */
const CURSOR_KEYS = {
  /** A time as toIsoText writes it. */
  time: (key: string): boolean => {
    const time = new Date(key);
    return !Number.isNaN(time.getTime()) && time.toISOString() === key;
  },
  /** A row's sequence number, in the digits String(seq) writes (Number() would also read "", " 7", "0x10" and "1e3"). */
  sequence: (key: string): boolean => /^(0|[1-9][0-9]{0,15})$/.test(key) && Number.isSafeInteger(Number(key)),
} as const;

/** The position a cursor names; BAD_USER_INPUT for anything no page of this kind gave out. */
export function decodeCursor(cursor: string | null, keyKind: keyof typeof CURSOR_KEYS): Position | undefined {
  if (cursor === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'string' ||
    typeof parsed[1] !== 'string' ||
    !CURSOR_KEYS[keyKind](parsed[0])
  )
    throw new AccessError(CODE.BAD_USER_INPUT, 'after is not a cursor this list gave out', { field: 'after' });
  return { key: parsed[0], id: parsed[1] };
}

/**
 * The keyset condition of the page after `position`: rows sorted beyond it by (`keyColumn`, id), in `direction`. The
 * id breaks ties between rows with the same key, so no row is skipped or shown twice.
 */
export function sortedAfter(
  position: Position,
  keyColumn: 'created_at' | 'updated_at',
  direction: 'asc' | 'desc',
): RawBuilder<SqlBool> {
  const beyond = sql.raw(direction === 'asc' ? '>' : '<');
  const key = sql.ref(keyColumn);
  return sql<SqlBool>`(${key} ${beyond} ${position.key} or (${key} = ${position.key} and ${sql.ref('id')} ${beyond} ${position.id}))`;
}

/**
 * The page made of `rows`, read with one row more than asked for (which says whether another page follows).
 */
export function pageOf<Row, T>(
  rows: readonly Row[],
  request: PageRequest,
  totalCount: number,
  positionOf: (row: Row) => Position,
  toNode: (row: Row) => T,
): Page<T> {
  const kept = rows.slice(0, request.first);
  const edges: Edge<T>[] = kept.map((row) => ({ cursor: encodeCursor(positionOf(row)), node: toNode(row) }));
  return { edges, hasNextPage: rows.length > request.first, totalCount };
}
