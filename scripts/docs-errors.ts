/**
 * Writes the list of error codes in docs/app-developers/errors.md from the registry (src/errors/registry.ts),
 * between its markers: `npm run docs:errors`. test/error-codes.test.ts fails when the file is not what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ERROR_CODES, ERRORS } from '../src/errors/registry.js';

export const ERRORS_DOC = resolve(import.meta.dirname, '../docs/app-developers/errors.md');
const BEGIN = '<!-- error-codes:begin -->';
const END = '<!-- error-codes:end -->';

/** The table of every code, with the HTTP status it always has, in the registry's order. */
export function errorCodesTable(): string {
  const rows = ERROR_CODES.map((code) => {
    const { status, when } = ERRORS[code] as { status?: number; when: string };
    return `| \`${code}\` | ${status ?? ''} | ${when} |`;
  });
  return ['| code | HTTP status | when |', '|---|---|---|', ...rows].join('\n');
}

/** `document` with the part between the markers replaced by the table. */
export function withErrorCodesTable(document: string): string {
  const begin = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (begin === -1 || end < begin) throw new Error(`${ERRORS_DOC} has no ${BEGIN} … ${END} markers`);
  return `${document.slice(0, begin + BEGIN.length)}\n${errorCodesTable()}\n${document.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(ERRORS_DOC, withErrorCodesTable(readFileSync(ERRORS_DOC, 'utf8')));
}
