/**
 * Record shapes: what the records of a payload look like as the typed schema sees them (their own keys, each
 * with one type), and how a live shape differs from an expected one. `npm run shapes`, the typed fields' drift
 * check and anyone else who watches the upstream change its fields (a `shapeChanged` event) share this one rule.
 */
import type { RecordField } from './fields.js';

/** The type a typed field gives a key: one JSON scalar type seen throughout, or `json` for anything else. */
export const SHAPE_FIELD_TYPES = ['string', 'number', 'boolean', 'json'] as const;
export type ShapeFieldType = (typeof SHAPE_FIELD_TYPES)[number];

/** One key of the records, as inferred from all of them. */
export interface ShapeKey {
  /** The upstream's own key, exactly as written (Thai included). */
  readonly key: string;
  readonly type: ShapeFieldType;
  /** Null, or missing, in at least one record. */
  readonly nullable: boolean;
}

/** The records' shape: where they are, and their own keys in code-unit order of the key. */
export interface RecordShape {
  readonly recordsPath: string;
  readonly keys: readonly ShapeKey[];
}

/** A key whose type is not the expected one. */
export interface Retyped {
  readonly key: string;
  readonly expected: ShapeFieldType;
  readonly actual: ShapeFieldType;
}

/** How a live shape differs from the expected one: each list in code-unit order of the key. */
export interface ShapeDrift {
  /** Expected keys no record has any more: their typed fields answer null. */
  readonly vanished: readonly string[];
  /** Keys no typed field knows: reachable through the untyped record only. */
  readonly added: readonly string[];
  readonly retyped: readonly Retyped[];
}

/** The shape type of an inferred field: its one non-null JSON type when it is a scalar one, else `json`. */
export function shapeTypeOf(field: Pick<RecordField, 'types'>): ShapeFieldType {
  const types = field.types.filter((type) => type !== 'null');
  const [only] = types;
  return types.length === 1 && (only === 'string' || only === 'number' || only === 'boolean') ? only : 'json';
}

export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * How `actual` differs from `expected` in keys and types, or undefined when it does not. Nullability is left
 * out: every typed field is nullable, so a key that starts to be missing in some records changes no client.
 */
export function shapeDrift(expected: RecordShape, actual: RecordShape): ShapeDrift | undefined {
  const live = new Map(actual.keys.map((key) => [key.key, key]));
  const known = new Set(expected.keys.map((key) => key.key));
  const vanished = expected.keys.filter((key) => !live.has(key.key)).map((key) => key.key);
  const added = actual.keys.filter((key) => !known.has(key.key)).map((key) => key.key);
  const retyped = expected.keys.flatMap((key): Retyped[] => {
    const now = live.get(key.key);
    return now === undefined || now.type === key.type ? [] : [{ key: key.key, expected: key.type, actual: now.type }];
  });
  if (vanished.length === 0 && added.length === 0 && retyped.length === 0) return undefined;
  return { vanished: vanished.sort(compareKeys), added: added.sort(compareKeys), retyped };
}
