import type { Logger } from 'pino';
import { spentBudget } from './fields.js';
import { pricedBySize, type RateLimiter } from './limiter.js';
import type { SpentBudgets } from './spent-budgets.js';

/** What a request paid when it arrived, and from which bucket: its answer's bytes are priced beyond that. */
export interface ArrivalPayment {
  readonly limiter: RateLimiter;
  readonly bucket: string;
  readonly paid: number;
  /**
   * The bucket's size when it is not the configured points (a client's own quota): its bytes are charged at the size
   * it was paid at, or the charge would refill it at the default rate and cut it down to the default size.
   */
  readonly quota?: number | undefined;
  /** The budget the bucket is, as the RateLimit fields name it (the operations' own when not given). */
  readonly budget?: 'default' | 'client';
}

/** The Response class an answer is rebuilt with: the one that made it (yoga's fetch API for yoga's answers). */
export interface ResponseMaker {
  readonly Response: typeof Response;
}

const GLOBAL_FETCH: ResponseMaker = { Response };

/**
 * As pricedByBytes, but a body of known length is charged before its headers are written, so its RateLimit fields
 * (`budgets`, the request's spent budgets) say what it cost; a stream is priced as it is sent.
 */
export async function pricedBeforeSent(
  budgets: SpentBudgets,
  response: Response,
  payment: ArrivalPayment,
  logger: Pick<Logger, 'error'>,
  fetchAPI: ResponseMaker = GLOBAL_FETCH,
): Promise<Response> {
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (response.body !== null && !Number.isFinite(length)) return pricedByBytes(response, payment, logger, fetchAPI);
  const owed = pricedBySize(payment.paid, Number.isFinite(length) ? length : 0) - payment.paid;
  if (owed > 0) {
    const state = await payment.limiter.charge(payment.bucket, owed, payment.quota);
    budgets.record(spentBudget(payment.budget ?? 'default', state, payment.limiter.windowS));
  }
  return response;
}

/**
 * The answer with its bytes priced (SENT_BYTES_PER_TOKEN): what they cost beyond what the request paid on arrival
 * is taken from the same bucket, at the same size (into debt: the bytes are already on their way, and the bucket's
 * next request waits until the debt is refilled). A body of known length is charged at once. A stream (a download,
 * an event stream, a multipart answer) is charged as it passes: a token each time another token's worth has gone
 * through, the rest once it ends or is cut short (what was sent is what is paid for), so a subscription or a
 * deferred answer that stays open pays for its bytes meanwhile, not only at its end. The front door prices every
 * route's answer so, and the GraphQL pipeline every answer yoga writes, so no door and no miss is a way round the
 * price a stored answer pays.
 *
 * The stream is rebuilt with the Response class that made it (`fetchAPI`): yoga's Headers, given to another
 * Response class, list a header it set under another case twice (`Content-Encoding: none, gzip`), which no client
 * decodes; that, not the counting, is what once stopped yoga's event streams reaching their clients.
 */
export function pricedByBytes(
  response: Response,
  payment: ArrivalPayment,
  logger: Pick<Logger, 'error'>,
  fetchAPI: ResponseMaker = GLOBAL_FETCH,
): Response {
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  const meter = byteMeter(payment, logger);
  if (response.body === null || Number.isFinite(length)) {
    meter.ended(Number.isFinite(length) ? length : 0);
    return response;
  }
  return new fetchAPI.Response(metered(response.body, meter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

interface ByteMeter {
  /** `bytes` more went out: whole tokens owed by now are charged. */
  sent(bytes: number): void;
  /** The answer ended (or was cut) after `total` bytes: the rest of its price is charged, once. */
  ended(total: number): void;
}

function byteMeter(payment: ArrivalPayment, logger: Pick<Logger, 'error'>): ByteMeter {
  const { limiter, bucket, paid, quota } = payment;
  let sent = 0;
  let charged = 0;
  let settled = false;
  const chargeUpTo = (owed: number): void => {
    const step = owed - charged;
    if (step <= 0) return;
    charged = owed;
    limiter
      .charge(bucket, step, quota)
      .catch((error: unknown) => logger.error({ err: error }, 'the byte price of an answer was not taken'));
  };
  const owedFor = (bytes: number): number => pricedBySize(paid, bytes) - paid;
  return {
    sent(bytes) {
      sent += bytes;
      chargeUpTo(Math.floor(owedFor(sent)));
    },
    ended(total) {
      if (settled) return;
      settled = true;
      chargeUpTo(owedFor(total));
    },
  };
}

/**
 * `body` passed through chunk by chunk as it is read: nothing is held (no queue: highWaterMark 0, each chunk handed
 * on in the pull that read it), so a part flushed by the stream before it (compression flushes after every part)
 * reaches the socket as soon as it did without the meter.
 */
function metered(body: ReadableStream<Uint8Array>, meter: ByteMeter): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            meter.ended(sent);
            controller.close();
            return;
          }
          sent += next.value.byteLength;
          controller.enqueue(next.value);
          meter.sent(next.value.byteLength);
        } catch (error) {
          meter.ended(sent);
          controller.error(error);
        }
      },
      cancel(reason) {
        meter.ended(sent);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
