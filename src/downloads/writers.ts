/**
 * A download's bytes, from the records a query matched: CSV and JSON written a slice of records at a time, as the
 * client reads them (a pull stream: nothing is written ahead of a slow reader, and no slice holds the event loop
 * for long); XLSX the same way (xlsx.ts).
 */
import { stringify } from 'csv-stringify/sync';
import { nextTurn, type RecordSequence } from '../records/index.js';

/** Records per slice: some 50-100 KB of CSV for a record of a dozen fields, written in a few milliseconds. */
export const SLICE_RECORDS = 500;

/** The columns of a file: every key of the matched records, in the order first seen. */
export function columnsOf(records: RecordSequence): string[] {
  const columns = new Set<string>();
  for (let i = 0; i < records.length; i++) for (const key of Object.keys(records.record(i))) columns.add(key);
  return [...columns];
}

/** A value as one cell: text as written, numbers as numbers, true/false, nested values as JSON, empty for none. */
export function cellValue(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/**
 * CSV as RFC 4180 writes it (CRLF, a field quoted when it holds a comma, a quote or a line break, quotes doubled),
 * UTF-8 with a byte-order mark so that Excel reads Thai, a header row of the columns, and cells that a spreadsheet
 * would take for a formula (starting with = + - @, a tab or a carriage return; a negative JSON number excepted)
 * prefixed with an apostrophe (csv-stringify's `escape_formulas`).
 */
export function csvSlices(records: RecordSequence, columns: readonly string[]): Iterable<string> {
  const options = { record_delimiter: 'windows', escape_formulas: true } as const;
  return slices(records, (from, to, first) => {
    const rows: (string | number)[][] = first ? [[...columns]] : [];
    for (let i = from; i < to; i++) {
      const record = records.record(i);
      rows.push(columns.map((column) => cellValue(record[column])));
    }
    return stringify(rows, { ...options, bom: first });
  });
}

/** JSON: an array of the records as the upstream wrote them, one a line. */
export function jsonSlices(records: RecordSequence): Iterable<string> {
  return slices(
    records,
    (from, to, first) => {
      const parts: string[] = [];
      for (let i = from; i < to; i++) parts.push(JSON.stringify(records.record(i)));
      return `${first ? '[\n' : ',\n'}${parts.join(',\n')}`;
    },
    // The first slice opened the array, records or none.
    records.length === 0 ? ']\n' : '\n]\n',
  );
}

function* slices(
  records: RecordSequence,
  write: (from: number, to: number, first: boolean) => string,
  end = '',
): Generator<string> {
  // The first slice is written even when there is no record: the CSV header, the JSON bracket.
  let from = 0;
  do {
    const to = Math.min(records.length, from + SLICE_RECORDS);
    if (to > from || from === 0) yield write(from, to, from === 0);
    from = to;
  } while (from < records.length);
  if (end !== '') yield end;
}

/**
 * The slices as a byte stream read at the client's pace: each slice is written when the client has taken the one
 * before, in a turn of the event loop of its own.
 */
export function sliceStream(source: Iterable<string | Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.iterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      // Each slice in a turn of its own: a fast reader (loopback) would otherwise take every slice in one chain of
      // microtasks, and hold the event loop for the whole file.
      async pull(controller) {
        await nextTurn();
        const next = iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
      },
      cancel() {
        iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
