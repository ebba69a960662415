import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../helpers/settings.js';
import { useStack } from '../helpers/stack.js';

/**
 * A carrier NAT of app users after a cache expiry looks like one address sending the same question at once, many
 * times. With the default limits, every one is answered from the one upstream call they share: only the read that
 * makes a call spends the address's upstream-fetch budget (UPSTREAM_FETCH_RATE_LIMIT_POINTS), not those that join
 * it. The operations budget (RATE_LIMIT_POINTS) is spent as ever, one token each.
 */
const CONCURRENT = 150;

describe('a stampede from one address on a cold payload', () => {
  const { rateLimit } = DEFAULTS;
  // Through the app's fetch handler: 150 sockets from one peer would meet the per-address connection bound
  // (HTTP_MAX_CONNECTIONS_PER_IP, 64), which a NAT's users reach through a proxy's pooled connections.
  const stack = useStack({
    cache: { ttlS: 300, swrS: 60, staleIfErrorS: 0 },
    rateLimit: {
      points: rateLimit.points,
      windowS: rateLimit.windowS,
      trustProxy: true,
      upstreamFetches: rateLimit.upstreamFetches,
    },
  });

  it(`answers all ${CONCURRENT} with one upstream call and no RATE_LIMITED`, async () => {
    stack().simulator.resetRequests();
    const query = '{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }';
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, phone) => {
        // Each phone's own request (a nonce in `extensions`), so that none is another's response-cache hit.
        const answer = await stack().post({ query, extensions: { phone } }, { 'x-forwarded-for': '203.0.113.7' });
        const body = (await answer.json()) as { errors?: { extensions?: { code?: string } }[] };
        return { status: answer.status, codes: (body.errors ?? []).map((error) => error.extensions?.code) };
      }),
    );
    expect(answers.filter((answer) => answer.status !== 200 || answer.codes.length > 0)).toEqual([]);
    expect(stack().simulator.requestCount()).toBe(1);
  });
});
