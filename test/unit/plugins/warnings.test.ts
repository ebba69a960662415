import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARNING } from '../../../src/errors/registry.js';
import type { Context } from '../../../src/graphql/context.js';
import { AnswerFreshness, ResponseLedger } from '../../../src/graphql/response-ledger.js';
import { AnswerWarnings, MAX_WARNINGS_PER_ANSWER } from '../../../src/graphql/warnings.js';
import { buildInfo } from '../../../src/server/observability/build-info.js';
import { createMetrics } from '../../../src/server/observability/metrics.js';
import { OperationNames } from '../../../src/server/observability/operation-names.js';
import { useResponseDelivery } from '../../../src/server/response-cache/use-response-delivery.js';
import { useWarnings } from '../../../src/server/answers/use-warnings.js';
import { ResponseCache } from '../../../src/server/response-cache/cache.js';
import { createHotPath } from '../../../src/server/response-cache/hot-path.js';
import { withRequestState, type PipelineServerContext } from '../../../src/server/request-state.js';
import { nodeRequestStateOf } from '../../helpers/request-state.js';

// The warnings plugin and the response cache alone, on a one-field yoga behind the hot path: the summary payload,
// the one field that warns today, is never read anonymously, so the server cannot show that a warned answer is not
// stored for another caller. test/server/summary-inputs.test.ts checks the warnings the server sends over each transport.
describe('useWarnings with the response cache', () => {
  let resolved = 0;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    const yoga = createYoga({
      schema: createSchema<Context>({
        typeDefs: 'type Query { greeting(warnings: Int!): String }',
        resolvers: {
          Query: {
            greeting: (_root: unknown, args: { warnings: number }, context: Context, info) => {
              resolved += 1;
              for (let n = 0; n < args.warnings; n++)
                context.warnings.add(info, WARNING.INPUT_KEY_IGNORED, { key: `K${n}`, known: ['A'] });
              return 'hello';
            },
          },
        },
      }),
      context: (initial) => {
        const { state } = initial as typeof initial & PipelineServerContext;
        const ledger = (state.ledger ??= new ResponseLedger());
        return { warnings: new AnswerWarnings('en'), ledger, freshness: new AnswerFreshness(ledger) };
      },
      plugins: [
        useWarnings(),
        useResponseDelivery({
          catalogueMaxAgeS: 60,
          staleWhileRevalidateS: 0,
          now: Date.now,
          responseCache: cache,
          metrics,
          graphqlPath: '/graphql',
        }),
      ] as Plugin[],
      logging: false,
    });
    const hotPath = createHotPath({
      cache,
      yoga: withRequestState(yoga.requestListener),
      graphqlPath: '/graphql',
      metrics,
      rateLimit: undefined,
    });
    // Each request with its state, as the app's listener makes it.
    server = createServer((request, response) => void hotPath(request, response, nodeRequestStateOf(request)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    origin = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const cache = new ResponseCache({ maxBytes: 1024 * 1024, minUses: 1, now: Date.now });
  const metrics = createMetrics(new OperationNames({ limit: 10 }), buildInfo());
  const get = async (warnings: number) => {
    const response = await fetch(
      `${origin}/graphql?query=${encodeURIComponent(`{ greeting(warnings: ${warnings}) }`)}`,
    );
    return {
      cacheControl: response.headers.get('cache-control'),
      body: (await response.json()) as { extensions?: { warnings?: { key: string }[] } },
    };
  };

  it('stores an anonymous answer without warnings, and never one with a warning', async () => {
    resolved = 0;
    await get(0);
    const again = await get(0);
    expect(resolved).toBe(1);
    expect(again.body.extensions).toBeUndefined();

    resolved = 0;
    const warned = await get(1);
    const warnedAgain = await get(1);
    expect(resolved).toBe(2);
    expect(warned.cacheControl).toBe('no-store');
    expect(warnedAgain.body.extensions?.warnings?.map((warning) => warning.key)).toEqual(['K0']);
  });

  it(`sends at most ${MAX_WARNINGS_PER_ANSWER} warnings in one answer`, async () => {
    const { body } = await get(MAX_WARNINGS_PER_ANSWER + 5);
    expect(body.extensions?.warnings).toHaveLength(MAX_WARNINGS_PER_ANSWER);
  });
});
