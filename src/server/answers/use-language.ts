import type { ExecutionResult } from 'graphql';
import { mapAsyncIterator, type Plugin } from 'graphql-yoga';
import { localizedError } from '../../graphql/messages.js';
import { addVary } from '../../http/caching.js';
import { negotiateLanguage, type Language } from '../../http/language.js';
import { isPathOf } from '../../http/request-target.js';

/**
 * Thai first: every error message in a GraphQL answer is written in the language the request negotiated
 * (Accept-Language; Thai unless English is preferred), from the message catalogue by `extensions.code`, whatever
 * raised it: a resolver, a plugin, yoga or graphql-js. Labels follow the same language through the context. Every
 * answer on the GraphQL path says which language it is in (`Content-Language`) and that it varies by
 * `Accept-Language`, so an HTTP cache keeps one per language; the response cache keys by the language too.
 */
export function useLanguage(graphqlPath: string): Plugin {
  return {
    onResultProcess(payload) {
      const language = negotiateLanguage(payload.request.headers.get('accept-language'));
      if (language === 'en') return;
      payload.setResult(localizedResult(payload.result, language));
    },
    onResponse({ request, response }) {
      // GraphiQL's page, served on the same path, is the same whatever the language.
      if (!isPathOf(request.url, graphqlPath) || (response.headers.get('content-type') ?? '').startsWith('text/html'))
        return;
      addVary(response.headers, 'accept-language');
      response.headers.set('content-language', negotiateLanguage(request.headers.get('accept-language')));
    },
  };
}

type Result = ExecutionResult | readonly ExecutionResult[] | AsyncIterable<ExecutionResult>;

function localizedResult<R extends Result>(result: R, language: Language): R {
  if (Array.isArray(result))
    return (result as readonly ExecutionResult[]).map((one) => localizedPart(one, language)) as unknown as R;
  if (Symbol.asyncIterator in result)
    return localizedParts(result as AsyncIterable<ExecutionResult>, language) as unknown as R;
  return localizedPart(result as ExecutionResult, language) as R;
}

// mapAsyncIterator, not an async generator: a client that leaves must stop the source at once, not at its next part.
function localizedParts(parts: AsyncIterable<ExecutionResult>, language: Language): AsyncIterable<ExecutionResult> {
  return mapAsyncIterator(parts, (part) => localizedPart(part, language));
}

/** One result or incremental part, with the errors of its increments (@defer, @stream) too. */
function localizedPart(part: ExecutionResult, language: Language): ExecutionResult {
  const incremental = (part as { incremental?: unknown }).incremental;
  let localized =
    part.errors === undefined ? part : { ...part, errors: part.errors.map((error) => localizedError(error, language)) };
  if (Array.isArray(incremental)) {
    localized = {
      ...localized,
      incremental: incremental.map((increment: ExecutionResult) => localizedPart(increment, language)),
    } as ExecutionResult;
  }
  return localized;
}
