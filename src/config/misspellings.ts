import { KNOWN_NAMES, SETTING_LIST } from './settings.js';

/**
 * Families of our names: the first word of each (UPSTREAM_, DATABASE_, LIMIT_…). A variable in a family that is not
 * one of ours is a misspelling. OTEL_ is the OpenTelemetry specification's family (OTEL_SERVICE_NAME…), not ours.
 */
export const KNOWN_PREFIXES: readonly string[] = [
  ...new Set(
    SETTING_LIST.filter((s) => s.env.includes('_'))
      .map((s) => `${s.env.split('_')[0]}_`)
      .filter((prefix) => prefix !== 'OTEL_' && prefix !== 'NODE_'),
  ),
];

/** Variables of other software that share a family with ours. */
const FOREIGN_NAMES = new Set(['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS']);
/**
 * Kubernetes injects `<SERVICE>_SERVICE_HOST`, `<SERVICE>_PORT`, `<SERVICE>_PORT_6379_TCP_ADDR`… for every service in
 * the namespace (a service named redis gives REDIS_PORT): they are not misspellings of ours.
 */
const SERVICE_LINK =
  /^[A-Z0-9_]+_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT(_\d+_(TCP|UDP|SCTP)(_PROTO|_PORT|_ADDR)?)?)$/;

// Short names (HOST, PORT) are a letter or two away from many unrelated variables (HOME, POST…): exact only.
const allowedDistance = (known: string): number => (known.length < 6 ? 0 : known.length < 10 ? 1 : 2);

/**
 * Each known name with the distance a variable may be from it, in declaration order. A name within distance d of
 * another has a length within d of it, so most pairs are passed over on their lengths alone: comparing every
 * variable with every name cost a start with 127 variables in the environment 86 ms.
 */
const NEAR_MISS_OF = [...KNOWN_NAMES].map((name) => ({ name, allowed: allowedDistance(name) }));

/** Three rows of the distance table, grown to the longest name met and kept: the check allocates nothing per pair. */
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours; or `bound + 1`
 * once it is known to exceed `bound`. Three rows of the table are enough (a swap looks two rows back), and of each
 * row only the cells within `bound` of the diagonal: a cell further off costs more than `bound` already.
 */
export function editDistance(a: string, b: string, bound = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const width = b.length + 1;
  if (rows[0].length < width + 1)
    rows = [new Int32Array(width * 2), new Int32Array(width * 2), new Int32Array(width * 2)];
  let twoBack = rows[0];
  let oneBack = rows[1];
  let row = rows[2];
  // Cells beyond the band read as one more than it: never below the true value, always above the bound.
  const band = Math.min(bound, Math.max(a.length, b.length));
  const outside = band + 1;
  for (let j = 0; j <= Math.min(band, b.length); j += 1) oneBack[j] = j;
  oneBack[Math.min(band, b.length) + 1] = outside;
  let previousMin = 0;
  for (let i = 1; i <= a.length; i += 1) {
    const from = Math.max(1, i - band);
    const to = Math.min(b.length, i + band);
    row[from - 1] = from === 1 ? i : outside;
    let rowMin = row[from - 1]!;
    for (let j = from; j <= to; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      // Every index read lies within the band of its row, or on the cell just past it, which holds `outside`.
      let best = Math.min(oneBack[j]! + 1, row[j - 1]! + 1, oneBack[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        best = Math.min(best, twoBack[j - 2]! + 1);
      row[j] = best;
      if (best < rowMin) rowMin = best;
    }
    row[to + 1] = outside;
    // A later cell is at least the smaller of this row's minimum and the last row's (a swap reaches back two).
    if (rowMin > bound && previousMin > bound) return bound + 1;
    previousMin = rowMin;
    // Rotated by hand: a destructuring swap iterates arrays, which costs a cold start more than the cells do.
    const free = twoBack;
    twoBack = oneBack;
    oneBack = row;
    row = free;
  }
  const distance = oneBack[b.length]!;
  return distance > bound ? bound + 1 : distance;
}

/** The known name nearest to `name` (upper-cased), with its distance; the first declared on a tie. */
function nearestKnownName(name: string): { name: string; distance: number } {
  const upper = name.toUpperCase();
  let nearest = { name: '', distance: Number.POSITIVE_INFINITY };
  for (const known of KNOWN_NAMES) {
    const distance = editDistance(upper, known, nearest.distance);
    if (distance < nearest.distance) nearest = { name: known, distance };
  }
  return nearest;
}

/**
 * The known name nearest to `upper` among those it is within the allowed distance of (the first declared on a
 * tie), or undefined.
 */
function nearMiss(upper: string): string | undefined {
  let nearest: { name: string; distance: number } | undefined;
  for (const known of NEAR_MISS_OF) {
    if (Math.abs(known.name.length - upper.length) > known.allowed) continue;
    const distance = editDistance(upper, known.name, known.allowed);
    if (distance <= known.allowed && (nearest === undefined || distance < nearest.distance))
      nearest = { name: known.name, distance };
  }
  return nearest?.name;
}

/**
 * Variables that look like ours but are not, each with the nearest known name: one in a family of ours, or within
 * the distance a known name allows of it.
 */
export function unknownNames(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(env)) {
    if (KNOWN_NAMES.has(name)) continue;
    const upper = name.toUpperCase();
    if (FOREIGN_NAMES.has(upper) || SERVICE_LINK.test(name)) continue;
    const inFamily = KNOWN_PREFIXES.some((prefix) => upper.startsWith(prefix));
    const nearest = inFamily ? nearestKnownName(upper).name : nearMiss(upper);
    if (nearest !== undefined) problems.push(`${name}: not a setting of this server; did you mean ${nearest}?`);
  }
  return problems;
}
