import type { DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
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
      set: (source: string, error: unknown) => {
        releaseCallSites(error);
        errorCache.set(source, error as object);
      },
    },
    validationCache: true,
  };
}

/**
 * Formats an error's stack now. Until its `stack` is first read, V8 keeps it as call sites, each holding the function
 * and receiver of its frame: for an error raised while parsing or validating a request, the request's context with
 * its IncomingMessage, ServerResponse and body. A cached error would keep a whole request alive for as long as it
 * stays cached: after a fuzz run, 612 requests were held that way (about 200 MB of resident memory that did not
 * come back). Read once, the stack is a string and the call sites are gone.
 */
function releaseCallSites(error: unknown): void {
  if (error instanceof Error) void error.stack;
}

/**
 * Validation errors are cached with their document (yoga's validation cache, keyed by the cached AST): each lets go
 * of the request it was raised in before it is kept (releaseCallSites). Any place in the plugin list: the errors are
 * the objects the cache holds.
 */
export function useValidationErrorsReleased(): Plugin {
  return {
    onValidate:
      () =>
      ({ result }) => {
        for (const error of result) releaseCallSites(error);
      },
  };
}
