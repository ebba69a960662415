/**
 * CKAN's `package_search` over the 13 package dicts, as Solr answers it for the queries CKAN clients send: `q` (free
 * text, or `*:*` for everything, or `field:value` terms), `fq` (`field:value`, `field:"a value"`, date ranges
 * `metadata_modified:[2026-01-01T00:00:00Z TO *]`, terms joined by `OR`, a leading `+` or `-`), and `sort` (`id asc`,
 * `name asc`, `metadata_modified desc`, several keys separated by commas). No Solr: the catalogue is small enough to
 * filter in memory, so the semantics are spelt out here rather than borrowed.
 */

type Json = Record<string, unknown>;

/** A problem with a query: CKAN answers it as a Validation Error (409) naming the parameter. */
export class CkanQueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
    this.name = 'CkanQueryError';
  }
}

/** One term of a query: a field compared with a value or a range; `field` undefined for free text. */
interface Term {
  readonly field: string | undefined;
  readonly value?: string;
  readonly range?: { readonly from: number; readonly to: number; readonly inclusive: boolean };
  readonly negated: boolean;
}

/** A query: every clause must hold; a clause holds when any of its terms does (terms joined by OR). */
type Query = readonly (readonly Term[])[];

// A token: a range in brackets or braces, a quoted phrase, or a run of other characters (a field name may precede
// either of the first two).
const TOKEN = /[+-]?(?:[A-Za-z_][\w.]*:)?(?:\[[^\]]*\]|\{[^}]*\}|"(?:[^"\\]|\\.)*"|[^\s"[{]+)/g;
const RANGE = /^([[{])\s*(\S+)\s+TO\s+(\S+)\s*([\]}])$/;

/** A Solr date (ISO 8601 in UTC, fractions of any length), `*`, or `NOW` with simple date maths (`NOW-1DAY`). */
function solrDate(text: string, parameter: string, open: number): number {
  if (text === '*') return open;
  const now = /^NOW(?:([+-])(\d+)(YEARS?|MONTHS?|DAYS?|HOURS?|MINUTES?|SECONDS?))?$/.exec(text);
  if (now !== null) {
    const units: Record<string, number> = { YEAR: 365 * 86_400_000, MONTH: 30 * 86_400_000, DAY: 86_400_000 };
    Object.assign(units, { HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1_000 });
    if (now[1] === undefined) return Date.now();
    const unit = units[(now[3] ?? '').replace(/S$/, '')] ?? 0;
    return Date.now() + (now[1] === '-' ? -1 : 1) * Number(now[2]) * unit;
  }
  const date = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z?$/.exec(text);
  const at = date === null ? NaN : Date.parse(`${date[1]}.${(date[2] ?? '').padEnd(3, '0').slice(0, 3)}Z`);
  if (Number.isNaN(at)) throw new CkanQueryError(parameter, `Search error: invalid date ${JSON.stringify(text)}`);
  return at;
}

function parseTerm(token: string, parameter: string): Term | 'OR' | 'AND' {
  if (token === 'OR' || token === '||') return 'OR';
  if (token === 'AND' || token === '&&') return 'AND';
  const negated = token.startsWith('-');
  const body = token.replace(/^[+-]/, '');
  const colon = /^[A-Za-z_][\w.]*:/.exec(body);
  const field = colon === null ? undefined : colon[0].slice(0, -1);
  const rest = colon === null ? body : body.slice(colon[0].length);
  const range = RANGE.exec(rest);
  if (range !== null && field !== undefined) {
    const inclusive = range[1] === '[';
    const from = solrDate(range[2] ?? '*', parameter, -Infinity);
    const to = solrDate(range[3] ?? '*', parameter, Infinity);
    return { field, range: { from, to, inclusive }, negated };
  }
  const value = rest.startsWith('"') ? rest.slice(1, -1).replace(/\\(.)/g, '$1') : rest.replace(/\\(.)/g, '$1');
  return { field, value, negated };
}

/** A `q` or `fq` text as clauses; `*:*` and the empty text match everything. */
export function parseQuery(text: string, parameter: string): Query {
  const clauses: Term[][] = [];
  let joinNext = false;
  for (const token of text.match(TOKEN) ?? []) {
    if (token === '*:*' || token === '*') continue;
    const term = parseTerm(token, parameter);
    if (term === 'OR') {
      joinNext = clauses.length > 0;
      continue;
    }
    if (term === 'AND') continue;
    const last = clauses[clauses.length - 1];
    if (joinNext && last !== undefined) last.push(term);
    else clauses.push([term]);
    joinNext = false;
  }
  return clauses;
}

