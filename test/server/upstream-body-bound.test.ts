import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { DEFAULTS } from '../helpers/settings.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { startStack } from '../helpers/stack.js';

const MB = 1_048_576;
// What the stub would send if nobody stopped reading: far beyond any bound, small enough to finish if one is missing.
const HUGE_BYTES = 512 * MB;
const CHUNK = Buffer.alloc(64 * 1024, '[1,'.repeat(22_000).slice(0, 64 * 1024));

type Answer = 'streamed' | 'announced' | 'small';

/**
 * A stub upstream: `/streamed/...` streams a JSON-looking body of HUGE_BYTES with no Content-Length, `/announced/...`
 * announces HUGE_BYTES and then streams it, `/small/...` answers a valid body of 1.5 MB. It counts what it wrote
 * before the reader went away.
 */
async function startStub(): Promise<{ url: string; written: Map<Answer, number>; close(): Promise<void> }> {
  const written = new Map<Answer, number>();
  const stream = async (answer: Answer, response: ServerResponse, total: number): Promise<void> => {
    let sent = 0;
    const closed = once(response, 'close').then(() => written.set(answer, sent));
    while (sent < total && !response.destroyed) {
      sent += CHUNK.length;
      if (!response.write(CHUNK)) await Promise.race([once(response, 'drain'), closed]);
    }
    response.end();
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const answer = (request.url ?? '').split('/')[1] as Answer;
    if (answer === 'small') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ data: 'x'.repeat(1.5 * MB) }));
      return;
    }
    response.writeHead(200, {
      'content-type': 'application/json',
      ...(answer === 'announced' ? { 'content-length': String(HUGE_BYTES) } : {}),
    });
    void stream(answer, response, HUGE_BYTES);
  });
  const listening = await listenOnLoopback(server);
  return { url: listening.origin, written, close: listening.close };
}

describe('an upstream body is read no further than UPSTREAM_MAX_BODY_MB', () => {
  let stub: Awaited<ReturnType<typeof startStub>>;
  beforeAll(async () => {
    stub = await startStub();
  });
  afterAll(async () => {
    await stub.close();
  });

  const client = (answer: Answer, maxBodyMb: number) =>
    createUpstreamClient({
      baseUrl: `${stub.url}/${answer}`,
      apiKey: undefined,
      apiKeyHeader: 'api-key',
      timeoutMs: 30_000,
      caPem: undefined,
      retries: DEFAULTS.upstream.retries,
      breakerCooldownS: DEFAULTS.upstream.breakerCooldownS,
      maxBodyMb,
      logger: createLogger('silent'),
    });

  it.each(['streamed', 'announced'] as const)(
    'a %s body over the bound is UPSTREAM_BAD_RESPONSE, and reading stops near the bound',
    async (answer) => {
      const upstream = client(answer, 1);
      try {
        const failure = await upstream.getDataset('ODS_COUNT_TEACHER_BY_YEAR', '').catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(UpstreamError);
        expect((failure as UpstreamError).code).toBe('UPSTREAM_BAD_RESPONSE');
        await expect.poll(() => stub.written.get(answer)).toBeDefined();
        // The rest of the 512 MB was never sent: what was written is the bound plus the sockets' buffers.
        expect(stub.written.get(answer)).toBeLessThan(32 * MB);
      } finally {
        await upstream.close();
      }
    },
  );

  it('a body under the bound is read whole; the same body over a smaller bound is refused', async () => {
    const roomy = client('small', 2);
    const tight = client('small', 1);
    try {
      const answer = await roomy.getDataset('ODS_COUNT_TEACHER_BY_YEAR', '');
      expect(answer.kind === 'body' && answer.text.length).toBeGreaterThan(1.5 * MB);
      const refused = await tight.getDataset('ODS_COUNT_TEACHER_BY_YEAR', '').catch((error: unknown) => error);
      expect((refused as UpstreamError).code).toBe('UPSTREAM_BAD_RESPONSE');
    } finally {
      await roomy.close();
      await tight.close();
    }
  });

  it('through GraphQL: the payload is null with UPSTREAM_BAD_RESPONSE and its siblings still answer', async () => {
    const stack = await startStack({ baseUrl: `${stub.url}/streamed`, caPem: null, upstreamMaxBodyMb: 2 });
    try {
      const response = await stack.post({ query: '{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { code payload } }' });
      const body = (await response.json()) as {
        data: { dataset: { code: string; payload: unknown } };
        errors: { extensions: { code: string } }[];
      };
      expect(body.data.dataset).toEqual({ code: 'ODS_COUNT_TEACHER_BY_YEAR', payload: null });
      expect(body.errors.map((error) => error.extensions.code)).toEqual(['UPSTREAM_BAD_RESPONSE']);
      expect(stub.written.get('streamed')).toBeLessThan(32 * MB);
    } finally {
      await stack.close();
    }
  });
});
