import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generated, send } from '../helpers/fuzz-requests.js';
import { TEST_ADMIN_TOKEN, TEST_UPSTREAM_KEY, useListeningStack } from '../helpers/stack.js';

// Seeded, so a failure is reproducible; FUZZ_RUNS=20000 for a long run.
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 400);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261123);

describe('fuzzing the real HTTP path', () => {
  const listening = useListeningStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 } });

  it(`answers ${RUNS} generated requests (seed ${SEED}) without a 5xx, a stack trace, a secret or a dropped connection`, async () => {
    await fc.assert(
      fc.asyncProperty(generated, async (generatedRequest) => {
        const answer = await send(listening().origin, generatedRequest);
        expect(
          answer.status,
          `${generatedRequest.method} ${generatedRequest.path.slice(0, 200)} → ${answer.body.slice(0, 300)}`,
        ).toBeLessThan(500);
        // GraphiQL's page is JavaScript: it names error classes in its code.
        if (!answer.contentType.includes('text/html'))
          expect(answer.body).not.toMatch(/\n\s+at \S|node:internal|TypeError|RangeError|SyntaxError: /);
        expect(answer.body).not.toContain(TEST_UPSTREAM_KEY);
        expect(answer.body).not.toContain(TEST_ADMIN_TOKEN);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // Bad input is the client's mistake: nothing it sends is logged as the server's error.
    const errors = listening().stack.logLines.filter((line) => Number(line['level']) >= 50);
    expect(errors.map((line) => line['msg'])).toEqual([]);
  }, 120_000);
});