/** A scalar as the text Solr indexed; anything else as no text. */
export function asText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** What a package holds under a field name, as the texts Solr indexed (CKAN's index names, a few of them). */
function fieldValues(pkg: Json, field: string): string[] {
  const list = (key: string, of: string): string[] =>
    Array.isArray(pkg[key]) ? (pkg[key] as Json[]).map((item) => asText(item[of])) : [];
  switch (field) {
    case 'organization':
      return [asText((pkg['organization'] as Json | undefined)?.['name'])];
    case 'tags':
      return list('tags', 'name');
    case 'res_format':
      return list('resources', 'format');
    case 'res_name':
      return list('resources', 'name');
    case 'res_url':
      return list('resources', 'url');
    case 'groups':
      return list('groups', 'name');
    case 'dataset_type':
      return [asText(pkg['type'])];
    case 'text':
      return [searchText(pkg)];
    default: {
      if (field.startsWith('extras_')) {
        const key = field.slice('extras_'.length);
        return (pkg['extras'] as Json[]).filter((extra) => extra['key'] === key).map((extra) => asText(extra['value']));
      }
      const value = pkg[field];
      return (Array.isArray(value) ? value : [value]).map(asText).filter((text) => text.length > 0);
    }
  }
}

/**
 * Everything free text is matched against, in lower case: name, title, notes and tags, and the package's
 * `search_text` (what the catalogue search finds it by: field names, the provinces it holds) when it carries one.
 */
function searchText(pkg: Json): string {
  return [pkg['name'], pkg['title'], pkg['notes'], ...fieldValues(pkg, 'tags'), asText(pkg['search_text'])]
    .join(' ')
    .toLowerCase();
}

function matchesTerm(pkg: Json, term: Term): boolean {
  let found: boolean;
  if (term.range !== undefined) {
    const { from, to, inclusive } = term.range;
    found = fieldValues(pkg, term.field ?? '').some((text) => {
      const at = Date.parse(/Z$|[+-]\d{2}:\d{2}$/.test(text) ? text : `${text}Z`);
      if (Number.isNaN(at)) return false;
      return inclusive ? at >= from && at <= to : at > from && at < to;
    });
  } else if (term.field === undefined) {
    found = searchText(pkg).includes((term.value ?? '').toLowerCase());
  } else {
    const wanted = (term.value ?? '').toLowerCase();
    const wildcard = wanted.endsWith('*') ? wanted.slice(0, -1) : undefined;
    found = fieldValues(pkg, term.field).some((text) => {
      const value = text.toLowerCase();
      return wildcard === undefined ? value === wanted : value.startsWith(wildcard);
    });
  }
  return term.negated ? !found : found;
}

/** Whether a package satisfies every clause of every query. */
export function matches(pkg: Json, queries: readonly Query[]): boolean {
  return queries.every((query) => query.every((clause) => clause.some((term) => matchesTerm(pkg, term))));
}

/** How many free-text terms of `q` a package matches, Solr's `score` in the small. */
export function score(pkg: Json, query: Query): number {
  return query.flat().filter((term) => term.field === undefined && !term.negated && matchesTerm(pkg, term)).length;
}

const SORTABLE: Readonly<Record<string, (pkg: Json) => string | number>> = {
  id: (pkg) => String(pkg['id']),
  name: (pkg) => String(pkg['name']),
  title_string: (pkg) => String(pkg['title']),
  title: (pkg) => String(pkg['title']),
  metadata_modified: (pkg) => Date.parse(`${String(pkg['metadata_modified'])}Z`) || 0,
  metadata_created: (pkg) => Date.parse(`${String(pkg['metadata_created'])}Z`) || 0,
  num_resources: (pkg) => Number(pkg['num_resources']),
  num_tags: (pkg) => Number(pkg['num_tags']),
};

/** A comparator for a `sort` text: `score` by the query, the other keys by the package; refused when unknown. */
export function comparator(sort: string, query: Query): (a: Json, b: Json) => number {
  const keys = sort
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [field = '', direction = 'asc'] = part.split(/\s+/);
      if (direction !== 'asc' && direction !== 'desc') {
        throw new CkanQueryError('sort', `Search error: sort direction must be asc or desc: ${JSON.stringify(part)}`);
      }
      const read = field === 'score' ? (pkg: Json) => score(pkg, query) : SORTABLE[field];
      if (read === undefined) {
        throw new CkanQueryError('sort', `Search error: cannot sort on ${JSON.stringify(field)}`);
      }
      return { read, sign: direction === 'asc' ? 1 : -1 };
    });
  return (a, b) => {
    for (const { read, sign } of keys) {
      const x = read(a);
      const y = read(b);
      if (x < y) return -sign;
      if (x > y) return sign;
    }
    return 0;
  };
}

/** Counts of each value of the faceted fields, as CKAN's `facets` and `search_facets` give them. */
export function facetsOf(
  packages: readonly Json[],
  fields: readonly string[],
  limit: number,
): { facets: Json; searchFacets: Json } {
  // Keyed by the fields asked for, from entries: a field named `__proto__` is a facet like any other.
  const counted = fields.map((field) => {
    const counts = new Map<string, number>();
    for (const pkg of packages) {
      for (const value of new Set(fieldValues(pkg, field))) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    return [field, [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit)] as const;
  });
  return {
    facets: Object.fromEntries(counted.map(([field, items]) => [field, Object.fromEntries(items)])),
    searchFacets: Object.fromEntries(
      counted.map(([field, items]) => [
        field,
        { title: field, items: items.map(([name, count]) => ({ name, display_name: name, count })) },
      ]),
    ),
  };
}
