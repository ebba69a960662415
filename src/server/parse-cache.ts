import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * Estimated bytes held per character of a cached document: its AST plus the validation result yoga keeps beside
 * it (in a WeakMap keyed by the AST, so it lives exactly as long as the cached document). Measured on this
 * schema: a 21 KB document refused by validation held about 2.5 MB, some 120 bytes a character.
 */
const BYTES_PER_DOCUMENT_CHARACTER = 128;
// A parse error keeps its source text and a location or two.
const BYTES_PER_ERROR_CHARACTER = 4;

/**
 * Yoga's parse and validation caches, bounded by bytes rather than by count: with yoga's default (1,000 entries
 * each) distinct large documents took the process from 187 MB to 1.9 GB in a fuzz run. `maxBytes` is split
 * between parsed documents (with their validation results) and parse errors.
 */
export function boundedParseCache(maxBytes: number) {
  const documentCache = new LRUCache<string, DocumentNode>({
    maxSize: Math.max(1, Math.floor(maxBytes * 0.9)),
    sizeCalculation: (_document, source) => Math.max(1, source.length * BYTES_PER_DOCUMENT_CHARACTER),
  });
  const errorCache = new LRUCache<string, object>({
    maxSize: Math.max(1, Math.floor(maxBytes * 0.1)),
    sizeCalculation: (_error, source) => Math.max(1, source.length * BYTES_PER_ERROR_CHARACTER),
  });
  return {
    documentCache,
    errorCache: {
      get: (source: string): unknown => errorCache.get(source),
      set: (source: string, error: unknown) => void errorCache.set(source, error as object),
    },
    validationCache: true,
  };
}
