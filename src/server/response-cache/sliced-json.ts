import { setImmediate as nextTurn } from 'node:timers/promises';
import { laterTurn } from '../../later-turn.js';

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
 * and lists) and gives the event loop back after every `sliceBytes` of text or SLICE_VALUES values, whichever comes
 * first, so that a 20 MB answer never holds the loop for the time one JSON.stringify of it takes (a few hundred ms
 * on a busy 2-core machine), nor does an answer of many small values (half a million list items of a few bytes each
 * cost far more to walk than their bytes say). A value that answers share (an upstream body) is written once, in
 * slices of its own, and then taken as its shared text, so every answer that carries one payload version sends the
 * same bytes; another value of known size (a record) is handed to JSON.stringify whole, once however often the
 * answer repeats it (aliases, a batch's operations: `texts` is shared between the calls for one answer). The
 * answer's own text comes out as one Buffer a slice.
 */
export async function slicedJson(
  value: unknown,
  known: KnownValues,
  sliceBytes: number,
  texts: WeakMap<object, string> = new WeakMap(),
): Promise<AnswerChunks> {
  const chunks: AnswerChunks = [];
  const writer = write(value, chunks, { ...known, sliceBytes, texts });
  for (let step = writer.next(); step.done !== true; step = writer.next()) await (step.value ?? nextTurn());
  return chunks;
}

// The JSON text of each shared value an answer has carried, as UTF-8: made once for a payload version (the cached
// body's parsed value) and sent by every answer that carries it, for as long as the value lives.
const sharedTexts = new WeakMap<object, Buffer>();
// The shared texts being written, a slice at a time, which every answer that carries the value waits for.
const sharedWrites = new WeakMap<object, Promise<Buffer>>();

/** The JSON text of `value`, made the first time it is asked for and the same Buffer every time after. */
export function sharedJsonText(value: object): Buffer {
  let text = sharedTexts.get(value);
  if (text === undefined) {
    text = Buffer.from(JSON.stringify(value));
    sharedTexts.set(value, text);
  }
  return text;
}

/**
 * The shared text of `value` as the writer makes it (see sharedJsonText): written a slice at a time the first time,
 * as any large value is, since one JSON.stringify of the largest payload (3.7 MB) and its copy into a Buffer hold the
 * loop for 15-30 ms, on the turn its upstream body arrives, beside the body's parse and everything else that waited
 * for it; then the same Buffer every time after. Answers that carry it meanwhile wait for the one write.
 */
function writtenSharedText(value: object, sliceBytes: number): Promise<Buffer> {
  let writing = sharedWrites.get(value);
  if (writing === undefined) {
    // Not in the turn that delivered the value (its upstream body's parse), and in slices smaller than an answer's.
    const slices = Math.min(sliceBytes, SHARED_SLICE_BYTES);
    writing = laterTurn().then(async () => {
      const chunks = await slicedJson(value, FLAT_WHOLE, slices);
      // Only Buffers: nothing inside a shared value is shared again.
      const text = Buffer.concat(chunks as Buffer[]);
      sharedTexts.set(value, text);
      return text;
    });
    sharedWrites.set(value, writing);
    // Written or failed (a value JSON cannot write), it is asked for afresh: the text is in sharedTexts by then.
    writing.then(
      () => sharedWrites.delete(value),
      () => sharedWrites.delete(value),
    );
  }
  return writing;
}

/** The text a shared value is written in a turn at most: its records whole, a few ms. */
const SHARED_SLICE_BYTES = 256 * 1024;

/** Members an object may have and still be written by one JSON.stringify inside a shared value (see FLAT_WHOLE). */
const FLAT_MEMBERS_MAX = 256;

/**
 * Inside a shared value, an object of a few leaves (a record) is written whole, by one JSON.stringify, and anything
 * holding objects or lists (the body, its lists of records) is walked: a record's members one by one would cost the
 * walk several times what JSON.stringify takes for them.
 */
const FLAT_WHOLE: KnownValues = {
  sizeOf(value) {
    if (Array.isArray(value)) return undefined;
    let members = 0;
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      if ((typeof item === 'object' && item !== null) || ++members > FLAT_MEMBERS_MAX) return undefined;
    }
    return 0;
  },
  shared: () => false,
};

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

