import { readFileSync } from 'node:fs';
import { createInMemoryAPQStore, useAPQ, type APQStore } from '@graphql-yoga/plugin-apq';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import type { Redis } from 'ioredis';

/** Documents a trusted-documents server accepts, by their SHA-256 hash (codegen's persisted-documents.json). */
export type PersistedManifest = ReadonlyMap<string, string>;

// Registered APQ documents outlive a deployment of the app that sent them only by this much.
const APQ_TTL_S = 7 * 24 * 3_600;
const APQ_MEMORY_ENTRIES = 5_000;

/** Reads codegen's manifest, `{ "<sha256>": "<document>" }`; throws a message that names the file. */
export function readPersistedManifest(path: string): PersistedManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the persisted operations file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path} is not an object of hash → document`);
  }
  const entries = Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return new Map(entries.map(([id, document]) => [withoutAlgorithm(id), document]));
}

/**
 * Trusted documents: only the operations of the manifest run, asked for by hash (`documentId`, as codegen's
 * client preset sends it, or the APQ extension); any document text is refused with PERSISTED_QUERY_ONLY and
 * an unknown hash with PERSISTED_QUERY_NOT_FOUND, both HTTP 400 before anything is parsed.
 */
export function useTrustedDocuments(manifest: PersistedManifest): Plugin {
  return usePersistedOperations({
    allowArbitraryOperations: false,
    extractPersistedOperationId: documentIdOf,
    getPersistedOperation: (id) => manifest.get(id) ?? null,
    customErrors: {
      persistedQueryOnly: {
        message: 'This server runs only persisted operations: send the documentId of an operation of its manifest.',
        extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
      },
      notFound: {
        message: 'No persisted operation has this id.',
        extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
      },
      keyNotFound: {
        message: 'Send the documentId of a persisted operation.',
        extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED', http: { status: 400 } },
      },
    },
  });
}

/**
 * Automatic persisted queries (Apollo's protocol): a client sends the hash alone, and the document once when
 * the server answers PERSISTED_QUERY_NOT_FOUND; after that a GET with the hash is small and cacheable. The
 * registered documents live in Redis when it is given (shared by every instance), else in memory.
 */
export function useAutomaticPersistedQueries(redis?: Redis): Plugin {
  return useAPQ({ store: redis === undefined ? createInMemoryAPQStore({ max: APQ_MEMORY_ENTRIES, ttl: APQ_TTL_S * 1_000 }) : redisApqStore(redis) });
}

/** When Redis fails, a hash is just not found: the client sends its document again, and nothing breaks. */
function redisApqStore(redis: Redis): APQStore {
  const key = (hash: string): string => `apq:${hash}`;
  return {
    get: (hash) => redis.get(key(hash)).catch(() => null),
    set: (hash, query) => redis.set(key(hash), query, 'EX', APQ_TTL_S).catch(() => undefined),
  };
}

function documentIdOf(params: GraphQLParams): string | null {
  const { documentId } = params as GraphQLParams & { documentId?: unknown };
  if (typeof documentId === 'string') return withoutAlgorithm(documentId);
  const persisted = params.extensions?.['persistedQuery'] as { sha256Hash?: unknown } | undefined;
  return typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash : null;
}

/** codegen writes ids as `sha256:<hash>`; APQ sends the bare hash. */
function withoutAlgorithm(id: string): string {
  return id.replace(/^sha256:/, '');
}
