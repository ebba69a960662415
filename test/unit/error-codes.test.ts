import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC, withErrorCodesTable } from '../../scripts/docs-errors.js';
import { CodedError } from '../../src/errors/coded-error.js';
import {
  CODE,
  ERROR_CODES,
  ERRORS,
  WARNING_CODES,
  WARNINGS,
  type ErrorDeclaration,
} from '../../src/errors/registry.js';
import { codedGraphQLError } from '../../src/graphql/errors.js';
import { localizedError, localizedMessage, warningMessage } from '../../src/graphql/messages.js';
import { badUserInput } from '../../src/records/errors.js';

const SRC = resolve(import.meta.dirname, '../../src');
// Facts of every kind a message may quote, so that each template is exercised with what it reads.
const FACTS = { status: 'APPROVED', upstreamStatus: 502, maxBytes: 1_048_576, retryAfterS: 3, retries: 2 };
const THAI = /[\u0E00-\u0E7F]/;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the registry of error codes', () => {
  it('gives every code a Thai message, and an English one where it declares it', () => {
    for (const code of ERROR_CODES) {
      const declared: ErrorDeclaration = ERRORS[code];
      const english = declared.english?.(FACTS) ?? 'the detail the raiser wrote';
      expect(english, code).not.toMatch(THAI);
      expect(localizedMessage('th', english, { ...FACTS, code }).message, code).toMatch(THAI);
      expect(localizedMessage('en', english, { ...FACTS, code })).toEqual({ message: english });
      expect(declared.when.length, code).toBeGreaterThan(20);
    }
  });

  it('gives every warning code a message in each language, quoting its facts', () => {
    for (const code of WARNING_CODES) {
      const facts = { key: 'YEAR', known: ['ACADEMIC_YEAR', 'EDU_LEVEL'] };
      const english = warningMessage('en', code, facts);
      const thai = warningMessage('th', code, facts);
      expect(english, code).not.toMatch(THAI);
      expect(thai, code).toMatch(THAI);
      for (const message of [english, thai]) expect(message, code).toContain('ACADEMIC_YEAR, EDU_LEVEL');
      expect(WARNINGS[code].when.length, code).toBeGreaterThan(20);
      expect(ERROR_CODES, code).not.toContain(code);
    }
  });

  it('declares the codes named for this round, with their statuses', () => {
    expect(ERRORS.STORE_UNAVAILABLE).toMatchObject({ status: 503, retryAfter: true });
    expect(ERRORS.NOT_ACCEPTABLE).toMatchObject({ status: 406 });
    for (const code of ['CURSOR_STALE', 'STREAM_KEY_REVOKED', 'STREAM_LIFETIME_EXCEEDED', 'RESPONSE_TOO_LARGE'])
      expect(ERROR_CODES).toContain(code);
  });

  it("makes a coded error's message and status from the registry unless the raiser gives them", () => {
    const declared = new CodedError(CODE.IDEMPOTENCY_RETRIES_EXHAUSTED, undefined, { retries: 4 });
    expect(declared.message).toMatch(/^This registration was retried 4 times/);
    expect(declared.httpStatus).toBe(409);
    const written = new CodedError(CODE.BAD_USER_INPUT, 'purpose is empty', {}, 400);
    expect([written.message, written.httpStatus]).toEqual(['purpose is empty', 400]);
  });

  it('makes the errors answered to a client without a stack trace, and leaves the limit as it was', () => {
    const limit = Error.stackTraceLimit;
    const stackLines = (error: Error): number => (error.stack ?? '').split('\n').length;
    // A client's bad input, the coded GraphQL error it becomes, and that error in Thai: hundreds a batch can make.
    const bad = badUserInput('groupBy: no record has a field "x"');
    const coded = codedGraphQLError(CODE.BAD_USER_INPUT, { message: bad.message });
    const thai = localizedError(coded, 'th');
    expect(thai).not.toBe(coded);
    expect([bad, coded, thai].map(stackLines)).toEqual([1, 1, 1]);
    expect(Error.stackTraceLimit).toBe(limit);
    // What nobody answers keeps its stack.
    expect(stackLines(new CodedError(CODE.UPSTREAM_UNAVAILABLE))).toBeGreaterThan(1);
  });

  it('is where every code is written: src/ names them as CODE.… (WARNING.…), never as a string', () => {
    const literal = new RegExp(`['"](${[...ERROR_CODES, ...WARNING_CODES].join('|')})['"]`, 'g');
    const written = sourceFiles(SRC)
      .filter((file) => !file.startsWith(join(SRC, 'errors')))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(literal)].map(([, code]) => `${code} (${relative(SRC, file)})`),
      );
    expect(written).toEqual([]);
  });

  it('lists every code in docs/app-developers/errors.md as `npm run docs:errors` writes it', () => {
    const document = readFileSync(ERRORS_DOC, 'utf8');
    expect(document, 'run npm run docs:errors').toBe(withErrorCodesTable(document));
    for (const code of [...ERROR_CODES, ...WARNING_CODES]) expect(document).toContain(`| \`${code}\` |`);
  });
});
