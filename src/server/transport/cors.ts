import type { CORSOptions } from 'graphql-yoga';

/**
 * Yoga's CORS settings for the configured origins. Credentials are bearer tokens in a header, never cookies,
 * so allowing any origin (`*`, the default for this public open-data API) lets no site act as a user.
 */
export function corsOptions(origins: '*' | readonly string[]): CORSOptions | false {
  if (origins !== '*' && origins.length === 0) return false;
  return {
    origin: origins === '*' ? '*' : [...origins],
    credentials: false,
    methods: ['GET', 'POST'],
    // Idempotency-Key: the docs recommend it on mutations; apollographql-client-*: Apollo's clients send them on
    // every request (client awareness), and a preflight that refuses them fails the app's first query.
    allowedHeaders: [
      'authorization',
      'content-type',
      'x-graphql-yoga-csrf',
      'x-request-id',
      'if-none-match',
      'idempotency-key',
      'apollographql-client-name',
      'apollographql-client-version',
    ],
    // RateLimit and RateLimit-Policy: so that a browser app can slow down before it is refused, as the docs advise;
    // Link: a CSV's CSVW metadata (rel="describedby").
    exposedHeaders: ['x-request-id', 'retry-after', 'etag', 'ratelimit', 'ratelimit-policy', 'link'],
    maxAge: 86_400,
  };
}
