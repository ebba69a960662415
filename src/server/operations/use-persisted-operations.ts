import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLError } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import type { PersistedQueryStore } from './persisted-query-store.js';
import { CODE, englishMessage } from '../../errors/registry.js';
import { codedExtensions, codedGraphQLError } from '../../graphql/errors.js';
import type { OperationServerContext, PipelineContext } from '../request-state.js';

/** Documents a trusted-documents server accepts, by their SHA-256 hash (codegen's persisted-documents.json). */
const NOT_IN_MANIFEST =
  "No persisted operation has this id. Ids are the keys of the server's manifest, the SHA-256 of each document in hex " +
  'as codegen writes them: send "documentId": "sha256:<hash>" (Strawberry Shake: "hashAlgorithm": "sha256" in ' +
  '.graphqlrc.json).';
/** An id asked for alone on a server that runs any document: only what APQ registered is known by its hash. */
const NOT_REGISTERED =
  'No document is registered under this id. Send the document as "query", or register it once with Automatic ' +
  'Persisted Queries: "query" with extensions.persistedQuery.sha256Hash (the SHA-256 of the document, in hex); ' +
  'after that the id alone (as "documentId", "doc_id", "id" or the APQ hash) runs it.';

export type PersistedManifest = ReadonlyMap<string, string>;

