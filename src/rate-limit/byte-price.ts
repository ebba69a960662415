import type { Logger } from 'pino';
import { spentBudget } from './fields.js';
import { pricedBySize, type RateLimiter } from './limiter.js';
import { spentBudgetsOf } from './spent-budgets.js';

/** What a request paid when it arrived, and from which bucket: its answer's bytes are priced beyond that. */
export interface ArrivalPayment {
  readonly limiter: RateLimiter;
  readonly bucket: string;
  readonly paid: number;
  /** The budget the bucket is, as the RateLimit fields name it (the operations' own when not given). */
  readonly budget?: 'default' | 'client';
}

/**
 * As pricedByBytes, but a body of known length is charged before its headers are written, so its RateLimit fields
 * (the request's spent budgets) say what it cost; a stream is priced as it ends.
 */
export async function pricedBeforeSent(
  request: Request,
  response: Response,
  payment: ArrivalPayment,
  logger: Pick<Logger, 'error'>,
): Promise<Response> {
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (response.body !== null && !Number.isFinite(length)) return pricedByBytes(response, payment, logger);
  const owed = pricedBySize(payment.paid, Number.isFinite(length) ? length : 0) - payment.paid;
  if (owed > 0) {
    const state = await payment.limiter.charge(payment.bucket, owed);
    spentBudgetsOf(request).record(spentBudget(payment.budget ?? 'default', state, payment.limiter.windowS));
  }
  return response;
}

/**
 * The answer with its bytes priced (SENT_BYTES_PER_TOKEN): what they cost beyond what the request paid on arrival
 * is taken from the same bucket (into debt: the bytes are already on their way, and the bucket's next request
 * waits until the debt is refilled), at once when the length is known, else once the stream ends (or is cut
 * short: what was sent is what is paid for). The front door prices every route's answer so, and the GraphQL
 * pipeline every answer yoga writes, so no door and no miss is a way round the price a stored answer pays.
 */
export function pricedByBytes(response: Response, payment: ArrivalPayment, logger: Pick<Logger, 'error'>): Response {
  const settle = (bytes: number): void => {
    const owed = pricedBySize(payment.paid, bytes) - payment.paid;
    if (owed > 0)
      payment.limiter
        .charge(payment.bucket, owed)
        .catch((error: unknown) => logger.error({ err: error }, 'the byte price of an answer was not taken'));
  };
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (response.body === null || Number.isFinite(length)) {
    settle(Number.isFinite(length) ? length : 0);
    return response;
  }
  let sent = 0;
  let settled = false;
  const settleOnce = (): void => {
    if (settled) return;
    settled = true;
    settle(sent);
  };
  const reader = response.body.getReader();
  const counted = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            settleOnce();
            controller.close();
            return;
          }
          sent += next.value.byteLength;
          controller.enqueue(next.value);
        } catch (error) {
          settleOnce();
          controller.error(error);
        }
      },
      cancel(reason) {
        settleOnce();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}
