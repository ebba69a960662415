import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { DATASET_CODES, SUMMARY_ENDPOINTS, USE_REQUEST_STATUSES } from '../catalogue.js';
import { closeRedis, type RedisLink } from '../upstream/redis-link.js';
import type { LiveEvent } from './subscription-hub.js';
import { observeRedisCommands, type RedisCommandEvent } from '../upstream/redis-commands.js';

/**
 * Where events go once made: to this instance's own subscribers and cache at once, and, when instances share
 * Redis, to every other instance through one pub/sub channel. `receive` is what an instance does with an event,
 * whoever made it (drop what the change made stale, then deliver to subscriptions).
 */
export interface EventBus {
  publish(event: LiveEvent): void;
  close(): Promise<void>;
}

export type ReceiveEvent = (event: LiveEvent) => Promise<void>;

/** The pub/sub channel of events under a deployment's Redis key prefix: the servers' and the admin CLI's. */
export function eventChannel(redisKeyPrefix: string | undefined): string {
  return `${redisKeyPrefix ?? ''}live:events`;
}

/**
 * Sends events to every instance subscribed to `channel`, from a process that is no instance (the admin CLI):
 * one connection, each event published and acknowledged, then closed. Rejects when Redis does not take them.
 */
export async function sendToInstances(options: { url: string; channel: string }, events: readonly LiveEvent[]) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(options.url, { maxRetriesPerRequest: 1, lazyConnect: true });
  // Failures reach the caller through the commands' promises; the connection's own event would go unheard.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const origin = randomUUID();
    for (const event of events) await redis.publish(options.channel, JSON.stringify({ origin, event }));
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}

/** One process: events go straight to `receive`. */
export function createMemoryBus(receive: ReceiveEvent, logger: Logger): EventBus {
  return {
    publish: (event) =>
      void receive(event).catch((error: unknown) =>
        logger.error({ err: error, topic: event.topic }, 'event not delivered'),
      ),
    close: () => Promise.resolve(),
  };
}

export interface RedisBusOptions {
  /** This instance's link to Redis, which opens the bus's two connections. */
  readonly link: RedisLink;
  readonly channel: string;
  readonly receive: ReceiveEvent;
  readonly logger: Logger;
  /** Told of every message from Redis that is not a valid event (it is dropped). */
  readonly onRejected?: () => void;
  /** Told of every command the publishing connection sends. */
  readonly onCommand?: (event: RedisCommandEvent) => void;
}

/** The longest message read from the channel; events are a few hundred bytes. */
const MAX_MESSAGE_BYTES = 16 * 1024;
const MAX_TEXT = 2_000;

const date = z
  .string()
  .max(64)
  .transform((text) => new Date(text))
  .refine((value) => !Number.isNaN(value.getTime()), 'not a date');
const text = z.string().max(MAX_TEXT);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

// Every message from Redis is checked as hostile input: another writer on the channel may be anything.
const messageSchema = z.object({
  origin: z.string().max(64),
  event: z.discriminatedUnion('topic', [
    z.object({
      topic: z.literal('datasetChanged'),
      change: z.object({
        dataset: z.enum(DATASET_CODES),
        changedAt: date,
        version: text,
        previousVersion: text,
        recordCount: count,
        previousRecordCount: count,
        shapeFingerprint: text,
        shapeChanged: z.boolean(),
      }),
    }),
    z.object({
      topic: z.literal('useRequestChanged'),
      request: z.object({
        id: text,
        clientId: text,
        endpointId: z
          .number()
          .int()
          .refine((id) => SUMMARY_ENDPOINTS.some((endpoint) => endpoint.id === id), 'not a summary endpoint'),
        status: z.enum(USE_REQUEST_STATUSES).exclude(['NOT_REQUESTED']),
        purpose: text,
        note: text.nullable(),
        createdAt: date,
        updatedAt: date,
      }),
    }),
    z.object({ topic: z.literal('clientAccessChanged'), clientId: text }),
  ]),
});

/**
 * Events across instances through Redis pub/sub (ioredis, two connections: a subscribed connection can do
 * nothing else). An instance delivers its own events at once and skips them when Redis echoes them back, so its
 * own subscribers do not depend on Redis being up; a message that fails the schema is dropped and counted. It
 * never waits for Redis: the subscription is sent once Redis answers, and again after every reconnection.
 */
export function createRedisBus(options: RedisBusOptions): EventBus {
  const { channel, receive, logger, link } = options;
  const origin = randomUUID();
  // Publishing fails fast rather than queue while Redis is away: the event is logged as lost, never retried late.
  const publisher = link.connect('event-bus:publish');
  const subscriber = link.connect('event-bus:subscribe', { subscriber: true });
  if (options.onCommand !== undefined) observeRedisCommands(publisher, options.onCommand);
  const deliver = (event: LiveEvent): void => {
    void receive(event).catch((error: unknown) =>
      logger.error({ err: error, topic: event.topic }, 'event not delivered'),
    );
  };
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const parsed = message.length > MAX_MESSAGE_BYTES ? undefined : parseJson(message);
    const checked = parsed === undefined ? undefined : messageSchema.safeParse(parsed.value);
    if (checked?.success !== true) {
      options.onRejected?.();
      logger.warn(
        { channel, bytes: message.length },
        'dropped a message on the event channel that is not a valid event',
      );
      return;
    }
    if (checked.data.origin !== origin) deliver(checked.data.event);
  });
  subscriber.subscribe(channel).catch((error: unknown) => {
    logger.warn({ err: error, channel }, 'not subscribed to the event channel');
  });
  return {
    publish(event) {
      deliver(event);
      publisher.publish(channel, JSON.stringify({ origin, event })).catch((error: unknown) => {
        logger.warn({ err: error, topic: event.topic }, 'event not sent to the other instances (Redis unavailable)');
      });
    },
    async close() {
      await Promise.all([closeRedis(subscriber), closeRedis(publisher)]);
    },
  };
}

function parseJson(message: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(message) as unknown };
  } catch {
    return undefined;
  }
}
