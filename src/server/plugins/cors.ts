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
    allowedHeaders: ['authorization', 'content-type', 'x-graphql-yoga-csrf', 'x-request-id', 'if-none-match'],
    exposedHeaders: ['x-request-id', 'retry-after', 'etag'],
    maxAge: 86_400,
  };
}
