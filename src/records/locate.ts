/**
 * Where the records of a dataset body are. Bodies are JSON of undocumented shape: a bare array of objects, an
 * envelope such as `{"status":200,"data":[…],"total":N}`, or something else again.
 */
import type { JsonObject } from '../json.js';
import { RecordsError } from './errors.js';
import { isPlainObject } from './values.js';
import { CODE } from '../errors/registry.js';

/** Keys under which envelopes usually put their records, in the order they are tried at each depth. */
export const ENVELOPE_KEYS = ['data', 'result', 'records', 'items', 'rows'] as const;
/** How many keys deep the search goes (`result.items` is 2). */
export const MAX_SEARCH_DEPTH = 3;

export interface LocatedRecords {
  /** The dotted path of the records from the body: "" for the body itself, "data", "result.items". */
  readonly path: string;
  readonly records: readonly JsonObject[];
}

interface Place {
  readonly path: readonly string[];
  readonly value: JsonObject;
}

function isRecordArray(value: unknown): value is JsonObject[] {
  return Array.isArray(value) && value.every(isPlainObject);
}

/** The key of `object` that spells `name`, exactly or else in another case ("Data", "DATA"). */
function keyLike(object: JsonObject, name: string): string | undefined {
  if (Object.hasOwn(object, name)) return name;
  return Object.keys(object).find((key) => key.toLowerCase() === name);
}

/** Walks the objects below the body breadth first, up to MAX_SEARCH_DEPTH keys, through the keys `keysOf` gives. */
function* walk(
  body: JsonObject,
  keysOf: (object: JsonObject) => readonly string[],
): Generator<{ readonly path: readonly string[]; readonly child: unknown }> {
  let level: Place[] = [{ path: [], value: body }];
  for (let depth = 1; depth <= MAX_SEARCH_DEPTH && level.length > 0; depth++) {
    const next: Place[] = [];
    for (const place of level) {
      for (const key of keysOf(place.value)) {
        const child = place.value[key];
        const path = [...place.path, key];
        yield { path, child };
        if (isPlainObject(child)) next.push({ path, value: child });
      }
    }
    level = next;
  }
}

function envelopeKeys(object: JsonObject): string[] {
  return ENVELOPE_KEYS.flatMap((name) => keyLike(object, name) ?? []);
}

/** Member names that name a column in a column list such as `{"name":"TOTAL","type":"int"}`, and that give its type. */
const COLUMN_NAME_KEYS = ['name', 'id', 'field', 'key', 'column', 'fieldname', 'field_name', 'column_name'];
const COLUMN_TYPE_KEYS = ['type', 'datatype', 'data_type', 'fieldtype', 'field_type'];

function hasTextMember(object: JsonObject, names: readonly string[]): boolean {
  return names.some((name) => {
    const key = keyLike(object, name);
    return key !== undefined && typeof object[key] === 'string';
  });
}

/**
 * Whether an array of objects describes columns rather than holding records: every object names a column and its
 * type (CKAN's `fields`, ArcGIS's `fields`, many portals' `meta.columns`). Such a list often sits beside the
 * records and, for an answer of one record or none, is the larger array.
 */
function isColumnList(array: readonly JsonObject[]): boolean {
  return (
    array.length > 0 &&
    array.every((object) => hasTextMember(object, COLUMN_NAME_KEYS) && hasTextMember(object, COLUMN_TYPE_KEYS))
  );
}

/**
 * The records of a body: the body itself when it is an array of objects; else the array of objects under the
 * shallowest envelope key (an empty one counts: it is a query that matched nothing); else, among the arrays of
 * objects anywhere within MAX_SEARCH_DEPTH keys, the largest non-empty one that is not a column list (the first
 * such at equal length), else the shallowest empty one (a query that matched nothing beside a column list), else the
 * largest column list. Throws NOT_TABULAR.
 */
export function locateRecords(body: unknown): LocatedRecords {
  if (isRecordArray(body)) return { path: '', records: body };
  if (isPlainObject(body)) {
    for (const { path, child } of walk(body, envelopeKeys)) {
      if (isRecordArray(child)) return { path: path.join('.'), records: child };
    }
    let largest: LocatedRecords | undefined;
    let empty: LocatedRecords | undefined;
    let columns: LocatedRecords | undefined;
    for (const { path, child } of walk(body, Object.keys)) {
      if (!isRecordArray(child)) continue;
      const found = { path: path.join('.'), records: child };
      if (child.length === 0) empty ??= found;
      else if (isColumnList(child)) {
        if (child.length > (columns?.records.length ?? 0)) columns = found;
      } else if (child.length > (largest?.records.length ?? 0)) largest = found;
    }
    const located = largest ?? empty ?? columns;
    if (located) return located;
  }
  throw new RecordsError(
    CODE.NOT_TABULAR,
    `the dataset's body holds no records: it is ${describe(body)}, and no array of objects was found within ` +
      `${MAX_SEARCH_DEPTH} levels`,
  );
}

/** The records of a body as locateRecords finds them, or undefined when it holds none. */
export function findRecords(body: unknown): readonly JsonObject[] | undefined {
  try {
    return locateRecords(body).records;
  } catch (error) {
    if (error instanceof RecordsError) return undefined;
    throw error;
  }
}

function describe(body: unknown): string {
  if (Array.isArray(body)) return 'an array of other things than objects';
  if (body === null) return 'null';
  return isPlainObject(body) ? 'an object' : `a ${typeof body}`;
}
