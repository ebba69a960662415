import type { Caller, UseRequestRecord } from '../access/model.js';
import { CodedError } from '../errors/coded-error.js';
import type { DatasetChange } from './watcher.js';
import { CODE } from '../errors/registry.js';

/** What subscriptions deliver: a dataset that changed upstream, a request for use whose status moved. */
export type LiveEvent =
  | { readonly topic: 'datasetChanged'; readonly change: DatasetChange }
  | { readonly topic: 'useRequestChanged'; readonly request: UseRequestRecord };

export type LiveTopic = LiveEvent['topic'];

/** The bounds of one instance's subscriptions. */
export interface SubscriptionLimits {
  /** Open subscriptions of one caller (a client id, the operator, or an anonymous IP). */
  readonly perCaller: number;
  /** Open subscriptions of this instance, everyone's together. */
  readonly total: number;
  /** Events one subscription may have waiting for a slow reader; one more ends it with SUBSCRIPTION_OVERFLOW. */
  readonly queue: number;
}

/** Told what happens to subscriptions, e.g. to show it in metrics. */
export interface LiveObserver {
  opened(topic: LiveTopic): void;
  closed(topic: LiveTopic): void;
  refused(limit: 'caller' | 'total'): void;
  delivered(topic: LiveTopic, subscribers: number): void;
}

/** A subscription refused (too many open, arguments out of bounds) or ended (it fell too far behind its events). */
export class SubscriptionError extends CodedError {}

/** Stands in a feed for the events a slow reader lost; the subscription's resolver turns it into the error. */
export const OVERFLOWED: unique symbol = Symbol('overflowed');

/** A feed's value as a subscription field resolves it: the event's value, or the error that ends a slow reader. */
export function delivered<T>(value: T | typeof OVERFLOWED): T {
  if (value === OVERFLOWED) {
    throw new SubscriptionError(
      CODE.SUBSCRIPTION_OVERFLOW,
      'Events arrived faster than this subscription read them and some were lost: subscribe again, and read what you missed with a query.',
    );
  }
  return value;
}

/** Whose subscriptions count together against SUBSCRIPTION_MAX_PER_CALLER: a client, the operator, an anonymous IP. */
export function subscriberKey(caller: Caller, clientIp: string): string {
  return caller.kind === 'client'
    ? `client:${caller.client.id}`
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
  private closed = false;

  constructor(
    private readonly limits: SubscriptionLimits,
    private readonly observer?: LiveObserver,
  ) {}

  get openSubscriptions(): number {
    return this.feeds.size;
  }

  /**
   * Opens a subscription of `caller` to `topic`; `select` gives the value an event has for it, or undefined to
   * pass it by. Refused with SUBSCRIPTION_LIMIT beyond the caller's or the instance's bound.
   */
  subscribe<T>(
    caller: string,
    topic: LiveTopic,
    select: (event: LiveEvent) => T | undefined,
  ): AsyncIterableIterator<T | typeof OVERFLOWED> {
    const held = this.perCaller.get(caller) ?? 0;
    if (held >= this.limits.perCaller) {
      this.observer?.refused('caller');
      throw new SubscriptionError(
        CODE.SUBSCRIPTION_LIMIT,
        `You have ${held} subscriptions open, as many as one caller may: close one before opening another.`,
        { maxSubscriptions: this.limits.perCaller },
      );
    }
    if (this.closed || this.feeds.size >= this.limits.total) {
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
    const feed = new Feed<T>(topic, select, this.limits.queue, () => {
      this.feeds.delete(feed as Feed<unknown>);
      const left = (this.perCaller.get(caller) ?? 1) - 1;
      if (left > 0) this.perCaller.set(caller, left);
      else this.perCaller.delete(caller);
      this.observer?.closed(topic);
    });
    this.feeds.add(feed as Feed<unknown>);
    this.observer?.opened(topic);
    return feed;
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
class Feed<T> implements AsyncIterableIterator<T | typeof OVERFLOWED> {
  private readonly queue: (T | typeof OVERFLOWED)[] = [];
  private waiting: ((result: IteratorResult<T | typeof OVERFLOWED>) => void) | undefined;
  private done = false;
  private overflowed = false;

  constructor(
    readonly topic: LiveTopic,
    private readonly select: (event: LiveEvent) => T | undefined,
    private readonly maxQueue: number,
    private readonly onEnd: () => void,
  ) {}

  /** Queues the event's value if this subscription wants it; true when it did. */
  offer(event: LiveEvent): boolean {
    if (this.done || this.overflowed || event.topic !== this.topic) return false;
    const value = this.select(event);
    if (value === undefined) return false;
    if (this.waiting !== undefined) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ done: false, value });
    } else if (this.queue.length >= this.maxQueue) {
      // What it missed is gone: it hears so, once, and then its stream completes.
      this.overflowed = true;
      this.queue.length = 0;
      this.queue.push(OVERFLOWED);
    } else {
      this.queue.push(value);
    }
    return true;
  }

  next(): Promise<IteratorResult<T | typeof OVERFLOWED>> {
    if (this.queue.length > 0)
      return Promise.resolve({ done: false, value: this.queue.shift() as T | typeof OVERFLOWED });
    if (this.done || this.overflowed) {
      this.end();
      return Promise.resolve({ done: true, value: undefined });
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T | typeof OVERFLOWED>> {
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  throw(error?: unknown): Promise<IteratorResult<T | typeof OVERFLOWED>> {
    this.end();
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }

  /** Ends it: a reader waiting gets `done`, and its slot is given back once. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.queue.length = 0;
    this.waiting?.({ done: true, value: undefined });
    this.waiting = undefined;
    this.onEnd();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