/**
 * Values (objects, lists and leaves) written in one turn of the event loop at most, over every answer written in it:
 * a few ms on a busy machine. Counted across answers, since a batch writes its operations' answers one after the
 * other, and answers that finish within their slice would otherwise add up in one turn.
 */
export const SLICE_VALUES = 20_000;

/** What the writers have written in the current turn; renewed on the next iteration of the event loop. */
const turn = { bytes: 0, values: 0, renews: false };

function renewTurn(): void {
  turn.bytes = 0;
  turn.values = 0;
  turn.renews = false;
}

// What is left to write, as a stack: a value, or (TEXT) the text in `pending` beside it, such as `]` or `,"key":`.
const VALUE = 0;
const TEXT = 1;

/**
 * The writer: one generator for the whole value, which walks it with a stack of its own (a generator per value cost
 * about a microsecond each) and yields after each slice, once the slice's text is in `chunks` as one Buffer, or, at a
 * shared value whose text is not made yet, the promise of that text, which its driver waits for.
 */
function* write(
  root: unknown,
  chunks: AnswerChunks,
  writing: Writing,
): Generator<Promise<unknown> | undefined, void, undefined> {
  const { sizeOf, shared, sliceBytes, texts } = writing;
  const kinds: number[] = [VALUE];
  const pending: unknown[] = [root];
  let own: string[] = [];
  const flush = (): void => {
    if (own.length === 0) return;
    chunks.push(Buffer.from(own.join('')));
    own = [];
  };
  const text = (piece: string): void => {
    own.push(piece);
    turn.bytes += piece.length;
  };
  while (kinds.length > 0) {
    const kind = kinds.pop();
    const value = pending.pop();
    if (kind === TEXT) {
      text(value as string);
      continue;
    }
    turn.values++;
    if (!turn.renews) {
      turn.renews = true;
      setImmediate(renewTurn);
    }
    if (typeof value !== 'object' || value === null) text(JSON.stringify(value) ?? 'null');
    else if (shared(value)) {
      let sharedText = sharedTexts.get(value);
      if (sharedText === undefined) {
        // Written in slices of its own first (the driver waits for it), or by another answer already.
        const text = writtenSharedText(value, sliceBytes);
        yield text;
        sharedText = sharedTexts.get(value) ?? sharedJsonText(value);
      }
      flush();
      chunks.push(sharedText);
      turn.bytes += sharedText.length;
    } else {
      const size = sizeOf(value);
      if (size !== undefined && size <= WHOLE_MAX_BYTES) {
        let whole = texts.get(value);
        if (whole === undefined) {
          whole = JSON.stringify(value);
          texts.set(value, whole);
        }
        text(whole);
      } else if ('toJSON' in value && typeof value.toJSON === 'function') {
        kinds.push(VALUE);
        pending.push((value.toJSON as () => unknown).call(value));
        continue;
      } else if (Array.isArray(value)) {
        text('[');
        kinds.push(TEXT);
        pending.push(']');
        // Pushed last item first, so that the first is written first.
        for (let index = value.length - 1; index >= 0; index--) {
          const item: unknown = value[index];
          kinds.push(VALUE);
          pending.push(isWritten(item) ? item : null);
          if (index > 0) {
            kinds.push(TEXT);
            pending.push(',');
          }
        }
      } else {
        text('{');
        kinds.push(TEXT);
        pending.push('}');
        const members = Object.entries(value).filter(([, item]) => isWritten(item));
        for (let index = members.length - 1; index >= 0; index--) {
          const [key, item] = members[index] as [string, unknown];
          kinds.push(VALUE, TEXT);
          pending.push(item, `${index === 0 ? '' : ','}${JSON.stringify(key)}:`);
        }
      }
    }
    if (turn.bytes >= sliceBytes || turn.values >= SLICE_VALUES) {
      flush();
      // The driver's next turn comes after the renewal, which was asked for first.
      yield;
    }
  }
  flush();
}

/** What JSON.stringify writes as a member: not undefined, a function or a symbol. */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
