import type { Caller, UseRequestRecord } from '../access/model.js';
import { CodedError } from '../errors/coded-error.js';
import type { DatasetChange } from './watcher.js';
import { CODE } from '../errors/registry.js';
import type { SubscriptionSlots } from './subscription-slots.js';

/** What subscriptions deliver: a dataset that changed upstream, a request for use whose status moved. */
export type LiveEvent =
  | { readonly topic: 'datasetChanged'; readonly change: DatasetChange }
  | { readonly topic: 'useRequestChanged'; readonly request: UseRequestRecord }
  /** A client's keys may have stopped being valid (rotated without grace, disabled, deleted): its streams ask again. */
  | { readonly topic: 'clientAccessChanged'; readonly clientId: string };

export type LiveTopic = LiveEvent['topic'];

/** The bounds of subscriptions: the caller's across instances when Redis counts them, the rest per instance. */
export interface SubscriptionLimits {
  /** Open subscriptions of one caller (a client id, the operator, or an anonymous IP), on all instances with Redis. */
  readonly perCaller: number;
  /** Open subscriptions of this instance, everyone's together. */
  readonly total: number;
  /** Events one subscription may have waiting for a slow reader; one more ends it with SUBSCRIPTION_OVERFLOW. */
  readonly queue: number;
  /** Seconds a subscription stays open at most; it then ends with STREAM_LIFETIME_EXCEEDED. */
  readonly maxLifetimeS: number;
}

/** Told what happens to subscriptions, e.g. to show it in metrics. */
export interface LiveObserver {
  opened(topic: LiveTopic): void;
  closed(topic: LiveTopic): void;
  refused(limit: 'caller' | 'total'): void;
  delivered(topic: LiveTopic, subscribers: number): void;
}

/**
 * A subscription refused (too many open, arguments out of bounds) or ended: it fell too far behind its events, it
 * reached its lifetime, or the key it was opened with stopped being valid.
 */
export class SubscriptionError extends CodedError {}

/** Stands in a feed for the events a slow reader lost; the subscription's resolver turns it into the error. */
export const OVERFLOWED: unique symbol = Symbol('overflowed');
/** Stands in a feed for the end of its lifetime (SUBSCRIPTION_MAX_LIFETIME_S). */
export const LIFETIME_EXCEEDED: unique symbol = Symbol('lifetime exceeded');
/** Stands in a feed for the end of the credential it was opened with. */
export const KEY_REVOKED: unique symbol = Symbol('key revoked');

/** The last value of a feed that ends on its own: the subscription's resolver turns it into the final error. */
export type FeedEnding = typeof OVERFLOWED | typeof LIFETIME_EXCEEDED | typeof KEY_REVOKED;

/** The error that ends a stream whose credential stopped being valid. */
export function keyRevokedError(): SubscriptionError {
  return new SubscriptionError(CODE.STREAM_KEY_REVOKED);
}

/** A feed's value as a subscription field resolves it: the event's value, or the error that ends the stream. */
export function delivered<T>(value: T | FeedEnding): T {
  if (value === OVERFLOWED) {
    throw new SubscriptionError(
      CODE.SUBSCRIPTION_OVERFLOW,
      'Events arrived faster than this subscription read them and some were lost: subscribe again, and read what you missed with a query.',
    );
  }
  if (value === KEY_REVOKED) throw keyRevokedError();
  if (value === LIFETIME_EXCEEDED) {
    throw new SubscriptionError(CODE.STREAM_LIFETIME_EXCEEDED);
  }
  return value;
}

/** The subscriberKey of a client's subscriptions, whichever of its keys opened them. */
export function clientSubscriberKey(clientId: string): string {
  return `client:${clientId}`;
}

/** Whose subscriptions count together against SUBSCRIPTION_MAX_PER_CALLER: a client, the operator, an anonymous IP. */
export function subscriberKey(caller: Caller, clientIp: string): string {
  return caller.kind === 'client'
    ? clientSubscriberKey(caller.client.id)
    : caller.kind === 'operator'
      ? 'operator'
      : `ip:${clientIp}`;
}

/**
 * The subscriptions open on this instance and the events they wait for. Events arrive through `deliver` (from
 * the event bus: this instance's own, or another's through Redis) and each open subscription whose `select` picks
 * the event gets its value in its own bounded queue; a reader that lets it fill up is ended rather than let the
 * queue grow. `close` completes every subscription, so streams end with a `complete` rather than a cut connection.
 */
export class LiveHub {
  private readonly feeds = new Set<Feed<unknown>>();
  private readonly perCaller = new Map<string, number>();
  // Subscriptions checked against the bounds and waiting for Redis's count: they hold their place meanwhile.
  private pending = 0;
  private closed = false;

  /** `slots`: the callers' counts across instances (Redis); without it the bound is this instance's alone. */
  constructor(
    private readonly limits: SubscriptionLimits,
    private readonly observer?: LiveObserver,
    private readonly slots?: SubscriptionSlots,
  ) {}

  get openSubscriptions(): number {
    return this.feeds.size;
  }

