/** The languages answers are written in: Thai, the audience's, unless the client prefers English. */
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
 * of RFC 4647): English when the client weighs it above Thai (a range "en" or "en-…"), else Thai. A range the
 * header names only through "*" gets that weight; ties go to Thai. Anything unreadable in the header (a bad range
 * or weight, a range past the first MAX_RANGES) is ignored as if it were not there, so garbage means Thai.
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
  const weightOf = (language: Language): number => weights.get(language) ?? weights.get('*') ?? 0;
  return weightOf('en') > weightOf('th') ? 'en' : 'th';
}
