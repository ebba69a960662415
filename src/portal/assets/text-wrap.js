// Lines of text for an SVG, which does not wrap text itself: a chart's caption and source footer are broken into
// lines that fit its width. The width of a line is estimated from its characters, on the wide side for the fonts a
// reader's system or an image viewer may draw it with (Noto Sans Thai, Sarabun, Tahoma, Loma, Arial, DejaVu Sans):
// a line may end a little short, never past the edge. No DOM here, so Node tests run it.

/** Thai vowel and tone marks drawn above or below the consonant before them: no width of their own. */
const THAI_COMBINING = /[\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]/u;
const NARROW = /[ilj.,:;'|!()[\]{}ftrI\s]/u;
const WIDE_LATIN = /[MWmw@%]/u;

/**
 * A character's width in ems, on the wide side.
 * @param {string} character
 */
function characterWidth(character) {
  if (THAI_COMBINING.test(character)) return 0;
  if (/[\u0E00-\u0E7F]/u.test(character)) return 0.7;
  if (NARROW.test(character)) return 0.4;
  if (WIDE_LATIN.test(character)) return 1;
  if (/[A-Z]/u.test(character)) return 0.78;
  if (/[\u0020-\u007E\u00A0-\u024F]/u.test(character)) return 0.64;
  // Anything else (an ellipsis, a dash, a CJK character): as wide as a square.
  return 1;
}

/**
 * The estimated width of `text` set at `fontSize` pixels.
 * @param {string} text
 * @param {number} fontSize
 */
export function textWidth(text, fontSize) {
  let ems = 0;
  for (const character of text) ems += characterWidth(character);
  return ems * fontSize;
}

/**
 * Where a line may break: after a space, or in an address after / ? & = . - _ (an address has no spaces, and is
 * never cut: it goes on over the next line).
 * @param {string} text
 * @returns {string[]} pieces that join back into `text`
 */
function pieces(text) {
  return text.match(/[^\s/?&=._-]*(?:[\s/?&=._-]+|$)/gu)?.filter((piece) => piece !== '') ?? [];
}

/**
 * `text` broken into lines no wider than `width` at `fontSize`: at spaces and within addresses, and a piece wider
 * than a line (a long Thai phrase, which has no spaces between words) at any character not a combining mark. Every
 * character of `text` is on some line; only the spaces at a break are dropped.
 * @param {string} text
 * @param {number} width
 * @param {number} fontSize
 * @returns {string[]}
 */
export function wrapText(text, width, fontSize) {
  /** @type {string[]} */
  const lines = [];
  let line = '';
  const push = () => {
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = '';
  };
  for (const piece of pieces(text)) {
    if (textWidth((line + piece).trimEnd(), fontSize) <= width) {
      line += piece;
      continue;
    }
    push();
    // Not at the start of a line: a space that was the break.
    let rest = piece.trimStart();
    while (textWidth(rest.trimEnd(), fontSize) > width) {
      const characters = [...rest];
      let count = 0;
      let used = 0;
      while (count < characters.length) {
        const next = characterWidth(/** @type {string} */ (characters[count])) * fontSize;
        if (used + next > width && count > 0) break;
        used += next;
        count += 1;
      }
      // A combining mark stays with the consonant it sits on.
      while (count > 1 && THAI_COMBINING.test(characters[count] ?? '')) count -= 1;
      lines.push(characters.slice(0, count).join(''));
      rest = characters.slice(count).join('');
    }
    line = rest;
  }
  push();
  return lines;
}
