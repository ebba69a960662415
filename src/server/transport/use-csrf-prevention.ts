import type { Plugin } from 'graphql-yoga';
import { CODE, NO_CONTENT_TYPE } from '../../errors/registry.js';
import { codedGraphQLError } from '../../graphql/errors.js';

/** The header a GraphQL request that is not preflighted must carry; GraphiQL sends it. */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

// The content types a browser sends cross-origin without a CORS preflight (the "simple" ones).
const NON_PREFLIGHTED_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * CSRF prevention, as @graphql-yoga/plugin-csrf-prevention does it (same test, same place), for POSTs only, and
 * the refusal carries CSRF_HEADER_REQUIRED and says what to send. A POST that a browser could send cross-origin
 * without a preflight (a form or text/plain one) must carry CSRF_HEADER, which no page can add without a
 * preflight that CORS then checks; otherwise HTTP 403, before it is parsed.
 *
 * A GET needs no header, so clients that send queries as GET (urql by default, Apollo's hashed queries) work on
 * first contact. A forged GET can do nothing its page could not do by itself: yoga never runs a mutation over GET
 * (405), and this server reads no cookie, so a cross-site GET carries no credential (Authorization cannot be
 * added without a preflight) and is answered as to a stranger. The one thing a GET can store, an APQ document, is
 * open to anyone by design and bounded (persisted-query-store.ts).
 */
export function useCsrfPrevention(): Plugin {
  return {
    onRequestParse({ request }) {
      // A GET is safe (above); yoga answers every other method 405 before reading it.
      if (request.method !== 'POST') return;
      const contentType = request.headers.get('content-type');
      if (wasPreflighted(contentType)) return;
      const csrfHeader = request.headers.has(CSRF_HEADER);
      // A multipart body (uploads) is no JSON sent as a form: only the simple bodies are read to tell.
      if (contentType?.toLowerCase().startsWith('multipart/') === true)
        return csrfHeader ? undefined : refuse(undefined);
      // JSON sent as a form or as text (curl -d, `requests.post(data=…)`): the refusal says so and names the header.
      return looksLikeJson(request).then((json) => {
        const sentAs = json ? (contentType?.split(';')[0]?.trim() ?? '') || NO_CONTENT_TYPE : undefined;
        if (!csrfHeader) return refuse(sentAs);
        if (sentAs !== undefined) throw codedGraphQLError(CODE.JSON_SENT_AS_FORM, { details: { sentAs } });
      });
    },
  };
}

function refuse(sentAs: string | undefined): never {
  throw codedGraphQLError(CODE.CSRF_HEADER_REQUIRED, sentAs === undefined ? {} : { details: { sentAs } });
}

/** Whether a body starts as a JSON object or array does (a form starts with a name, `query=`). */
async function looksLikeJson(request: Request): Promise<boolean> {
  const text = await request.clone().text();
  return /^\s*[{[]/.test(text);
}

function wasPreflighted(contentType: string | null): boolean {
  if (contentType === null || contentType === '') return false;
  const lower = contentType.toLowerCase();
  return !NON_PREFLIGHTED_CONTENT_TYPES.some((type) => lower.startsWith(type));
}
