import { createGraphQLError, type Plugin } from 'graphql-yoga';

/** The header a GraphQL request that is not preflighted must carry; GraphiQL sends it. */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

// The content types a browser sends cross-origin without a CORS preflight (the "simple" ones).
const NON_PREFLIGHTED_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * CSRF prevention, as @graphql-yoga/plugin-csrf-prevention does it (same test, same place), but the refusal
 * carries CSRF_HEADER_REQUIRED and says what to send. A GraphQL request that a browser could send cross-origin
 * without a preflight (no Content-Type, as a GET has, or a form or text/plain one) must carry CSRF_HEADER,
 * which no page can add without a preflight that CORS then checks; otherwise HTTP 403, before it is parsed.
 */
export function useCsrfPrevention(): Plugin {
  return {
    onRequestParse({ request }) {
      if (wasPreflighted(request.headers.get('content-type')) || request.headers.has(CSRF_HEADER)) return;
      throw createGraphQLError(
        `A GraphQL request that is not a JSON POST must carry the header "${CSRF_HEADER}: 1" (CSRF prevention); ` +
          'send it, or POST the operation with "Content-Type: application/json".',
        { extensions: { code: 'CSRF_HEADER_REQUIRED', http: { status: 403 } } },
      );
    },
  };
}

function wasPreflighted(contentType: string | null): boolean {
  if (contentType === null || contentType === '') return false;
  const lower = contentType.toLowerCase();
  return !NON_PREFLIGHTED_CONTENT_TYPES.some((type) => lower.startsWith(type));
}
