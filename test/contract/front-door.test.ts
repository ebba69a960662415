import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENT_BYTES_PER_TOKEN } from '../../src/rate-limit/limiter.js';
import { listen, useStack } from '../helpers/stack.js';

/** Writes `request` on a fresh socket and answers everything the server sent until it closed or went quiet. */
async function raw(port: number, request: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(request);
  while (!/\r\n\r\n/.test(received) && !socket.destroyed)
    await Promise.race([once(socket, 'data'), once(socket, 'close')]);
  socket.destroy();
  return received;
}

describe('the pages that are not GraphQL pay from the same bucket', () => {
  const stack = useStack({ rateLimit: { points: 3, windowS: 3_600 } });
  const fromIp = (ip: string, path: string, headers: Record<string, string> = {}) =>
    Promise.resolve(
      stack().app.fetch(`http://localhost${path}`, { headers }, { req: { socket: { remoteAddress: ip } } }),
    );
  const graphiql = { accept: 'text/html', 'accept-encoding': 'gzip' };

  it('meters /metrics per IP: the fourth scrape in the window is refused with RATE_LIMITED', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await fromIp('10.3.0.1', '/metrics');
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${2 - i};`));
    }
    const refused = await fromIp('10.3.0.1', '/metrics');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'RATE_LIMITED',
    );
    // Another address scrapes on.
    expect((await fromIp('10.3.0.2', '/metrics')).status).toBe(200);
  });

  it('meters the GraphiQL page per IP, with or without a trailing slash, by its bytes, from the bucket its operations use', async () => {
    const page = await fromIp('10.3.1.1', '/graphql', graphiql);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // Its megabytes cost more tokens than this bucket (3) holds: taken from the full bucket, into debt
    // (SENT_BYTES_PER_TOKEN), so the next page and the address's operations wait.
    expect(Number(page.headers.get('content-length'))).toBeGreaterThan(3 * SENT_BYTES_PER_TOKEN);
    expect((await fromIp('10.3.1.1', '/graphql/', graphiql)).status).toBe(429);
    const operation = await fromIp('10.3.1.1', '/graphql?query=%7B__typename%7D', {
      accept: 'application/graphql-response+json',
    });
    expect(operation.status).toBe(429);
    // With a trailing slash on another address's full bucket.
    expect((await fromIp('10.3.1.2', '/graphql/', graphiql)).status).toBe(200);
  });
});

describe('HTTP hygiene at the front door', () => {
  const stack = useStack();
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(stack().app);
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a request with two Host fields with 400, whatever their values or spelling', async () => {
    for (const hosts of [
      'Host: localhost\r\nHost: evil.example',
      'Host: localhost\r\nHost: localhost',
      'Host: localhost\r\nhost: localhost:4000',
    ]) {
      const answer = await raw(server.port, `GET /health HTTP/1.1\r\n${hosts}\r\nConnection: close\r\n\r\n`);
      expect(answer, hosts).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('exactly one Host header');
    }
    expect(await raw(server.port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 200 /,
    );
  });

  it('answers /health without x-yoga-id, on a socket and through fetch', async () => {
    const answer = await raw(server.port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.toLowerCase()).not.toContain('x-yoga-id');
    const response = await stack().app.fetch('http://localhost/health');
    expect(response.status).toBe(200);
    expect(response.headers.has('x-yoga-id')).toBe(false);
  });

  it('answers /health on that path alone, not on every URL that ends with it', async () => {
    expect((await stack().app.fetch('http://localhost/health', { method: 'HEAD' })).status).toBe(200);
    expect((await stack().app.fetch('http://localhost/anything/health')).status).toBe(404);
    const query = await stack().app.fetch(
      `http://localhost/graphql?query=${encodeURIComponent('{ __typename }')}&x=/health`,
      {
        headers: { accept: 'application/json' },
      },
    );
    expect(query.status).toBe(200);
    expect(await query.json()).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('a bad key at any door', () => {
  const stack = useStack();
  // The doors that ask who is calling (the catalogue feeds and the schema files serve everyone alike and ask no one).
  const doors: readonly [string, RequestInit][] = [
    ['/graphql', { method: 'POST', body: '{"query":"{ datasets { code } }"}' }],
    ['/datasets/ODS_COUNT_TEACHER_BY_YEAR.csv', {}],
    ['/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }],
  ];

  it.each(doors)(
    '%s answers 401 UNAUTHENTICATED with the Bearer challenge, in the caller’s language',
    async (path, init) => {
      const response = await stack().app.fetch(`http://localhost${path}`, {
        ...init,
        headers: {
          authorization: 'Bearer tedu_not-a-key',
          'accept-language': 'th',
          'content-type': 'application/json',
        },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="thai-edu-graphql"');
      const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0]?.extensions.code).toBe('UNAUTHENTICATED');
      expect(body.errors[0]?.message).toMatch(/ยืนยันตัวตนไม่สำเร็จ/);
    },
  );
});
