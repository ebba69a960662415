import { createHash } from 'node:crypto';

/** Adds tokens to a response's Vary header, each once. */
export function addVary(headers: Headers, ...tokens: string[]): void {
  const present = new Set(
    (headers.get('vary') ?? '')
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
  const missing = tokens.filter((token) => !present.has(token));
  if (missing.length > 0) headers.set('vary', [...present, ...missing].join(', '));
}

/** A strong ETag for a body: a digest of its bytes. */
export function etagOf(body: string | Buffer | readonly Buffer[]): string {
  const hash = createHash('sha256');
  if (typeof body === 'string' || Buffer.isBuffer(body)) hash.update(body);
  else for (const chunk of body) hash.update(chunk);
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

/** The Cache-Control of an anonymous GET answer that stays fresh for `maxAgeS`. */
export function publicCacheControl(maxAgeS: number, staleWhileRevalidateS: number): string {
  return `public, max-age=${maxAgeS}, stale-while-revalidate=${staleWhileRevalidateS}`;
}

/** Whether an If-None-Match header names `etag` (weak comparison, RFC 9110 §13.1.2). */
export function matchesEtag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (ifNoneMatch === null || ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === etag;
  });
}
