import { GraphQLError, Kind, visit, type DocumentNode, type ValueNode } from 'graphql';
import { createGraphQLError, isPromise, type Plugin } from 'graphql-yoga';
import { isSingleResult } from '../../graphql/execution-result.js';
import { CODE } from '../../errors/registry.js';
import { codedGraphQLError } from '../../graphql/errors.js';

/**
 * How deeply `{ ( [` may nest in a document, and objects and arrays in `variables` and `extensions`. graphql-js
 * parses, validates and coerces recursively: a few thousand levels (an 8 KB document) overflow the stack, which
 * used to surface as a 500. Real operations stay far below (the depth limit is 12 fields).
 */
export const MAX_NESTING = 64;

/**
 * Checks what yoga parsed from a request before anything else reads it, and answers HTTP 400 with
 * `BAD_REQUEST` (never a 500, never a dropped connection) when:
 * - the parameters cannot be read at all (invalid JSON in a GET or form-encoded `variables`/`extensions`),
 * - a batch holds something other than objects (`[null]`),
 * - `query` or `operationName` is not a string, `variables` or `extensions` not an object, or they nest
 *   deeper than MAX_NESTING, or a persisted-query hash that is not a string,
 * - the document nests brackets deeper than MAX_NESTING (checked on the text, before the parser recurses);
 * answers HTTP 415 with `UNSUPPORTED_MEDIA_TYPE` for a body in a media type no parser reads;
 * and refuses `@stream(initialCount:)` below 0 as BAD_USER_INPUT rather than an internal error, and gives
 * graphql-js's refusal of `variables` that do not fit their types the code BAD_USER_INPUT.
 */
export function useRequestShape(): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      // No parser takes this Content-Type: yoga would answer an empty 415. A parser that refuses with the code
      // runs after every other stage's onRequestParse, so CSRF_HEADER_REQUIRED still comes first for a form.
      if (requestParser === undefined) {
        const details = { contentType: request.headers.get('content-type') ?? 'none' };
        setRequestParser(() => {
          throw codedGraphQLError(CODE.UNSUPPORTED_MEDIA_TYPE, { details });
        });
        return undefined;
      }
      const refuse = (error: unknown): never => {
        if (error instanceof GraphQLError) throw withoutOriginalError(error);
        throw badRequest(
          'The GraphQL parameters of this request cannot be read: variables and extensions must be JSON objects.',
        );
      };
      // A parser that answers at once (a GET's) stays synchronous: an async wrapper costs every request a hop.
      setRequestParser((request) => {
        try {
          const parsed = requestParser(request);
          return isPromise(parsed) ? parsed.catch(refuse) : parsed;
        } catch (error) {
          return refuse(error);
        }
      });
      return {
        onRequestParseDone({ requestParserResult }) {
          if (requestParserResult instanceof Response) return;
          const operations = Array.isArray(requestParserResult) ? requestParserResult : [requestParserResult];
          for (const operation of operations as unknown[]) checkOperationParameters(operation);
        },
      };
    },
    onExecute({ args, setResultAndStopExecution }) {
      const negative = negativeStreamCount(
        args.document as DocumentNode,
        (args.variableValues ?? {}) as Record<string, unknown>,
      );
      if (negative !== undefined) {
        setResultAndStopExecution({
          errors: [
            createGraphQLError(`@stream(initialCount:) must be 0 or more, got ${negative}.`, {
              extensions: { code: CODE.BAD_USER_INPUT },
            }),
          ],
        });
        return undefined;
      }
      return {
        onExecuteDone({ result, setResult }) {
          // graphql-js answers without `data` only when execution could not start: `variables` that do not fit
          // their types. Its errors carry no code; the caller sent something unusable, so BAD_USER_INPUT.
          if (!isSingleResult(result) || 'data' in result || result.errors === undefined) return;
          setResult({ ...result, errors: result.errors.map(withCode(CODE.BAD_USER_INPUT)) });
        },
      };
    },
  };
}

function withCode(code: string): (error: GraphQLError) => GraphQLError {
  return (error) =>
    error.extensions['code'] === undefined
      ? createGraphQLError(error.message, {
          nodes: error.nodes,
          source: error.source,
          positions: error.positions,
          extensions: { ...error.extensions, code },
        })
      : error;
}

/**
 * yoga's refusal of a body that is not JSON carries the parser's exception in `extensions.originalError` (a
 * SyntaxError's name and message, which quotes the body): the answer says what was wrong in its message and code,
 * and nothing of the server's insides. yoga read that exception's presence as "answer 400 even to application/json"
 * (GraphQL over HTTP's rule for a body it cannot parse), so the status is said outright instead.
 */
