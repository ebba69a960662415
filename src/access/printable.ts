/**
 * Characters that change how text around them is shown instead of being shown themselves: the C0 and C1
 * controls (terminal escape sequences, carriage return, newline, tab, DEL…), the Unicode line and paragraph
 * separators, every format character (\p{Cf}: the bidirectional embeddings, overrides, isolates and marks such as
 * U+202E, U+2066, U+200F and U+061C, which reorder what follows them; the invisible U+200B, U+2060 and U+FEFF; the
 * tag characters U+E0000–U+E007F), the Hangul fillers that render as blank space, and lone surrogates, which are
 * not text at all. Any of them lets stored text pass for something else on an operator's screen: a forged table
 * row, a name that reads backwards, two clients whose names look the same.
 */
const HIDDEN = String.raw`[\p{Cc}\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0]`;
// The one format character kept: a zero-width joiner between two emoji, which draws them as one (👩‍🏫).
const EMOJI_JOINER = String.raw`(?<=\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})`;
const UNPRINTABLE = new RegExp(String.raw`(?!${EMOJI_JOINER})${HIDDEN}|\p{Cs}`, 'u');
const UNPRINTABLE_OR_BACKSLASH = new RegExp(String.raw`(?!${EMOJI_JOINER})${HIDDEN}|\p{Cs}|\\`, 'gu');

/** `U+001B`: how a refusal names the character, without repeating it. */
function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first such character in `text` (its code point, e.g. "U+202E", and its UTF-16 index), if any. */
export function findUnprintable(text: string): { readonly codePoint: string; readonly index: number } | undefined {
  const match = UNPRINTABLE.exec(text);
  return match === null ? undefined : { codePoint: codePointName(match[0]), index: match.index };
}

/**
 * `text` as a terminal may print it: each such character written as an escape (`\x1B`, `\u202E`), and a
 * backslash doubled, so the output stays on one line, in order, and says exactly what is stored.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE_OR_BACKSLASH, (character) => {
    if (character === '\\') return '\\\\';
    const code = character.codePointAt(0) ?? 0;
    const hex = code.toString(16).toUpperCase();
    if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
    // A tag character lies beyond U+FFFF: written whole, as JavaScript would, not as half a surrogate pair.
    return code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
  });
}
