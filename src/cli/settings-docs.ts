/**
 * `npm run docs:settings`: writes the operators' table of variables, generated from the declaration in
 * config/settings.ts, into docs/operators/configuration.md between its markers (`--check` only says whether it is up
 * to date).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsTable } from '../config/settings-table.js';

export const CONFIGURATION_DOC = fileURLToPath(new URL('../../docs/operators/configuration.md', import.meta.url));
const BEGIN = '<!-- settings:begin -->';
const END = '<!-- settings:end -->';

/** The document with the generated table between its markers. */
export function withSettingsTable(document: string): string {
  const begin = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (begin === -1 || end < begin) throw new Error(`${CONFIGURATION_DOC} has no ${BEGIN} … ${END} markers`);
  return `${document.slice(0, begin + BEGIN.length)}\n${settingsTable()}\n${document.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const current = readFileSync(CONFIGURATION_DOC, 'utf8');
  const generated = withSettingsTable(current);
  if (process.argv.includes('--check')) {
    if (generated !== current) {
      process.stderr.write(`${CONFIGURATION_DOC} is stale: run npm run docs:settings\n`);
      process.exitCode = 1;
    }
  } else if (generated !== current) {
    writeFileSync(CONFIGURATION_DOC, generated);
  }
}
