import { describe, expect, it } from 'vitest';
import type { Logger } from 'pino';
import { ClosingStack, openSeveral } from '../../src/server/opened.js';

/** A logger that keeps what it was told at error level. */
function recordingLogger(): [Logger, unknown[]] {
  const errors: unknown[] = [];
  return [{ error: (facts: unknown) => errors.push(facts) } as unknown as Logger, errors];
}

describe('ClosingStack', () => {
  it('closes newest first, each awaited before the next starts', async () => {
    const [logger] = recordingLogger();
    const stack = new ClosingStack(logger);
    const events: string[] = [];
    for (const name of ['store', 'redis', 'live'])
      stack.push(async () => {
        events.push(`${name} begins`);
        await Promise.resolve();
        events.push(`${name} ends`);
      });
    await stack.close();
    expect(events).toEqual(['live begins', 'live ends', 'redis begins', 'redis ends', 'store begins', 'store ends']);
  });

  it('logs a close that fails and still runs the others; closing twice closes once', async () => {
    const [logger, errors] = recordingLogger();
    const stack = new ClosingStack(logger);
    const closed: string[] = [];
    stack.push(() => Promise.resolve(void closed.push('first')));
    stack.push(() => Promise.reject(new Error('boom')));
    expect(stack.keep({ parts: 42, close: () => Promise.resolve(void closed.push('kept')) })).toBe(42);
    await stack.close();
    await stack.close();
    expect(closed).toEqual(['kept', 'first']);
    expect(errors).toEqual([{ err: new Error('boom') }]);
  });
});

describe('openSeveral', () => {
  it('closes what a concern opened when it fails part way, then lets the failure through', async () => {
    const [logger] = recordingLogger();
    const closed: string[] = [];
    const failing = openSeveral(logger, (opened) => {
      opened.push(() => Promise.resolve(void closed.push('simulator')));
      throw new Error('cannot make the client');
    });
    await expect(failing).rejects.toThrow('cannot make the client');
    expect(closed).toEqual(['simulator']);
  });
});
