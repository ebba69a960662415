/** Results within MCP_MAX_RESULT_BYTES: the largest part of a list that fits, never an error for size. */

/** What the JSON-RPC envelope around a tool result adds (id, version, field names), with room to spare. */
const ENVELOPE_BYTES = 256;

/** The bytes `value` takes as JSON (UTF-8: Thai text is three bytes a character). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/**
 * The largest `n` (0 to `count`) for which `build(n)` fits `maxBytes` with its envelope; `build` is monotone in n,
 * so a binary search finds it in log2(count) serialisations.
 */
export function largestFitting(count: number, maxBytes: number, build: (n: number) => unknown): number {
  const fits = (n: number): boolean => jsonBytes(build(n)) + ENVELOPE_BYTES <= maxBytes;
  if (fits(count)) return count;
  let [low, high] = [0, count];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}