function withoutOriginalError(error: GraphQLError): GraphQLError {
  if (!('originalError' in error.extensions)) return error;
  const extensions: Record<string, unknown> = { ...error.extensions, http: { status: 400 } };
  delete extensions['originalError'];
  return createGraphQLError(error.message, { extensions });
}

function badRequest(message: string): GraphQLError {
  return createGraphQLError(message, { extensions: { code: CODE.BAD_REQUEST, http: { status: 400 } } });
}

/**
 * Throws the BAD_REQUEST (or GRAPHQL_PARSE_FAILED, for a document nested too deep) of one operation's parameters
 * that cannot be run as they are: over HTTP here, over WebSocket before the socket parses (websocket-server.ts).
 */
export function checkOperationParameters(parameters: unknown): void {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    throw badRequest('Each operation of a request must be a JSON object with a "query" (or a persisted-query hash).');
  }
  const {
    query,
    operationName,
    variables,
    extensions,
    id,
    documentId,
    doc_id: docId,
  } = parameters as Record<string, unknown>;
  // Checked here, before any plugin reads them: the APQ plugin hashes `query` and reads `extensions` first.
  if (!isAbsentOr(query, 'string')) throw badRequest('"query" must be a string.');
  if (!isAbsentOr(operationName, 'string')) throw badRequest('"operationName" must be a string.');
  // `id` as Strawberry Shake and Hot Chocolate send it, `documentId` as codegen's client preset, `doc_id` as Relay.
  if (![id, documentId, docId].every((value) => isAbsentOr(value, 'string')))
    throw badRequest(
      'A persisted operation\'s id is a string: send "documentId": "sha256:<the SHA-256 of the document, in hex>".',
    );
  if (!isAbsentOr(variables, 'object') || !isAbsentOr(extensions, 'object'))
    throw badRequest('"variables" and "extensions" must be JSON objects.');
  const persisted = (extensions as { persistedQuery?: { sha256Hash?: unknown } | null } | null | undefined)
    ?.persistedQuery;
  if (persisted !== undefined && (!isAbsentOr(persisted, 'object') || !isAbsentOr(persisted?.sha256Hash, 'string'))) {
    throw badRequest('"extensions.persistedQuery" must be { "version": 1, "sha256Hash": "<hex>" }.');
  }
  if (!nestsWithin(variables, MAX_NESTING) || !nestsWithin(extensions, MAX_NESTING)) {
    throw badRequest(`"variables" and "extensions" may nest objects and arrays ${MAX_NESTING} levels deep at most.`);
  }
  if (typeof query === 'string' && documentNesting(query) > MAX_NESTING) {
    throw createGraphQLError(`The document nests brackets more than ${MAX_NESTING} levels deep.`, {
      extensions: { code: CODE.GRAPHQL_PARSE_FAILED, http: { status: 400 } },
    });
  }
}

/** Whether a parameter is absent (undefined or null) or of the given JSON kind; an array is not an object. */
function isAbsentOr(value: unknown, kind: 'string' | 'object'): boolean {
  return value === undefined || value === null || (typeof value === kind && !Array.isArray(value));
}

/** Whether a JSON value nests objects and arrays at most `limit` levels; iterative, so no input overflows it. */
function nestsWithin(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return false;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return true;
}

/** The deepest nesting of `{ ( [` in a document's text, skipping strings, block strings and comments. */
function documentNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (char === '"') {
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        i = end === -1 ? text.length : end + 2;
      } else {
        for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      }
    } else if (char === '{' || char === '(' || char === '[') {
      deepest = Math.max(deepest, ++depth);
    } else if (char === '}' || char === ')' || char === ']') {
      depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}

// The initialCount arguments of each document's @stream directives, found once per parsed document (yoga
// caches parsed documents, so an operation run again costs a lookup).
const streamCounts = new WeakMap<DocumentNode, readonly ValueNode[]>();

/** A negative `initialCount` given to @stream, literally or through a variable, if any. */
function negativeStreamCount(document: DocumentNode, variables: Record<string, unknown>): number | undefined {
  let counts = streamCounts.get(document);
  if (counts === undefined) {
    const found: ValueNode[] = [];
    visit(document, {
      Directive(node) {
        const argument =
          node.name.value === 'stream'
            ? node.arguments?.find((candidate) => candidate.name.value === 'initialCount')
            : undefined;
        if (argument !== undefined) found.push(argument.value);
      },
    });
    counts = found;
    streamCounts.set(document, counts);
  }
  for (const count of counts) {
    const value =
      count.kind === Kind.INT
        ? Number(count.value)
        : count.kind === Kind.VARIABLE
          ? variables[count.name.value]
          : undefined;
    if (typeof value === 'number' && value < 0) return value;
  }
  return undefined;
}
