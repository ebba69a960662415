import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

// What one part of the server learns of a request and another reads later is a field of the request state
// (src/http/request-state.ts, src/graphql/request-state.ts, src/server/request-state.ts), declared once with who
// writes and who reads it: never an entry of a map or set keyed by the request, its node:http request or response,
// its yoga context or an object made once per request (its state, its ledger, its access notes).

/**
 * A weak map or set whose key type is one of a request's objects: how a part hands another something about the
 * request without either saying so. (A process-wide registry of the requests being answered, a plain Map or Set that
 * is iterated whole, is no such hand-off: the connection drain's and the in-flight list's, server/transport/.)
 */
const KEYED_BY_REQUEST =
  /\bWeak(?:Map|Set)<\s*(?:Request|IncomingMessage|ServerResponse|Context|YogaInitialContext|PipelineContext|RequestState|GraphQLRequestState|PipelineRequestState|OperationState|ResponseLedger|AccessNotes)\b/;

/** The names of the weak maps and sets a file makes (`const known = new WeakMap…`, `readonly #known = new WeakSet…`). */
function weakCollections(text: string): string[] {
  return [...text.matchAll(/(#?\w+)(?:\s*:[^=\n]+)?\s*=\s*new\s+Weak(?:Map|Set)\b/g)].map((match) => match[1] ?? '');
}

/** A use of one of `names` with a request's object as its key: `known.get(request)`, `parsed.set(context, …)`. */
function keyedUses(text: string, names: readonly string[]): RegExpMatchArray[] {
  if (names.length === 0) return [];
  const escaped = names.map((name) => name.replace(/[$#]/g, '\\$&')).join('|');
  const key = String.raw`(?:args\.)?(?:request|req|nodeRequest|context|contextValue|serverContext|initial\.request|payload\.request)\b`;
  return [
    ...text.matchAll(new RegExp(String.raw`\b(?:this\.)?(?:${escaped})\.(?:get|set|has|add|delete)\(\s*${key}`, 'g')),
  ];
}

/** Where `text` keeps something per request in a map or set: `line: code` for each. */
function requestKeyedCollections(text: string): string[] {
  const lines = text.split('\n');
  const byType = lines.flatMap((line, index) => (KEYED_BY_REQUEST.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
  const byUse = keyedUses(text, weakCollections(text)).map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    return `${line}: ${lines[line - 1]?.trim() ?? ''}`;
  });
  return [...new Set([...byType, ...byUse])];
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the request state', () => {
  it('is the one place per-request data is kept: no map or set in src/ is keyed by a request or its context', () => {
    const found = sourceFiles(SRC).flatMap((file) =>
      requestKeyedCollections(readFileSync(file, 'utf8')).map((where) => `${relative(SRC, file)}:${where}`),
    );
    expect(found).toEqual([]);
  });

  it('finds the ways such a map was written (so the check above can fail)', () => {
    const kept = [
      'const requestIds = new WeakMap<Request, string>();',
      'private readonly candidates = new WeakMap<IncomingMessage, CacheCandidate>();',
      'const feeds = new WeakMap<Context, AsyncIterator<unknown>>();',
      'const batches = new WeakSet<Request>();',
      'const reported = new WeakSet<ResponseLedger>();',
      // Keyed by `object`, which says nothing: found by what it is keyed with.
      'const parsed = new WeakMap<object, DocumentNode>();\nparsed.set(context, document);',
      'private readonly known = new WeakMap();\nfound = this.known.get(request);',
      'const pending = new WeakMap<object, string>();\nconst registration = pending.get(args.contextValue);',
    ];
    for (const text of kept) expect(requestKeyedCollections(text), text).not.toEqual([]);
    // Caches keyed by a schema, a document, a payload object: shared by every request, not per request.
    const shared = [
      'const traitsOf = new WeakMap<DocumentNode, CostTraits>();\ntraitsOf.get(document);',
      'const asked = new WeakMap<object, Map<string, Promise<Caller>>>();\nasked.get(value);',
      'const states = new WeakMap<WebSocket, SocketState>();\nstates.get(ctx.extra.socket);',
    ];
    for (const text of shared) expect(requestKeyedCollections(text), text).toEqual([]);
  });
});
