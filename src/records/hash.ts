import { createHash } from 'node:crypto';

/** The first `length` hex digits of the SHA-256 of a text: short, stable tags for fingerprints and cursors. */
export function shortHash(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}
