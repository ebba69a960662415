import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * JSON text of a large value written a slice at a time: the writer walks the value the answer made (its objects
 * and lists), hands each value whose size it knows (an upstream body, a record: values fields return) to
 * JSON.stringify whole, once however often the answer repeats it (aliases, a batch's operations: `texts` is shared
 * between the calls for one answer), and gives the event loop back after every `sliceBytes` of text, so that a
 * 20 MB answer never holds the loop for the time one JSON.stringify of it takes (a few hundred ms on a busy 2-core
 * machine). `sizeOf` tells what it knows of a value's size (undefined: not known, so walked).
 */
export async function slicedJson(
  value: unknown,
  sizeOf: (value: object) => number | undefined,
  sliceBytes: number,
  texts: WeakMap<object, string> = new WeakMap(),
): Promise<string> {
  const parts: string[] = [];
  const written = { sinceYield: 0 };
  const writer = write(value, parts, written, { sizeOf, sliceBytes, texts });
  while (!writer.next().done) await nextTurn();
  return parts.join('');
}

interface Writing {
  readonly sizeOf: (value: object) => number | undefined;
  readonly sliceBytes: number;
  readonly texts: WeakMap<object, string>;
}

// A value of known size up to this is written by one JSON.stringify (an upstream body: tens of ms); a larger one is
// walked, so that no single call holds the loop for long.
const WHOLE_MAX_BYTES = 8 * 1024 * 1024;

function* write(
  value: unknown,
  parts: string[],
  written: { sinceYield: number },
  writing: Writing,
): Generator<undefined, void, undefined> {
  const { sizeOf, sliceBytes, texts } = writing;
  const push = (text: string): boolean => {
    parts.push(text);
    written.sinceYield += text.length;
    if (written.sinceYield < sliceBytes) return false;
    written.sinceYield = 0;
    return true;
  };
  if (typeof value !== 'object' || value === null) {
    if (push(JSON.stringify(value) ?? 'null')) yield;
    return;
  }
  const size = sizeOf(value);
  if (size !== undefined && size <= WHOLE_MAX_BYTES) {
    let text = texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      texts.set(value, text);
    }
    if (push(text)) yield;
    return;
  }
  if ('toJSON' in value && typeof value.toJSON === 'function') {
    yield* write((value.toJSON as () => unknown).call(value), parts, written, writing);
    return;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      const item: unknown = value[index];
      yield* write(isWritten(item) ? item : null, parts, written, writing);
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
    yield* write(item, parts, written, writing);
  }
  parts.push('}');
}

/** What JSON.stringify writes as a member: not undefined, a function or a symbol. */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
