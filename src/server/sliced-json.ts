import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * JSON text of a large value written a slice at a time: the writer walks the value, hands each part it knows to be
 * small to JSON.stringify whole, and gives the event loop back after every `sliceBytes` of text, so that a 20 MB
 * answer never holds the loop for the time one JSON.stringify of it takes (a few hundred ms on a busy 2-core
 * machine). `sizeOf` tells what it knows of a value's size (undefined: not known, so walked).
 */
export async function slicedJson(
  value: unknown,
  sizeOf: (value: object) => number | undefined,
  sliceBytes: number,
): Promise<string> {
  const parts: string[] = [];
  const written = { sinceYield: 0 };
  const writer = write(value, parts, written, sizeOf, sliceBytes);
  while (!writer.next().done) await nextTurn();
  return parts.join('');
}

function* write(
  value: unknown,
  parts: string[],
  written: { sinceYield: number },
  sizeOf: (value: object) => number | undefined,
  sliceBytes: number,
): Generator<undefined, void, undefined> {
  const push = (text: string): boolean => {
    parts.push(text);
    written.sinceYield += text.length;
    if (written.sinceYield < sliceBytes) return false;
    written.sinceYield = 0;
    return true;
  };
  if (typeof value !== 'object' || value === null || (sizeOf(value) ?? sliceBytes) < sliceBytes) {
    if (push(JSON.stringify(value) ?? 'null')) yield;
    return;
  }
  if ('toJSON' in value && typeof value.toJSON === 'function') {
    yield* write((value.toJSON as () => unknown).call(value), parts, written, sizeOf, sliceBytes);
    return;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      const item: unknown = value[index];
      yield* write(isWritten(item) ? item : null, parts, written, sizeOf, sliceBytes);
    }
    parts.push(']');
    return;
  }
  parts.push('{');
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (!isWritten(item)) continue;
    parts.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    yield* write(item, parts, written, sizeOf, sliceBytes);
  }
  parts.push('}');
}

/** What JSON.stringify writes as a member: not undefined, a function or a symbol. */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
