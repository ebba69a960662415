import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useEventStreamHeartbeat } from '../../../src/server/transport/use-event-stream-heartbeat.js';

const HEARTBEAT_MS = 20;

let sendTick: ((tick: number) => void) | undefined;

/** A subscription that sends when the test says so. */
function ticks(): AsyncIterableIterator<{ tick: number }> {
  const source: AsyncIterableIterator<{ tick: number }> = {
    [Symbol.asyncIterator]: () => source,
    next: () =>
      new Promise<IteratorResult<{ tick: number }>>((resolve) => {
        sendTick = (tick) => resolve({ done: false, value: { tick } });
      }),
    return: () => Promise.resolve({ done: true, value: undefined }),
  };
  return source;
}

// The plugin alone, on a yoga with one query field and one subscription field: test/server/live.test.ts checks that
// subscribers of the server get their events between the pings.
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { hello: String } type Subscription { tick: Int }',
    resolvers: { Query: { hello: () => 'world' }, Subscription: { tick: { subscribe: ticks } } },
  }),
  plugins: [useEventStreamHeartbeat(HEARTBEAT_MS) as Plugin],
  logging: false,
});

/** Reads the stream until `until` holds of what was read, for 5 s at most (yoga's own ping is 12 s apart). */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, until: (text: string) => boolean) {
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 5_000;
  while (!until(text) && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe('useEventStreamHeartbeat', () => {
  it(`sends a comment line every ${HEARTBEAT_MS} ms on an idle event stream, between its events`, async () => {
    // yoga pings every 300 ms itself under NODE_ENV=test, as often as this test would wait; every 12 s otherwise.
    const nodeEnv = process.env['NODE_ENV'];
    process.env['NODE_ENV'] = 'production';
    let response: Response;
    try {
      response = await yoga.fetch('http://yoga/graphql?query=subscription%7Btick%7D', {
        headers: { accept: 'text/event-stream' },
      });
    } finally {
      process.env['NODE_ENV'] = nodeEnv;
    }
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();

    const idle = await readUntil(reader, (text) => text.split(':\n\n').length > 3);
    expect(idle.split(':\n\n').length).toBeGreaterThan(3);

    sendTick?.(7);
    const next = await readUntil(reader, (text) => text.includes('"tick":7') && text.endsWith('\n\n'));
    expect(next).toContain('event: next\ndata: {"data":{"tick":7}}\n\n');
    // A ping is a line of its own, never within an event.
    expect(next.replace(/^(:\n\n)*/, '')).toMatch(/^event: next\ndata: \{"data":\{"tick":7\}\}\n\n(:\n\n)*$/);
    await reader.cancel();
  });

  it('leaves answers that are not event streams as they were', async () => {
    const response = await yoga.fetch('http://yoga/graphql?query=%7Bhello%7D');
    expect(await response.json()).toEqual({ data: { hello: 'world' } });
  });
});
