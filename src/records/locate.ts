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

/**
 * The records of a body: the body itself when it is an array of objects; else the array of objects under the
 * shallowest envelope key (an empty one counts: it is a query that matched nothing); else the largest non-empty
 * array of objects anywhere within MAX_SEARCH_DEPTH keys (the first such at equal length). Throws NOT_TABULAR.
 */
export function locateRecords(body: unknown): LocatedRecords {
  if (isRecordArray(body)) return { path: '', records: body };
  if (isPlainObject(body)) {
    for (const { path, child } of walk(body, envelopeKeys)) {
      if (isRecordArray(child)) return { path: path.join('.'), records: child };
    }
    let largest: LocatedRecords | undefined;
    for (const { path, child } of walk(body, Object.keys)) {
      if (isRecordArray(child) && child.length > (largest?.records.length ?? 0)) {
        largest = { path: path.join('.'), records: child };
      }
    }
    if (largest) return largest;
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
