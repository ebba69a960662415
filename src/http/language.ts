/**
 * The languages answers are written in: Thai, the audience's, when the client prefers it or says nothing; English
 * for any other preference (a device set to Japanese reads English more often than Thai).
 */
export const LANGUAGES = ['th', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'th';

// Language ranges read from one header; the rest are ignored. Real browsers send fewer than ten, and node:http
// already bounds the header's bytes, so this only stops a crafted header from costing more than a real one.
const MAX_RANGES = 32;
// RFC 9110 §12.4.2: a weight is 0 or 1 with at most three decimals.
const WEIGHT = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/;
// RFC 4647 §2.1: a basic language range, or "*".
const RANGE = /^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/;

/**
 * The language of the answer to a request with this `Accept-Language` header (RFC 9110 §12.5.4, basic filtering
 * of RFC 4647): Thai when the client weighs it (a range "th" or "th-…") above English, or as high as English and
 * above 0; English otherwise, so a header that names neither (`ja`) gets English. A range the header names only
 * through "*" gets that weight. Thai, the default, also when the header names no language that can be read (it is
 * absent, empty or garbage: a bad range or weight, a range past the first MAX_RANGES is ignored as if it were not
 * there), and when it refuses English (`en;q=0`) and names nothing above Thai.
 */
export function negotiateLanguage(acceptLanguage: string | null | undefined): Language {
  if (acceptLanguage === null || acceptLanguage === undefined) return DEFAULT_LANGUAGE;
  const weights = new Map<string, number>();
  for (const entry of acceptLanguage.split(',', MAX_RANGES)) {
    const [range = '', ...parameters] = entry.split(';').map((piece) => piece.trim().toLowerCase());
    if (!RANGE.test(range) || parameters.length > 1) continue;
    const weight =
      parameters[0] === undefined ? 1 : WEIGHT.test(parameters[0]) ? Number(parameters[0].slice(2)) : undefined;
    if (weight === undefined) continue;
    const primary = range === '*' ? '*' : (range.split('-')[0] ?? '');
    // The most specific ranges would win by RFC 4647's lookup; for two languages the best weight of each is enough.
    weights.set(primary, Math.max(weights.get(primary) ?? 0, weight));
  }
  if (weights.size === 0) return DEFAULT_LANGUAGE;
  const weightOf = (language: Language): number => weights.get(language) ?? weights.get('*') ?? 0;
  const [thai, english] = [weightOf('th'), weightOf('en')];
  if (thai !== english) return thai > english ? 'th' : 'en';
  return thai > 0 || weights.get('en') === 0 ? 'th' : 'en';
}
