import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RawSocket } from '../helpers/raw-socket.js';
import { useListeningStack } from '../helpers/stack.js';
import { subscribe } from '../helpers/sse.js';

/**
 * Bad documents are the client's mistake on every transport, in the build that ships (this suite runs in vitest's
 * `build` project): a coded error and a client status, never INTERNAL_SERVER_ERROR, and nothing at error level in the
 * log. The production bundle once held two copies of graphql and answered each of these 500.
 */
const BAD = [
  { name: 'a syntax error', query: '{ datasets { code ', code: 'GRAPHQL_PARSE_FAILED' },
  {
    name: 'an unknown enum value',
    query: '{ dataset(code: NOT_A_DATASET) { code } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  { name: 'an unknown field', query: '{ datasets { nope } }', code: 'GRAPHQL_VALIDATION_FAILED' },
] as const;

interface Answer {
  errors?: { message: string; extensions?: { code?: string; detail?: string } }[];
}

describe('bad documents, on the production build', () => {
  const listening = useListeningStack({ live: { subscriptions: { perCaller: 4, total: 8 } } });
  const endpoint = (): string => `${listening().origin}/graphql`;
  const errorLines = (): unknown[] => listening().stack.logLines.filter((line) => Number(line['level']) >= 50);

  describe.each(BAD)('$name', ({ query, code }) => {
    it.each([
      ['application/json', 200],
      ['application/graphql-response+json', 400],
    ])('POST accepting %s: %i with %s', async (accept, status) => {
      const response = await fetch(endpoint(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify({ query }),
      });
      expect(response.status).toBe(status);
      const body = (await response.json()) as Answer;
      expect(body.errors?.map((error) => error.extensions?.code)).toEqual([code]);
      expect(errorLines()).toEqual([]);
    });

    it('GET: a client status and the code', async () => {
      const response = await fetch(`${endpoint()}?query=${encodeURIComponent(query)}`, {
        headers: { accept: 'application/graphql-response+json' },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as Answer).errors?.[0]?.extensions?.code).toBe(code);
    });

    it.each(['text/event-stream', 'multipart/mixed'])('accepting %s: no 5xx, the code', async (accept) => {
      const response = await fetch(endpoint(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify({ query }),
      });
      expect(response.status).toBeLessThan(500);
      const text = await response.text();
      expect(text).toContain(code);
      expect(text).not.toContain('INTERNAL_SERVER_ERROR');
      expect(errorLines()).toEqual([]);
    });
  });

  it('names the offending value in the Thai message too, with the English detail beside it', async () => {
    const response = await fetch(endpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': 'th' },
      body: JSON.stringify({ query: '{ dataset(code: NOT_A_DATASET) { code } }' }),
    });
    const [error] = ((await response.json()) as Answer).errors ?? [];
    expect(error?.message).toBe('คำสั่ง GraphQL ไม่ผ่านการตรวจสอบกับสคีมา: "NOT_A_DATASET", "DatasetCode"');
    expect(error?.extensions?.detail).toBe('Value "NOT_A_DATASET" does not exist in "DatasetCode" enum.');
  });

  it('an SSE subscription of a bad document ends that stream alone, with the code', async () => {
    const stream = await subscribe(endpoint(), 'subscription { datasetChanged(codes: [NOPE]) { version } }');
    expect(stream.status).toBeLessThan(500);
    stream.close();
  });

  it('over graphql-ws: an error message for that operation, and the socket serves the rest', async () => {
    const socket = await RawSocket.open<{ type: string; id?: string; payload?: unknown }>(
      endpoint().replace('http', 'ws'),
      'graphql-transport-ws',
    );
    socket.send({ type: 'connection_init' });
    await socket.received((message) => message.type === 'connection_ack');
    socket.send({ type: 'subscribe', id: 'live', payload: { query: 'subscription { datasetChanged { version } }' } });
    await expect.poll(() => listening().stack.live.hub.openSubscriptions).toBe(1);
    for (const [index, { query, code }] of BAD.entries()) {
      socket.send({ type: 'subscribe', id: `bad-${index}`, payload: { query } });
      const answer = await socket.received((message) => message.id === `bad-${index}`);
      expect(answer.type).toBe('error');
      expect((answer.payload as Answer['errors'])?.[0]?.extensions?.code).toBe(code);
      // In Thai, as HTTP answers the same request without an Accept-Language.
      expect((answer.payload as Answer['errors'])?.[0]?.message).toMatch(/[\u0E00-\u0E7F]/);
    }
    socket.send({ type: 'subscribe', id: 'after', payload: { query: '{ datasets { code } }' } });
    await socket.received((message) => message.id === 'after' && message.type === 'complete');
    expect(socket.messages.find((message) => message.id === 'after' && message.type === 'next')).toBeDefined();
    expect(listening().stack.live.hub.openSubscriptions).toBe(1);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.ws.close(1000);
    expect((await socket.closed).code).toBe(1000);
    expect(errorLines()).toEqual([]);
  });
});
