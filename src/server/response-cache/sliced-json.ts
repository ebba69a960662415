import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * One answer's JSON text, as the pieces it is written in: its own text, and the texts of the values it shares with
 * other answers (sharedJsonText), which are never copied into it.
 */
export type AnswerChunks = (string | Buffer)[];

/** What the writer knows of a value without walking it. */
export interface KnownValues {
  /** Its size as JSON, when known (undefined: not known, so walked). */
  readonly sizeOf: (value: object) => number | undefined;
  /** Whether answers share its text (an upstream body as cached: see sharedJsonText). */
  readonly shared: (value: object) => boolean;
}

/**
 * JSON text of a large value written a slice at a time: the writer walks the value the answer made (its objects
 * and lists) and gives the event loop back after every `sliceBytes` of text, so that a 20 MB answer never holds the
 * loop for the time one JSON.stringify of it takes (a few hundred ms on a busy 2-core machine). A value that answers
 * share (an upstream body) is not written at all but taken as its shared text, so every answer that carries one
 * payload version sends the same bytes; another value of known size (a record) is handed to JSON.stringify whole,
 * once however often the answer repeats it (aliases, a batch's operations: `texts` is shared between the calls for
 * one answer).
 */
export async function slicedJson(
  value: unknown,
  known: KnownValues,
  sliceBytes: number,
  texts: WeakMap<object, string> = new WeakMap(),
): Promise<AnswerChunks> {
  const chunks: AnswerChunks = [];
  const written = { sinceYield: 0 };
  const writer = write(value, chunks, written, { ...known, sliceBytes, texts });
  while (!writer.next().done) await nextTurn();
  return chunks;
}

// The JSON text of each shared value an answer has carried, as UTF-8: made once for a payload version (the cached
// body's parsed value) and sent by every answer that carries it, for as long as the value lives.
const sharedTexts = new WeakMap<object, Buffer>();

/** The JSON text of `value`, made the first time it is asked for and the same Buffer every time after. */
export function sharedJsonText(value: object): Buffer {
  let text = sharedTexts.get(value);
  if (text === undefined) {
    text = Buffer.from(JSON.stringify(value));
    sharedTexts.set(value, text);
  }
  return text;
}

/** The chunks as one string: for a part that is written as text (an incremental part, an event). */
export function joinedText(chunks: AnswerChunks): string {
  return chunks.map((chunk) => (typeof chunk === 'string' ? chunk : chunk.toString('utf8'))).join('');
}

interface Writing extends KnownValues {
  readonly sliceBytes: number;
  readonly texts: WeakMap<object, string>;
}

// A value of known size up to this is written by one JSON.stringify (a record: tens of ms at most); a larger one is
// walked, so that no single call holds the loop for long.
const WHOLE_MAX_BYTES = 8 * 1024 * 1024;

function* write(
  value: unknown,
  chunks: AnswerChunks,
  written: { sinceYield: number },
  writing: Writing,
): Generator<undefined, void, undefined> {
  const { sizeOf, shared, sliceBytes, texts } = writing;
  const push = (chunk: string | Buffer): boolean => {
    chunks.push(chunk);
    written.sinceYield += chunk.length;
    if (written.sinceYield < sliceBytes) return false;
    written.sinceYield = 0;
    return true;
  };
  if (typeof value !== 'object' || value === null) {
    if (push(JSON.stringify(value) ?? 'null')) yield;
    return;
  }
  if (shared(value)) {
    if (push(sharedJsonText(value))) yield;
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
    yield* write((value.toJSON as () => unknown).call(value), chunks, written, writing);
    return;
  }
  if (Array.isArray(value)) {
    chunks.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) chunks.push(',');
      const item: unknown = value[index];
      yield* write(isWritten(item) ? item : null, chunks, written, writing);
    }
    chunks.push(']');
    return;
  }
  chunks.push('{');
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (!isWritten(item)) continue;
    chunks.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    yield* write(item, chunks, written, writing);
  }
  chunks.push('}');
}

/** What JSON.stringify writes as a member: not undefined, a function or a symbol. */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
