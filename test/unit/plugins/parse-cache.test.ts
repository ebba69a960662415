import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { boundedParseCache, useValidationErrorsReleased } from '../../../src/server/operations/parse-cache.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * The parse and validation caches alone, on a one-field yoga: a cached error must not keep the request it was raised
 * in. Until its stack is read, V8 holds an error's stack as call sites, whose frames hold the request's context; after
 * a fuzz run the build held 612 requests (and their bodies) that way.
 */
async function requestsStillHeld(plugins: Plugin[], documents: string[]): Promise<number> {
  // What node:http hands yoga with each request (its IncomingMessage and ServerResponse), held weakly here.
  const serverContexts: WeakRef<object>[] = [];
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { greeting: String }',
      resolvers: { Query: { greeting: () => 'hi' } },
    }),
    parserAndValidationCache: boundedParseCache(1024 * 1024),
    logging: false,
    plugins,
  });
  // Two valid requests after them, so that nothing of the last one's lingers in the test's own frames.
  for (const [index, query] of [...documents, '{ greeting }', '{ greeting }'].entries()) {
    const serverContext = { req: { body: 'x'.repeat(1000) }, res: {} };
    if (index < documents.length) serverContexts.push(new WeakRef(serverContext));
    const response = await yoga.fetch(
      'http://localhost/graphql',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) },
      serverContext,
    );
    await response.text();
  }
  // Collected over a few turns: what a request's own promises hold is let go of a turn or two after it answered.
  const held = (): number => serverContexts.filter((context) => context.deref() !== undefined).length;
  for (let turn = 0; turn < 10 && held() > 0; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    collectGarbage();
  }
  return held();
}

describe('boundedParseCache and useValidationErrorsReleased', () => {
  // Two validation errors, one parse error.
  const invalid = ['{ nope }', '{ greeting { x } }', '{ greeting '];

  it('keeps no request alive through a cached validation error', async () => {
    expect(await requestsStillHeld([useValidationErrorsReleased()], invalid)).toBe(0);
  });

  it('is what holds them otherwise (the test can fail)', async () => {
    expect(await requestsStillHeld([], invalid)).toBeGreaterThan(0);
  });
});