/** Reads codegen's manifest, `{ "<sha256>": "<document>" }`; throws a message that names the file. */
export function readPersistedManifest(path: string): PersistedManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `cannot read the persisted operations file ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
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
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(useDocumentIdInQueryString());
      addPlugin(useIdBeforeText());
      addPlugin(trustedOperations(manifest));
    },
  };
}

/**
 * Reads the id from a GET's query string as well, as the GraphQL-over-HTTP persisted documents convention sends it
 * (`GET /graphql?documentId=sha256:<hash>&variables=…`), Relay's `doc_id` and Hot Chocolate's `id`: yoga's GET parser
 * keeps only the four standard parameters. It joins the parsed parameters as `documentId`, so the response cache
 * keys the answer by it too. In both modes: trusted documents, and APQ's store of registered documents.
 */
function useDocumentIdInQueryString<C extends object>(): Plugin<C> {
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      if (request.method !== 'GET' || requestParser === undefined) return;
      const search = new URL(request.url).searchParams;
      const documentId = search.get('documentId') ?? search.get('doc_id') ?? search.get('id');
      if (documentId === null) return;
      setRequestParser(async (request) => {
        const params = await requestParser(request);
        return Array.isArray(params) ? params : { ...params, documentId };
      });
    },
  };
}

/**
 * A request with both an id and the document's text (Strawberry Shake sends `{"id", "query"}` unless told to send
 * ids alone) runs the manifest's document of that id: the text is left out, never run.
 */
function useIdBeforeText(): Plugin {
  return {
    onParams({ params, setParams }) {
      if (params.query != null && documentIdOf(params) !== null) setParams({ ...params, query: undefined });
    },
  };
}

function trustedOperations(manifest: PersistedManifest): Plugin {
  return usePersistedOperations({
    allowArbitraryOperations: false,
    extractPersistedOperationId: documentIdOf,
    getPersistedOperation: (id) => manifest.get(id) ?? null,
    customErrors: {
      persistedQueryOnly: {
        message: englishMessage(CODE.PERSISTED_QUERY_ONLY),
        extensions: codedExtensions(CODE.PERSISTED_QUERY_ONLY),
      },
      notFound: {
        message: NOT_IN_MANIFEST,
        extensions: codedExtensions(CODE.PERSISTED_QUERY_NOT_FOUND, {}, { status: 400 }),
      },
      keyNotFound: {
        message: englishMessage(CODE.PERSISTED_QUERY_ID_REQUIRED),
        extensions: codedExtensions(CODE.PERSISTED_QUERY_ID_REQUIRED),
      },
    },
  });
}

/**
 * Automatic persisted queries (Apollo's protocol): a client sends the hash alone, and the document once when
 * the server answers PERSISTED_QUERY_NOT_FOUND; after that a GET with the hash is small and cacheable.
 *
 * A document is remembered only when the operation that brought it runs, that is after it was parsed, validated,
 * authenticated and admitted by the operation limits and the rate limit, whatever order those plugins are in: a
 * refused registration stores nothing, and every stored document cost its sender a token. The store bounds
 * the bytes they take together (persisted-query-store.ts).
 */
export function useAutomaticPersistedQueries(
  store: PersistedQueryStore,
): Plugin<PipelineContext, OperationServerContext> {
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(useDocumentIdInQueryString<PipelineContext>());
    },
    // Synchronous unless a document must be looked up: a hook that returns a promise costs every request a hop.
    onParams({ params, setParams, context }) {
      const hash = apqHashOf(params);
      if (hash === undefined) {
        // An id alone (documentId, doc_id, Strawberry Shake's id) runs as the APQ hash does; with a query, the query runs.
        const id = params.query == null ? documentIdOf(params) : null;
        if (id === null) return;
        return store.get(id).then((document) => {
          if (document === undefined)
            throw codedGraphQLError(CODE.PERSISTED_QUERY_NOT_FOUND, { message: NOT_REGISTERED, http: { status: 400 } });
          setParams({ ...params, query: document });
        });
      }
      if (params.query == null) {
        return store.get(hash).then((document) => {
          if (document === undefined) {
            // Apollo Client and urql recognise an unknown hash by this exact message, and answered 200 whatever
            // the Accept, as Apollo Server does: Apollo iOS (1.17 and later send application/graphql-response+json
            // too) throws on any non-2xx in its ResponseCodeInterceptor, before its APQ interceptor could resend
            // the query with its document.
            throw codedGraphQLError(CODE.PERSISTED_QUERY_NOT_FOUND, {
              message: 'PersistedQueryNotFound',
              http: { status: 200 },
            });
          }
          setParams({ ...params, query: document });
        });
      }
      if (createHash('sha256').update(params.query).digest('hex') !== hash) {
        throw codedGraphQLError(CODE.PERSISTED_QUERY_MISMATCH);
      }
      // It waits in the operation's state (one per operation of a batch) for the operation to run.
      context.operation.apqRegistration = { hash, document: params.query };
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const { operation } = args.contextValue;
      const registration = operation.apqRegistration;
      if (registration === undefined) return;
      operation.apqRegistration = undefined;
      // Stored when execution starts rather than now: an onExecute hook after this one may still refuse it.
      setExecuteFn(async (executionArgs) => {
        await store.set(registration.hash, registration.document);
        // envelop types execute's result as any; it is yoga's to read.
        return executeFn(executionArgs) as unknown;
      });
    },
  };
}

/** The hash of an APQ request (`extensions.persistedQuery`, version 1), if it is one. */
function apqHashOf(params: GraphQLParams): string | undefined {
  const persisted = params.extensions?.['persistedQuery'] as { version?: unknown; sha256Hash?: unknown } | undefined;
  return persisted?.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : undefined;
}

function documentIdOf(params: GraphQLParams): string | null {
  // `documentId` as codegen's client preset sends it, `doc_id` as Relay's docs write their network layer, `id` as
  // Strawberry Shake and Hot Chocolate send it (StrawberryShake's JsonOperationRequestSerializer).
  const {
    documentId,
    doc_id: docId,
    id,
  } = params as GraphQLParams & {
    documentId?: unknown;
    doc_id?: unknown;
    id?: unknown;
  };
  if (typeof documentId === 'string') return withoutAlgorithm(documentId);
  if (typeof docId === 'string') return withoutAlgorithm(docId);
  if (typeof id === 'string') return withoutAlgorithm(id);
  const persisted = params.extensions?.['persistedQuery'] as { sha256Hash?: unknown } | undefined;
  return typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash : null;
}

/** codegen writes ids as `sha256:<hash>`; APQ sends the bare hash. */
function withoutAlgorithm(id: string): string {
  return id.replace(/^sha256:/, '');
}

/**
 * The manifest's document for an operation, asked for by id or sent whole (graphql-ws requires a `query` in every
 * operation, so a document of the manifest is recognised by its hash), or the refusal: for transports that do
 * not pass through yoga's parameter hooks (graphql-ws, server/transport/websocket.ts).
 */
export function trustedDocumentOf(
  manifest: PersistedManifest,
  params: {
    query?: string;
    extensions?: Record<string, unknown> | null;
    documentId?: unknown;
    doc_id?: unknown;
    id?: unknown;
  },
): string | GraphQLError {
  const asked = documentIdOf({ ...params, extensions: params.extensions ?? undefined });
  const id = asked ?? (params.query === undefined ? null : createHash('sha256').update(params.query).digest('hex'));
  const document = id === null ? undefined : manifest.get(id);
  if (document !== undefined) return document;
  if (asked !== null) return codedGraphQLError(CODE.PERSISTED_QUERY_NOT_FOUND, { message: NOT_IN_MANIFEST });
  return codedGraphQLError(params.query === undefined ? CODE.PERSISTED_QUERY_ID_REQUIRED : CODE.PERSISTED_QUERY_ONLY);
}
