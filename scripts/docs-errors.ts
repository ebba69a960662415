/**
 * Writes the lists of error codes and of warning codes in docs/app-developers/errors.md from the registry
 * (src/errors/registry.ts), each between its markers: `npm run docs:errors`. test/unit/error-codes.test.ts fails when the file is not what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ERROR_CODES, ERRORS, WARNING_CODES, WARNINGS } from '../src/errors/registry.js';

export const ERRORS_DOC = resolve(import.meta.dirname, '../docs/app-developers/errors.md');
const BEGIN = '<!-- error-codes:begin -->';
const END = '<!-- error-codes:end -->';
const WARNINGS_BEGIN = '<!-- warning-codes:begin -->';
const WARNINGS_END = '<!-- warning-codes:end -->';

/** The table of every code, with the HTTP status it always has, in the registry's order. */
export function errorCodesTable(): string {
  const rows = ERROR_CODES.map((code) => {
    const { status, when } = ERRORS[code] as { status?: number; when: string };
    return `| \`${code}\` | ${status ?? ''} | ${when} |`;
  });
  return ['| code | HTTP status | when |', '|---|---|---|', ...rows].join('\n');
}

/** The table of every warning code of `extensions.warnings`, in the registry's order. */
export function warningCodesTable(): string {
  const rows = WARNING_CODES.map((code) => `| \`${code}\` | ${WARNINGS[code].when} |`);
  return ['| code | when |', '|---|---|', ...rows].join('\n');
}

function between(document: string, begin: string, end: string, table: string): string {
  const from = document.indexOf(begin);
  const to = document.indexOf(end);
  if (from === -1 || to < from) throw new Error(`${ERRORS_DOC} has no ${begin} … ${end} markers`);
  return `${document.slice(0, from + begin.length)}\n${table}\n${document.slice(to)}`;
}

/** `document` with the parts between the markers replaced by the tables of error codes and of warning codes. */
export function withErrorCodesTable(document: string): string {
  return between(between(document, BEGIN, END, errorCodesTable()), WARNINGS_BEGIN, WARNINGS_END, warningCodesTable());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(ERRORS_DOC, withErrorCodesTable(readFileSync(ERRORS_DOC, 'utf8')));
}
