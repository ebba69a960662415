/**
 * XLSX written as it is read: the workbook's few fixed parts, then its records' sheet a slice of rows at a time
 * through fflate's streaming ZIP and DEFLATE (no native code; the same on every Node.js line we support), so a large
 * sheet neither sits whole in memory nor holds the event loop, then a small second sheet of what a reader cites
 * (citation-sheet.ts). The SpreadsheetML is the least a workbook needs (ECMA-376 part 1): sheets of inline strings and
 * numbers, a bold header row kept in view, and the package's core and extended document properties (title, creator,
 * created date), which a spreadsheet shows under File > Info. write-excel-file, tried first,
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
const WORKSHEET_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';

/** The workbook's document properties (docProps/core.xml and app.xml). */
export interface DocumentProperties {
  readonly title: string;
  /** Who made the content: the publishing agency. */
  readonly creator: string;
  readonly description: string;
  readonly keywords: readonly string[];
  /** When this file was written. */
  readonly created: Date;
  /** The organisation the extended properties name (app.xml's Company). */
  readonly company: string;
}

/** A small sheet written whole: its name (at most 31 characters, none of []:*?/\) and its rows, the first bold. */
export interface SmallSheet {
  readonly name: string;
  readonly rows: readonly (readonly (string | number)[])[];
}

/** What a workbook holds beside its records. */
export interface WorkbookExtras {
  readonly properties: DocumentProperties;
  readonly second: SmallSheet;
}

const FIXED_PARTS = (sheet: string, extras: WorkbookExtras): [string, string][] => [
  [
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${WORKSHEET_TYPE}"/>` +
      `<Override PartName="/xl/worksheets/sheet2.xml" ContentType="${WORKSHEET_TYPE}"/>` +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
      '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
      '</Types>',
  ],
  [
    '_rels/.rels',
    `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/>` +
      `<Relationship Id="rId2" Type="${PACKAGE_RELATIONSHIPS}/metadata/core-properties" Target="docProps/core.xml"/>` +
      `<Relationship Id="rId3" Type="${RELATIONSHIPS}/extended-properties" Target="docProps/app.xml"/>` +
      '</Relationships>',
  ],
  ['docProps/core.xml', coreProperties(extras.properties)],
  [
    'docProps/app.xml',
    `${XML}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">` +
      `<Application>thai-edu-graphql</Application><Company>${escapeXml(extras.properties.company)}</Company>` +
      '</Properties>',
  ],
  [
    'xl/workbook.xml',
    `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets>` +
      `<sheet name="${escapeXml(sheet)}" sheetId="1" r:id="rId1"/>` +
      `<sheet name="${escapeXml(extras.second.name)}" sheetId="2" r:id="rId3"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
      `<Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId3" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet2.xml"/></Relationships>`,
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

/** The core properties (ECMA-376 part 2, Dublin Core terms); a date to the second, as W3CDTF writes it. */
function coreProperties(properties: DocumentProperties): string {
  const created = `${properties.created.toISOString().slice(0, 19)}Z`;
  return (
    `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:title>${escapeXml(properties.title)}</dc:title>` +
    `<dc:creator>${escapeXml(properties.creator)}</dc:creator>` +
    `<dc:description>${escapeXml(properties.description)}</dc:description>` +
    `<cp:keywords>${escapeXml(properties.keywords.join(', '))}</cp:keywords>` +
    '<dc:language>th</dc:language>' +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${created}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}

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

/**
 * The workbook's bytes, a slice at a time: the fixed parts with the records' sheet's start, then rows, then its end
 * and the second sheet.
 */
export function* xlsxSlices(
  records: RecordSequence,
  columns: readonly string[],
  sheet: string,
  extras: WorkbookExtras,
): Generator<Uint8Array> {
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
  for (const [name, text] of FIXED_PARTS(sheet, extras)) {
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
  const second = new ZipDeflate('xl/worksheets/sheet2.xml', { level: DEFLATE_LEVEL });
  zip.add(second);
  second.push(strToU8(smallSheetXml(extras.second)), true);
  zip.end();
  yield take();
}

/** A small sheet whole: its first row bold and kept in view, its first column wide enough for the labels. */
function smallSheetXml(sheet: SmallSheet): string {
  const width = Math.max(1, ...sheet.rows.map((row) => row.length));
  const letters = Array.from({ length: width }, (_, i) => columnName(i));
  return (
    `${XML}<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0">` +
    '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<cols><col min="1" max="1" width="36" customWidth="1"/>` +
    (width > 1 ? `<col min="2" max="${width}" width="60" customWidth="1"/>` : '') +
    '</cols>' +
    `<sheetData>${sheet.rows.map((row, i) => rowXml(i + 1, row, letters, i === 0)).join('')}</sheetData></worksheet>`
  );
}
