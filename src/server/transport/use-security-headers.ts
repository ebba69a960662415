import type { Plugin } from 'graphql-yoga';

// GraphiQL's page runs an inline bootstrap script, makes blob: workers and inline styles, and loads its
// assets from this server; nothing else, and no other origin.
const GRAPHIQL_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');
// Every other response is data: nothing in it may run or load anything.
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Security headers on every response, with a Content-Security-Policy under which GraphiQL still works (or the one
 * a page set itself: the portal's, see portal/serve.ts).
 */
export function useSecurityHeaders(): Plugin {
  return {
    onResponse({ response }) {
      setSecurityHeaders(response.headers);
    },
  };
}

/** The security headers of every answer, yoga's and the front door's routes' alike. */
export function setSecurityHeaders(headers: Headers): void {
  const html = (headers.get('content-type') ?? '').includes('text/html');
  headers.set('x-content-type-options', 'nosniff');
  headers.set('referrer-policy', 'no-referrer');
  headers.set('x-frame-options', 'DENY');
  headers.set('cross-origin-opener-policy', 'same-origin');
  // A page that states its own policy keeps it: the portal's forbids inline scripts, which GraphiQL's cannot.
  if (!headers.has('content-security-policy')) headers.set('content-security-policy', html ? GRAPHIQL_CSP : DATA_CSP);
}
