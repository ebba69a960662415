/**
 * XLSX written as it is read: the workbook's few fixed parts, then its one sheet a slice of rows at a time through
 * fflate's streaming ZIP and DEFLATE (no native code; the same on every Node.js line we support), so a large sheet
 * neither sits whole in memory nor holds the event loop. The SpreadsheetML is the least a workbook needs (ECMA-376
 * part 1): one sheet of inline strings and numbers, a bold header row kept in view. write-excel-file, tried first,
 * made the whole workbook in one synchronous call: 7 s of a blocked event loop for the largest dataset's 11,657
 * rows. Text is never written as a formula, so a value starting with = stays a value.
 */
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { RecordSequence } from '../records/index.js';
import { ownCell } from './writers.js';

/** Excel's own bound on a sheet's rows, the header included. */
export const XLSX_MAX_ROWS = 1_048_576;
/** Excel's own bound on the characters of a cell. */
const CELL_MAX_CHARACTERS = 32_767;
/** Rows per slice: a sheet's XML and its DEFLATE cost several times a CSV's per record. */
const SLICE_ROWS = 250;
/** Faster than the default (6), and a sheet of figures compresses about as well. */
const DEFLATE_LEVEL = 3;

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const FIXED_PARTS = (sheet: string): [string, string][] => [
  [
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '</Types>',
  ],
  [
    '_rels/.rels',
    `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/workbook.xml',
    `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets>` +
      `<sheet name="${escapeXml(sheet)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    'xl/styles.xml',
    `${XML}<styleSheet xmlns="${MAIN}">` +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
      '</styleSheet>',
  ],
];

// Characters XML 1.0 cannot hold at all (C0 controls but tab, line feed and carriage return; lone surrogates; FFFE/FFFF).

const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ESCAPED = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;

function escapeXml(text: string): string {
  if (!ESCAPED.test(text)) return text;
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function cellXml(reference: string, value: string | number, style: string): string {
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${reference}"${style}><v>${value}</v></c>` : '';
  if (value === '') return '';
  const text = escapeXml(value.length > CELL_MAX_CHARACTERS ? value.slice(0, CELL_MAX_CHARACTERS) : value);
  return `<c r="${reference}" t="inlineStr"${style}><is><t xml:space="preserve">${text}</t></is></c>`;
}

function rowXml(
  number: number,
  values: readonly (string | number)[],
  letters: readonly string[],
  bold: boolean,
): string {
  const style = bold ? ' s="1"' : '';
  return `<row r="${number}">${values.map((value, i) => cellXml(`${letters[i] ?? 'A'}${number}`, value, style)).join('')}</row>`;
}

/** The workbook's bytes, a slice at a time: the fixed parts with the sheet's start, then rows, then the end. */
export function* xlsxSlices(records: RecordSequence, columns: readonly string[], sheet: string): Generator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error !== null) failure = error;
    else out.push(chunk);
  });
  const take = (): Uint8Array => {
    if (failure !== null) throw failure;
    const total = out.reduce((sum, chunk) => sum + chunk.length, 0);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const chunk of out.splice(0)) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return bytes;
  };
  for (const [name, text] of FIXED_PARTS(sheet)) {
    const part = new ZipPassThrough(name);
    zip.add(part);
    part.push(strToU8(text), true);
  }
  const data = new ZipDeflate('xl/worksheets/sheet1.xml', { level: DEFLATE_LEVEL });
  zip.add(data);
  const letters = columns.map((_, i) => columnName(i));
  data.push(
    strToU8(
      `${XML}<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0">` +
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        `<sheetData>${rowXml(1, columns, letters, true)}`,
    ),
  );
  yield take();
  for (let from = 0; from < records.length; from += SLICE_ROWS) {
    const rows: string[] = [];
    for (let i = from; i < Math.min(records.length, from + SLICE_ROWS); i++) {
      const record = records.record(i);
      rows.push(
        rowXml(
          i + 2,
          columns.map((column) => ownCell(record, column)),
          letters,
          false,
        ),
      );
    }
    data.push(strToU8(rows.join('')));
    yield take();
  }
  data.push(strToU8('</sheetData></worksheet>'), true);
  zip.end();
  yield take();
}
