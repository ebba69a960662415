import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

// The order of the pipeline is a contract whose rules app.ts states beside the list; this pins the list itself, so
// moving a stage is a change someone decides, reviews and explains there, never a side effect.
describe('the pipeline', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Every optional stage on but two: tracing needs an OTLP endpoint, and simulated-upstream marks only the embedded
    // simulator (these stacks use one as a real upstream); app.ts places both.
    stack = await startStack({
      http: { graphiql: true, portal: true, introspection: false },
      rateLimit: { points: 600, windowS: 60 },
    });
  });
  afterAll(() => stack.close());

  it('runs its stages in the order app.ts states the rules for', () => {
    expect(stack.app.pipeline).toEqual([
      'operation-state',
      'request-id',
      'validation-errors-released',
      'security-headers',
      'language',
      'event-stream-heartbeat',
      'subscription-release',
      'rate-limit-fields',
      'rate-limit',
      'multipart-subscriptions',
      'request-decompression',
      'request-shape',
      'batch-limit',
      'metrics',
      'csrf-prevention',
      'persisted-operations',
      'validation-bounds',
      'max-depth',
      'max-aliases',
      'max-directives',
      'max-tokens',
      'cost-limit',
      'introspection-disabled',
      'defer-stream',
      'masked-incremental-errors',
      'answer-budget',
      'warnings',
      'sliced-serialisation',
      'operation-log',
      'response-delivery',
    ]);
  });
});
