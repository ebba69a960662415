// What docs/app-developers/limits.md shows an app (its ts block holds only lines of this file); tested by
// test/server/docs-limits.test.ts against a listening server.

/** How long to wait before the next request, from an answer's Retry-After and RateLimit fields; 0: go on. */
export function backOffMs(response: Response): number {
  const retryAfterS = Number(response.headers.get('retry-after') ?? 0);
  const left = /"(?:default|client)";r=(\d+)/.exec(response.headers.get('ratelimit') ?? '');
  const policy = /"(?:default|client)";q=(\d+);w=(\d+)/.exec(response.headers.get('ratelimit-policy') ?? '');
  // Out of operations but not refused yet: the next one comes back in w/q seconds.
  const nextTokenMs = left?.[1] === '0' && policy !== null ? (Number(policy[2]) * 1000) / Number(policy[1]) : 0;
  // Phones behind one address share its budget: spread them rather than have them all come back at once.
  return Math.max(retryAfterS * 1000, nextTokenMs) * (1 + Math.random() / 2);
}
