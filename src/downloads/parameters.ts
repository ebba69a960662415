/**
 * A download's query string, the contract the portal's links are built with:
 *
 * - `where.<column>=<value>`: records whose column equals the value, compared as the records engine compares
 *   (`2566` equals `"2566"`); the parameter repeated means any of its values; several columns must all match;
 * - `sort=<column>` ascending, `sort=-<column>` descending, repeated for more keys (most significant first);
 * - `query.<param>=<value>`: passed to the upstream as the `query:` argument passes it (repeated: every value).
 *
 * Anything else is refused, so a misspelt parameter is heard rather than ignored.
 */
import type { JsonObject } from '../json.js';
import { badUserInput } from './errors.js';
import type { RecordFilter, RecordOrder } from '../records/index.js';
import { canonicalQueryString } from '../upstream/query.js';

export interface DownloadParameters {
  readonly where: readonly RecordFilter[];
  readonly orderBy: readonly RecordOrder[];
  /** The upstream query, as `query:` takes it; null when none. */
  readonly query: JsonObject | null;
  /** The upstream query in its canonical form (the loader's and the cache's key). */
  readonly queryString: string;
  /** The same parameters whatever order they came in: what the file's ETag is made of. */
  readonly canonical: string;
}

const WHERE = 'where.';
const QUERY = 'query.';
const SORT = 'sort';
/** The most distinct upstream parameters one download may pass on. */
export const MAX_QUERY_PARAMETERS = 32;

export function downloadParameters(search: URLSearchParams): DownloadParameters {
  const equal = new Map<string, string[]>();
  const upstream = new Map<string, string[]>();
  const orderBy: RecordOrder[] = [];
  for (const [name, value] of search) {
    if (name.startsWith(WHERE) && name.length > WHERE.length) {
      const column = name.slice(WHERE.length);
      equal.set(column, [...(equal.get(column) ?? []), value]);
    } else if (name.startsWith(QUERY) && name.length > QUERY.length) {
      const param = name.slice(QUERY.length);
      upstream.set(param, [...(upstream.get(param) ?? []), value]);
    } else if (name === SORT) {
      const descending = value.startsWith('-');
      const field = descending ? value.slice(1) : value;
      if (field === '') throw badUserInput('sort: name a column, as sort=<column> or sort=-<column>');
      orderBy.push({ field, direction: descending ? 'DESC' : 'ASC' });
    } else {
      throw badUserInput(
        `unknown parameter ${JSON.stringify(name.slice(0, 64))}: the parameters are where.<column>=<value>, ` +
          'sort=<column> or sort=-<column>, and query.<param>=<value>',
      );
    }
  }
  if (upstream.size > MAX_QUERY_PARAMETERS) {
    throw badUserInput(`query.<param>: ${upstream.size} parameters; at most ${MAX_QUERY_PARAMETERS} are allowed`);
  }
  const where: RecordFilter[] = [...equal].map(([field, values]) =>
    values.length === 1 ? { field, eq: values[0] } : { field, in: values },
  );
  const query: JsonObject | null =
    upstream.size === 0
      ? null
      : Object.fromEntries([...upstream].map(([param, values]) => [param, values.length === 1 ? values[0] : values]));
  const queryString = canonicalQueryString(query);
  const canonical = JSON.stringify([
    [...equal.keys()].sort().map((field) => [field, [...(equal.get(field) ?? [])].sort()]),
    orderBy.map((order) => `${order.direction === 'DESC' ? '-' : ''}${order.field}`),
    queryString,
  ]);
  return { where, orderBy, query, queryString, canonical };
}