  /**
   * Opens a subscription of `caller` to `topic`; `select` gives the value an event has for it, or undefined to
   * pass it by. Refused with SUBSCRIPTION_LIMIT beyond the caller's bound (on this instance, then across instances
   * when the slots are shared) or the instance's.
   */
  async subscribe<T>(
    caller: string,
    topic: LiveTopic,
    select: (event: LiveEvent) => T | undefined,
    stillValid?: () => Promise<boolean>,
  ): Promise<AsyncIterableIterator<T | FeedEnding>> {
    const held = this.perCaller.get(caller) ?? 0;
    if (held >= this.limits.perCaller) throw this.callerRefusal(held);
    if (this.closed || this.feeds.size + this.pending >= this.limits.total) {
      this.observer?.refused('total');
      throw new SubscriptionError(
        CODE.SUBSCRIPTION_LIMIT,
        'This server has as many subscriptions open as it may: try again shortly.',
        {
          maxSubscriptions: this.limits.total,
        },
      );
    }
    this.perCaller.set(caller, held + 1);
    const giveBack = (): void => {
      const left = (this.perCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.perCaller.set(caller, left);
      else this.perCaller.delete(caller);
    };
    let release = (): void => undefined;
    if (this.slots !== undefined) {
      this.pending += 1;
      const slot = await this.slots.take(caller, this.limits.perCaller).finally(() => (this.pending -= 1));
      if (!slot.taken) {
        giveBack();
        throw this.callerRefusal(slot.held);
      }
      release = slot.release;
      if (this.closed) {
        giveBack();
        release();
        this.observer?.refused('total');
        throw new SubscriptionError(CODE.SUBSCRIPTION_LIMIT, 'This server is shutting down: try again shortly.', {
          maxSubscriptions: this.limits.total,
        });
      }
    }
    const feed = new Feed<T>(caller, topic, select, this.limits, stillValid, () => {
      this.feeds.delete(feed as Feed<unknown>);
      giveBack();
      release();
      this.observer?.closed(topic);
    });
    this.feeds.add(feed as Feed<unknown>);
    this.observer?.opened(topic);
    return feed;
  }

  private callerRefusal(held: number): SubscriptionError {
    this.observer?.refused('caller');
    return new SubscriptionError(
      CODE.SUBSCRIPTION_LIMIT,
      `You have ${held} subscriptions open, as many as one caller may: close one before opening another.`,
      { maxSubscriptions: this.limits.perCaller },
    );
  }

  /**
   * Asks every open subscription of `caller` (a subscriberKey) whether its credential still holds, and ends those
   * whose credential does not with STREAM_KEY_REVOKED, idle or not: a rotation, a disabling or a deletion reaches
   * the streams at once rather than at their next event.
   */
  async recheck(caller: string): Promise<void> {
    await Promise.all([...this.feeds].filter((feed) => feed.caller === caller).map((feed) => feed.recheck()));
  }

  /** Hands an event to every open subscription that wants it. */
  deliver(event: LiveEvent): void {
    let delivered = 0;
    for (const feed of this.feeds) if (feed.offer(event)) delivered += 1;
    this.observer?.delivered(event.topic, delivered);
  }

  /** Completes every open subscription and refuses new ones. */
  close(): void {
    this.closed = true;
    for (const feed of [...this.feeds]) feed.end();
  }
}

/** One subscription's events, as the async iterator graphql-js reads them from. */
class Feed<T> implements AsyncIterableIterator<T | FeedEnding> {
  private readonly queue: (T | FeedEnding)[] = [];
  private waiting: ((result: IteratorResult<T | FeedEnding>) => void) | undefined;
  private done = false;
  // Its last value is queued (OVERFLOWED, LIFETIME_EXCEEDED): nothing more is taken, and it completes once read.
  private ending = false;
  private readonly lifetime: NodeJS.Timeout;

  constructor(
    readonly caller: string,
    readonly topic: LiveTopic,
    private readonly select: (event: LiveEvent) => T | undefined,
    private readonly limits: Pick<SubscriptionLimits, 'queue' | 'maxLifetimeS'>,
    private readonly stillValid: (() => Promise<boolean>) | undefined,
    private readonly onEnd: () => void,
  ) {
    // Idle or not, a stream gives its slot back in the end: slots cannot be held for ever by many addresses.
    this.lifetime = setTimeout(() => this.finish(LIFETIME_EXCEEDED), limits.maxLifetimeS * 1_000).unref();
  }

  /** Queues the event's value if this subscription wants it; true when it did. */
  offer(event: LiveEvent): boolean {
    if (this.done || this.ending || event.topic !== this.topic) return false;
    const value = this.select(event);
    if (value === undefined) return false;
    if (this.waiting !== undefined) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ done: false, value });
    } else if (this.queue.length >= this.limits.queue) {
      // What it missed is gone: it hears so, once, and then its stream completes.
      this.finish(OVERFLOWED);
    } else {
      this.queue.push(value);
    }
    return true;
  }

  /** Ends it with KEY_REVOKED when its credential no longer holds; a store that cannot answer ends nothing. */
  async recheck(): Promise<void> {
    if (this.stillValid === undefined || this.done || this.ending) return;
    const valid = await this.stillValid().catch(() => true);
    if (!valid) this.finish(KEY_REVOKED);
  }

  /** Drops what waits and makes `last` the final value: the reader gets it next, then `done`. */
  private finish(last: FeedEnding): void {
    if (this.done || this.ending) return;
    this.ending = true;
    this.queue.length = 0;
    if (this.waiting !== undefined) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ done: false, value: last });
    } else {
      this.queue.push(last);
    }
  }

  next(): Promise<IteratorResult<T | FeedEnding>> {
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.queue.shift() as T | FeedEnding });
    if (this.done || this.ending) {
      this.end();
      return Promise.resolve({ done: true, value: undefined });
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T | FeedEnding>> {
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  throw(error?: unknown): Promise<IteratorResult<T | FeedEnding>> {
    this.end();
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }

  /** Ends it: a reader waiting gets `done`, and its slot is given back once. */
  end(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.lifetime);
    this.queue.length = 0;
    this.waiting?.({ done: true, value: undefined });
    this.waiting = undefined;
    this.onEnd();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
