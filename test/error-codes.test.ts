import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/graphql/error-codes.js';
import { THAI_MESSAGES } from '../src/graphql/messages.js';
import { readDoc } from './helpers/docs.js';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
// Dataset and endpoint codes (`code: 'ODS_…'`), not error codes.
const NOT_ERRORS = new Set(['catalogue.ts']);

// Where a code literal is written when an error is made: `extensions: { code: '…' }` (createGraphQLError,
// customErrors, a prepared answer), a CodedError subclass fixed to one code, a domain error's constructor,
// and the request guard's plain answers.
const CODE_SITES = [
  /\bcode:\s*'([A-Z][A-Z0-9_]*)'/g,
  /\bCodedError<'([A-Z][A-Z0-9_]*)'>/g,
  /\bnew [A-Z]\w*Error\(\s*'([A-Z][A-Z0-9_]*)'/g,
  /\banswerError\((?:[^,]+,\s*){1,2}\d+,\s*'([A-Z][A-Z0-9_]*)'/g,
];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each code literal at an error-making site in src/, with the files it is written in. */
function codesInSource(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    if (NOT_ERRORS.has(relative(SRC, file))) continue;
    const text = readFileSync(file, 'utf8');
    for (const site of CODE_SITES) {
      for (const [, code] of text.matchAll(site)) {
        if (code !== undefined) found.set(code, [...(found.get(code) ?? []), relative(ROOT, file)]);
      }
    }
  }
  return found;
}

const ERRORS_DOC = 'docs/app-developers/errors.md';

/** The codes of the table between the error-codes markers of the errors page: each row's first cell. */
function codesInDocs(): string[] {
  const table = /<!-- error-codes:begin -->([\s\S]*?)<!-- error-codes:end -->/.exec(readDoc(ERRORS_DOC))?.[1] ?? '';
  return [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map(([, code]) => code ?? '');
}

describe('error codes', () => {
  it('finds codes at each kind of site (so the scan itself cannot silently stop matching)', () => {
    const codes = codesInSource();
    for (const code of ['CSRF_HEADER_REQUIRED', 'RESPONSE_TOO_LARGE', 'STORE_UNAVAILABLE', 'PAYLOAD_TOO_LARGE'])
      expect(codes.has(code)).toBe(true);
  });

  it('every code written in src/ is one of ERROR_CODES', () => {
    const unlisted = [...codesInSource()]
      .filter(([code]) => !ERROR_CODES.has(code))
      .map(([code, files]) => `${code} (${files.join(', ')})`);
    expect(unlisted).toEqual([]);
  });

  it('the message catalogue has the Thai of exactly ERROR_CODES', () => {
    expect(Object.keys(THAI_MESSAGES).sort()).toEqual([...ERROR_CODES].sort());
  });

  it(`the table of ${ERRORS_DOC} lists exactly ERROR_CODES, each once`, () => {
    const documented = codesInDocs();
    expect(documented.length).toBeGreaterThan(10);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...ERROR_CODES].sort());
  });
});
