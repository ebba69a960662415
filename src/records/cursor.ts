/**
 * Cursors: base64url of `rec1|<version tag>|<query tag>|<position>`. The position is an offset into the ordered
 * matches, which is exact because the matches of one payload version and one where/orderBy never change; the
 * tags make sure the cursor is only ever used with that version and that where/orderBy.
 */
import { CODE } from '../errors/registry.js';
import { badUserInput, overLimit, RecordsError } from './errors.js';
import { MAX_CURSOR_LENGTH } from './limits.js';

export const NOT_A_CURSOR = '`after` is not a cursor of this connection; start again without `after`';

const FORMAT = /^rec1\|([0-9a-f]{12})\|([0-9a-f]{12})\|(\d{1,10})$/;

/** What a cursor is bound to: short hashes of the payload version and of the normalised where/orderBy. */
export interface CursorScope {
  readonly version: string;
  readonly query: string;
}

export function encodeCursor(scope: CursorScope, position: number): string {
  return Buffer.from(`rec1|${scope.version}|${scope.query}|${position}`).toString('base64url');
}

/**
 * The position a cursor stands for; BAD_USER_INPUT when it is not ours or belongs to another where/orderBy,
 * CURSOR_STALE (with both version tags) when it belongs to another version of the data.
 */
export function decodeCursor(cursor: string, scope: CursorScope): number {
  if (cursor.length > MAX_CURSOR_LENGTH) {
    throw overLimit('cursorLength', `${NOT_A_CURSOR} (a cursor has at most ${MAX_CURSOR_LENGTH} characters)`);
  }
  const match = FORMAT.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) throw badUserInput(NOT_A_CURSOR);
  // The pattern's groups are all required, so each is there.
  const [, version = '', query, position] = match;
  if (version !== scope.version) {
    // A revision of the dataset: the cursor was ours, so the client is told to start over, not that it erred.
    throw new RecordsError(CODE.CURSOR_STALE, undefined, { cursorVersion: version, currentVersion: scope.version });
  }
  if (query !== scope.query) {
    throw badUserInput(
      'this cursor belongs to another `where` or `orderBy`; repeat the ones it came with, ' +
        'or start again without `after`',
    );
  }
  return Number(position);
}
