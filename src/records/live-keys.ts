/**
 * Which key of the live records carries each key of a checked-in shape (schema/shapes.json, learned from the
 * simulator): the typed fields are built from that file, while the real upstream's keys are undocumented and may
 * be spelt otherwise. A typed field reads its own key when the records have it; else the live key that gets the
 * same GraphQL name (field-names.ts: ACADEMIC_YEAR and ปีการศึกษา are both `academicYear`, MALE and male both
 * `male`); else none, and it answers null.
 */
import { nameKeys } from './field-names.js';
import type { RecordsView } from './view.js';

export interface LiveKeys {
  /** Whether any expected key is not a key of the live records. */
  readonly drifted: boolean;
  /** The live key that carries an expected key, undefined when none does. */
  key(expected: string): string | undefined;
  /** Expected key → live key, for the expected keys the records lack that another key carries. */
  readonly renamed: ReadonlyMap<string, string>;
}

const SAME: LiveKeys = { drifted: false, key: (expected) => expected, renamed: new Map() };

const known = new WeakMap<RecordsView, LiveKeys>();

/**
 * The live keys of `expected` (each an upstream key and its GraphQL name) in the records of `view`, whose fields
 * it infers. A view without records has no keys to tell: every expected key stands.
 */
export function liveKeysOf(
  view: RecordsView,
  expected: readonly { readonly key: string; readonly name: string }[],
): LiveKeys {
  let keys = known.get(view);
  if (keys === undefined) {
    keys = find(view, expected);
    known.set(view, keys);
  }
  return keys;
}

function find(view: RecordsView, expected: readonly { readonly key: string; readonly name: string }[]): LiveKeys {
  if (view.size === 0) return SAME;
  const live = new Set(view.shape().keys.map((entry) => entry.key));
  const missing = expected.filter((field) => !live.has(field.key));
  if (missing.length === 0) return SAME;
  const expectedKeys = new Set(expected.map((field) => field.key));
  const byName = new Map<string, string>();
  for (const [key, name] of nameKeys([...live]).names) if (!expectedKeys.has(key)) byName.set(name, key);
  const renamed = new Map<string, string>();
  for (const field of missing) {
    const key = byName.get(field.name);
    if (key !== undefined) renamed.set(field.key, key);
  }
  return {
    drifted: true,
    renamed,
    key: (key) => (live.has(key) ? key : renamed.get(key)),
  };
}
