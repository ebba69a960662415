/**
 * The front door alone (server/front-door.ts), over routes made in the test and a memory limiter with a fake
 * clock: what every route gets without asking (the price before work, the byte price as the answer is written, the
 * one refusal writer, the headers, CORS) and what it must never do (end the process on a route that throws).
 */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { CODE } from '../../../src/errors/registry.js';
import type { Route } from '../../../src/http/route.js';
import { createRateLimiter, SENT_BYTES_PER_TOKEN } from '../../../src/rate-limit/limiter.js';
import { createFrontDoor } from '../../../src/server/front-door.js';
import { corsOptions } from '../../../src/server/transport/cors.js';
import { requestStateOf } from '../../helpers/request-state.js';

const POINTS = 10;
const WINDOW_S = 60;

function door(routes: readonly Route[]) {
  const limiter = createRateLimiter({ points: POINTS, windowS: WINDOW_S }, undefined, 'test', () => 0);
  if (limiter === undefined) throw new Error('no limiter');
  const refusals: string[] = [];
  const frontDoor = createFrontDoor(routes, {
    rateLimit: { limiter, onRefusal: (kind) => refusals.push(kind) },
    cors: corsOptions(['https://app.example.org']),
    logger: pino({ level: 'silent' }),
    simulatedUpstream: true,
  });
  const get = async (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> => {
    const request = new Request(`http://door${path}`, {
      method,
      headers: { 'x-forwarded-for': '192.0.2.1', ...headers },
    });
    const route = frontDoor.routeOf(new URL(request.url).pathname, request);
    if (route === undefined) throw new Error(`no route for ${path}`);
    return frontDoor.serve(route, request, requestStateOf(request));
  };
  const left = async (): Promise<number> => (await limiter.peek('ip:192.0.2.1')).remaining ?? Number.NaN;
  return { get, refusals, limiter, left };
}

const route = (name: string, price: Route['price'], handle: Route['handle']): Route => ({
  name,
  price,
  paths: [`/${name}`],
  handle,
});

describe('the front door', () => {
  it('takes the price before the route runs, and refuses an empty bucket with the one writer, unrun', async () => {
    let runs = 0;
    const { get, refusals } = door([
      route('feed', 'operation', () => {
        runs += 1;
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      }),
    ]);
    for (let n = 0; n < POINTS; n++) expect((await get('/feed')).status).toBe(200);
    const refused = await get('/feed', { 'accept-language': 'th' });
    expect(runs).toBe(POINTS);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(WINDOW_S / POINTS));
    expect(refused.headers.get('content-language')).toBe('th');
    expect(refused.headers.get('ratelimit')).toMatch(/;r=0;/);
    const answer = (await refused.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(answer.errors[0]?.extensions).toEqual({ code: CODE.RATE_LIMITED, retryAfterS: WINDOW_S / POINTS });
    expect(answer.errors[0]?.message).toMatch(/^มีคำขอมากเกินกำหนด/);
    expect(refusals).toEqual(['anonymous']);
  });

  it('prices the bytes an answer sends beyond what it paid, for a body of known length and a stream alike', async () => {
    const megabyte = new Uint8Array(4 * SENT_BYTES_PER_TOKEN);
    const { get, left } = door([
      route('file', 'stored', () => new Response(megabyte, { headers: { 'content-length': String(megabyte.length) } })),
      route(
        'stream',
        'operation',
        () =>
          new Response(
            new ReadableStream({
              start(controller) {
                for (let n = 0; n < 3; n++) controller.enqueue(new Uint8Array(SENT_BYTES_PER_TOKEN));
                controller.close();
              },
            }),
          ),
      ),
    ]);
    await (await get('/file')).arrayBuffer();
    // 4 tokens for 4 × 256 KB, the eighth paid on arrival included.
    expect(await left()).toBeCloseTo(POINTS - 4, 5);
    // A stream is priced once it has been read: 3 tokens, the one paid on arrival included.
    const streamed = await get('/stream');
    expect(await left()).toBeCloseTo(POINTS - 4 - 1, 5);
    await streamed.arrayBuffer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await left()).toBeCloseTo(POINTS - 4 - 3, 5);
  });

  it('answers a route that throws with a coded 500 and nothing internal, and serves on', async () => {
    const { get } = door([
      route('broken', 'free', () => {
        throw new Error('secret internals');
      }),
      route('fine', 'free', () => new Response('ok')),
    ]);
    const failed = await get('/broken', { 'accept-language': 'en' });
    expect(failed.status).toBe(500);
    const text = await failed.text();
    expect(text).toContain(CODE.INTERNAL_SERVER_ERROR);
    expect(text).not.toContain('secret');
    expect(await (await get('/fine')).text()).toBe('ok');
  });

  it('gives every answer its request id, security headers, the simulated mark and CORS for an allowed origin', async () => {
    const { get } = door([
      route('page', 'free', () => new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } })),
    ]);
    const page = await get('/page', { origin: 'https://app.example.org', 'x-request-id': 'abc-1' });
    expect(page.headers.get('x-request-id')).toBe('abc-1');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-upstream-simulated')).toBe('true');
    expect(page.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    const foreign = await get('/page', { origin: 'https://evil.example' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await get(
      '/page',
      { origin: 'https://app.example.org', 'access-control-request-method': 'GET' },
      'OPTIONS',
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
  });
});
