import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SENT_BYTES_PER_TOKEN } from '../../src/rate-limit/limiter.js';
import { subscribe } from '../helpers/sse.js';
import { useListeningStack } from '../helpers/stack.js';

// Issue 42: an SSE or multipart answer (@defer, @stream, subscriptions) paid one token on arrival and nothing for its
// bytes: the counting stream that priced every other answer stopped their parts reaching the client, so they were left
// out. Now they pay as they send: a part's bytes are in the bucket before the stream ends, and its parts still
// reach the client as soon as each is made.

const LARGEST = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
const HELD = 'V10_DUPWITH';
/** About 3.7 MB in the first part; the deferred part waits on an upstream call the test holds. */
const FIRST_LARGE = `{ big: dataset(code: ${LARGEST}) { payload } ... @defer { held: dataset(code: ${HELD}) { payload } } }`;
const POINTS = 60;

/** The first part whole: its closing boundary (multipart) or the blank line that ends its event (SSE). */
const firstPartSent = (text: string): boolean =>
  text.split('\r\n---').length > 2 || /^event: next\ndata: [^\n]*\n\n/m.test(text);

/** A streamed answer read off the socket as it arrives (identity, so its text is its bytes). */
interface Streamed {
  readonly status: number;
  bytes(): number;
  waitFor(test: (text: string) => boolean): Promise<void>;
  readonly done: Promise<string>;
}

function open(origin: string, accept: string, address: string): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ query: FIRST_LARGE });
    const request = httpRequest(`${origin}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept,
        'accept-encoding': 'identity',
        'x-forwarded-for': address,
        'content-length': Buffer.byteLength(body),
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      const waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];
      const text = (): string => Buffer.concat(chunks).toString('utf8');
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        bytes += chunk.length;
        const now = text();
        for (const waiter of waiters.splice(0)) {
          if (waiter.test(now)) waiter.resolve();
          else waiters.push(waiter);
        }
      });
      const done = new Promise<string>((resolveDone, rejectDone) => {
        response.on('end', () => resolveDone(text()));
        response.on('error', rejectDone);
      });
      // A test that failed leaves its stream to be cut when the server closes: not an unhandled rejection.
      done.catch(() => undefined);
      resolve({
        status: response.statusCode ?? 0,
        bytes: () => bytes,
        waitFor: (test) =>
          test(text()) ? Promise.resolve() : new Promise((resolveWait) => waiters.push({ test, resolve: resolveWait })),
        done,
      });
    });
    request.end(body);
  });
}

describe('a stream of parts (SSE, multipart) pays for its bytes as it sends them', () => {
  const started = useListeningStack({ rateLimit: { points: POINTS, windowS: 3600, trustProxy: true } });

  /** What the address's bucket holds, as a cheap request from it reads (that request's own token taken). */
  const remaining = async (origin: string, address: string): Promise<number> => {
    const response = await fetch(`${origin}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { 'x-forwarded-for': address },
    });
    await response.arrayBuffer();
    return Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1] ?? Number.NaN);
  };

  it.each([
    ['multipart/mixed', '203.0.113.81'],
    ['text/event-stream', '203.0.113.82'],
  ])('%s: the first part is sent at once and paid while the stream is still open', async (accept, address) => {
    const { origin, stack } = started();
    let release = (): void => undefined;
    stack.simulator.setFault(HELD, { until: new Promise<void>((resolve) => (release = resolve)), times: 1 });
    const received = stack.simulator.whenReceived(1, HELD);
    const streamed = await open(origin, accept, address);
    expect(streamed.status).toBe(200);
    // The deferred part cannot exist yet (its upstream call is held): the first reaches the client regardless.
    await received;
    await streamed.waitFor(firstPartSent);
    const firstPart = streamed.bytes();
    expect(firstPart).toBeGreaterThan(10 * SENT_BYTES_PER_TOKEN);
    // Still open, its bytes already paid: the stream's token, the probe's, and a token per 256 KB sent beyond the first.
    const whileOpen = await remaining(origin, address);
    expect(POINTS - whileOpen).toBeGreaterThanOrEqual(Math.floor(firstPart / SENT_BYTES_PER_TOKEN));
    release();
    const text = await streamed.done;
    expect(text).toContain(accept === 'text/event-stream' ? 'event: complete' : '"hasNext":false');
    const afterEnd = await remaining(origin, address);
    // Once ended, every byte is paid: the probes' two tokens and the stream's bytes, rounded down.
    expect(POINTS - afterEnd).toBeGreaterThanOrEqual(2 + Math.floor(streamed.bytes() / SENT_BYTES_PER_TOKEN) - 1);
  });
});

describe('a subscription over SSE, with the byte price on', () => {
  const started = useListeningStack({ rateLimit: { points: POINTS, windowS: 3600, trustProxy: true } });

  it('gets each event as it is published (compressed, metered), its stream still open', async () => {
    const { origin, stack } = started();
    const code = 'ODS_COUNT_TEACHER_BY_YEAR';
    // The first look only records what each dataset is.
    await stack.live.watcher.check();
    const stream = await subscribe(
      `${origin}/graphql`,
      'subscription Changed($codes: [DatasetCode!]) { datasetChanged(codes: $codes) { dataset { code } version } }',
      { codes: [code] },
      { 'x-forwarded-for': '203.0.113.83', 'accept-encoding': 'gzip' },
    );
    expect(stream.status).toBe(200);
    const revised = await fetch(`${stack.simulator.url}/__simulator/datasets/${code}/revisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ step: 3 }),
    });
    expect(revised.status).toBe(201);
    await stack.live.watcher.check();
    const event = await stream.next();
    expect(event.data).toMatchObject({ datasetChanged: { dataset: { code } } });
    stream.close();
    expect(await stream.ended).toBe(false);
  });
});
