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

/**
 * A record's own value of `column`, never one it inherits: an upstream record without a key named `constructor`,
 * `toString` or `__proto__` has no such cell, whatever `Object.prototype` holds.
 */
export function ownCell(record: Readonly<Record<string, unknown>>, column: string): string | number {
  return Object.hasOwn(record, column) ? cellValue(record[column]) : '';
}

/** A value as one cell: text as written, numbers as numbers, true/false, nested values as JSON, empty for none. */
export function cellValue(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // Parsed JSON holds nothing else, but a record is not trusted to be parsed JSON: a function, symbol or bigint
  // (which JSON.stringify drops or throws on) is no cell.
  if (typeof value !== 'object') return '';
  return JSON.stringify(value);
}

/**
 * What a spreadsheet would start a formula with: a tab or carriage return (OWASP's list), or, once it has skipped
 * leading blanks and invisible characters,
 * = + - @, the full-width and small forms of = + - @, and | ; % that some spreadsheets (DDE, Lotus-style input)
 * act on. Blanks and invisibles skipped: whitespace of every kind (NBSP, ideographic space), zero-width
 * characters, the BOM and soft hyphen, and line breaks.
 */
const FORMULA_START =
  /^(?:[\t\r]|[\s\u00ad\u180e\u200b-\u200f\u2028\u2029\u2060-\u2064\ufeff]*[=+\-@|;%\ufe62\ufe63\ufe66\uff0b\uff0d\uff1d\uff20])/u;
/** A number as JSON writes it: a negative one is a value, not a formula. */
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** A cell a spreadsheet would take for a formula, with an apostrophe before it so that it stays text (OWASP's advice). */
export function guardFormula(cell: string | number): string | number {
  if (typeof cell !== 'string' || !FORMULA_START.test(cell) || NUMBER.test(cell)) return cell;
  return `'${cell}`;
}

/**
 * CSV as RFC 4180 writes it (CRLF, a field quoted when it holds a comma, a quote or any CR or LF, alone or paired,
 * quotes doubled), UTF-8 with a byte-order mark so that Excel reads Thai, a header row of the columns, and cells
 * that a spreadsheet would take for a formula prefixed with an apostrophe (guardFormula).
 */
export function csvSlices(records: RecordSequence, columns: readonly string[]): Iterable<string> {
  // csv-stringify quotes a field holding its record delimiter (CRLF) but not a lone CR or LF, which a reader takes
  // for the end of a row all the same: `quoted_match` quotes those too.
  const options = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;
  return slices(records, (from, to, first) => {
    const rows: (string | number)[][] = first ? [columns.map(guardFormula)] : [];
    for (let i = from; i < to; i++) {
      const record = records.record(i);
      rows.push(columns.map((column) => guardFormula(ownCell(record, column))));
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
 * before, in a turn of the event loop of its own. A slice that cannot be written is told to `onFailure` (the log)
 * once, and ends the stream errored.
 */
export function sliceStream(
  source: Iterable<string | Uint8Array>,
  onFailure: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.iterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      // Each slice in a turn of its own: a fast reader (loopback) would otherwise take every slice in one chain of
      // microtasks, and hold the event loop for the whole file.
      async pull(controller) {
        await nextTurn();
        // A writer that fails (whatever a record held) ends this file, errored so that the client sees it cut
        // short, and nothing else: thrown from pull, it would reach the adapter's pipe as a rejection no one takes.
        try {
          const next = iterator.next();
          if (next.done === true) controller.close();
          else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
        } catch (error) {
          onFailure(error);
          controller.error(error);
        }
      },
      cancel() {
        iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
