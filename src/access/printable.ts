/**
 * Characters that change how text around them is shown instead of being shown themselves: the C0 and C1
 * controls (terminal escape sequences, carriage return, newline, tab, DEL…), the Unicode line and paragraph
 * separators, the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder
 * what follows them, and lone surrogates, which are not text at all. Any of them lets stored text pass for
 * something else on an operator's screen: a forged table row, a name that reads backwards.
 */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]|\p{Cs}/u;
const UNPRINTABLE_OR_BACKSLASH = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\\]|\p{Cs}/gu;

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
    const code = character.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
      : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}
