/**
 * Test stacks (stack.ts) whose server speaks to the second upstream (other-upstream.ts) instead of the simulator:
 * the suites that must hold whatever the upstream's record keys are run on both.
 */
import { afterAll, beforeAll } from 'vitest';
import { startOtherUpstream, type OtherUpstream } from './other-upstream.js';
import { listen, startStack, TEST_UPSTREAM_KEY, type Stack, type StackOptions } from './stack.js';

export { startOtherUpstream, type OtherUpstream } from './other-upstream.js';

/** A stack (stack.ts) whose server speaks to the second upstream instead of the simulator. */
export interface OtherStack {
  readonly stack: Stack;
  readonly upstream: OtherUpstream;
  close(): Promise<void>;
}

/**
 * The real server in process against the second upstream; `options` as for startStack (its `baseUrl` and
 * `caPem` are this upstream's). The stack's own simulator still runs but is never called.
 */
export async function startOtherStack(options: StackOptions = {}): Promise<OtherStack> {
  const upstream = await startOtherUpstream({
    apiKey: TEST_UPSTREAM_KEY,
    apiKeyHeader: options.simulator?.apiKeyHeader,
  });
  const stack = await startStack({ ...options, baseUrl: upstream.url, caPem: null });
  return {
    stack,
    upstream,
    async close() {
      await stack.close();
      await upstream.close();
    },
  };
}

/** startOtherStack before the enclosing suite's tests, closed after them; returns a getter. */
export function useOtherStack(options: StackOptions = {}): () => OtherStack {
  let started: OtherStack | undefined;
  beforeAll(async () => {
    started = await startOtherStack(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  return () => {
    if (started === undefined) throw new Error('the stack starts in beforeAll: use it inside a test');
    return started;
  };
}

/** The same on a real loopback socket, for a browser: `origin` is the server's. */
export function useListeningOtherStack(
  options: StackOptions = {},
): () => OtherStack & { readonly origin: string; readonly port: number } {
  let started: { other: OtherStack; server: Awaited<ReturnType<typeof listen>> } | undefined;
  beforeAll(async () => {
    const other = await startOtherStack(options);
    started = { other, server: await listen(other.stack.app) };
  });
  afterAll(async () => {
    await started?.server.close();
    await started?.other.close();
  });
  return () => {
    if (started === undefined) throw new Error('the stack starts in beforeAll: use it inside a test');
    return { ...started.other, origin: started.server.origin, port: started.server.port };
  };
}
