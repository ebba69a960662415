import { createHash } from 'node:crypto';
import type { PayloadMeta } from './cache.js';
import type { CacheHeaders, Validators } from './client.js';

/**
 * How long cached payloads serve, as HTTP caching (RFC 9111) and its stale extensions (RFC 5861) put it, with
 * the operator's windows as the upper bounds and the upstream's Cache-Control narrowing them.
 */
export interface PayloadWindows {
  /** Fresh for at most this long after the upstream last confirmed the payload. */
  readonly ttlMs: number;
  /** After that, served at once while one background refresh runs, for this long. */
  readonly swrMs: number;
  /** After that, served when a refresh fails, until this long after it went stale. */
  readonly staleIfErrorMs: number;
}

export interface PayloadLifetime {
  readonly freshUntil: number;
  /** False under no-cache and must-revalidate: once stale, never served without a successful revalidation. */
  readonly mayServeStale: boolean;
}

interface Directives {
  readonly noStore: boolean;
  readonly noCache: boolean;
  readonly mustRevalidate: boolean;
  readonly maxAgeS: number | undefined;
}

// The directives of the Cache-Control values seen, by their text: every read of a cached payload asks for its entry's,
// and an upstream sends a handful of distinct values. Bounded, so no upstream can grow it without limit.
const parsedDirectives = new Map<string, Directives>();
const PARSED_DIRECTIVES_MAX = 64;

function parseCacheControl(header: string | undefined): Directives {
  const text = header ?? '';
  let directives = parsedDirectives.get(text);
  if (directives === undefined) {
    directives = directivesOf(text);
    if (parsedDirectives.size >= PARSED_DIRECTIVES_MAX) parsedDirectives.clear();
    parsedDirectives.set(text, directives);
  }
  return directives;
}

function directivesOf(header: string): Directives {
  const directives = new Map<string, string>();
  for (const part of header.split(',')) {
    const [name = '', value = ''] = part.split('=', 2).map((text) => text.trim());
    if (name !== '') directives.set(name.toLowerCase(), value.replace(/^"|"$/g, ''));
  }
  // We are a shared cache: s-maxage wins over max-age and, like proxy-revalidate, forbids serving stale.
  const maxAge = directives.get('s-maxage') ?? directives.get('max-age');
  const maxAgeS = maxAge !== undefined && /^\d+$/.test(maxAge) ? Number(maxAge) : undefined;
  return {
    // A shared cache must not keep what the upstream marks private either.
    noStore: directives.has('no-store') || directives.has('private'),
    noCache: directives.has('no-cache'),
    mustRevalidate: ['must-revalidate', 'proxy-revalidate', 's-maxage'].some((name) => directives.has(name)),
    maxAgeS,
  };
}

/** Whether an answer may be kept at all. */
export function isStorable(headers: CacheHeaders): boolean {
  return !parseCacheControl(headers.cacheControl).noStore;
}

export function payloadLifetime(meta: PayloadMeta, policy: PayloadWindows): PayloadLifetime {
  const directives = parseCacheControl(meta.cacheControl);
  const lifetimeMs = directives.noCache
    ? 0
    : Math.min(policy.ttlMs, directives.maxAgeS === undefined ? Infinity : directives.maxAgeS * 1_000);
  return {
    freshUntil: meta.validatedAt + lifetimeMs,
    mayServeStale: !directives.noCache && !directives.mustRevalidate,
  };
}

/**
 * How long the entry is worth keeping: as long as it may be served stale (the wider of the two windows). An
 * entry that may not be served stale is kept as long, for its validators: revalidating it costs a 304.
 */
export function keepForMs(meta: PayloadMeta, policy: PayloadWindows, now: number): number {
  return payloadLifetime(meta, policy).freshUntil + Math.max(policy.swrMs, policy.staleIfErrorMs) - now;
}

/** The entry for a body just downloaded. Its version is the ETag, or else a hash of the body. */
export function metaOfBody(headers: CacheHeaders, text: string, now: number): PayloadMeta {
  return {
    version: headers.etag ?? `sha256:${createHash('sha256').update(text).digest('base64url')}`,
    fetchedAt: now,
    validatedAt: now,
    bytes: Buffer.byteLength(text),
    ...headers,
  };
}

/** The entry after a 304: the same body, confirmed now, with any caching headers the 304 updated. */
export function metaOfNotModified(previous: PayloadMeta, headers: CacheHeaders, now: number): PayloadMeta {
  return {
    ...previous,
    validatedAt: now,
    cacheControl: headers.cacheControl ?? previous.cacheControl,
    lastModified: headers.lastModified ?? previous.lastModified,
  };
}

export function validatorsOf(meta: PayloadMeta): Validators | undefined {
  if (meta.etag === undefined && meta.lastModified === undefined) return undefined;
  return { etag: meta.etag, lastModified: meta.lastModified };
}
