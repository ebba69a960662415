import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AccessService } from '../access/model.js';
import { DATASET_CODES } from '../catalogue.js';
import type { Config } from '../config.js';
import { announceCliDecisions } from '../live/cli-decisions.js';
import { recordingDates } from '../live/dataset-dates.js';
import { createMemoryVersions, createRedisVersions, type DatasetVersions } from '../live/dataset-versions.js';
import { createMemoryBus, createRedisBus, eventChannel } from '../live/event-bus.js';
import { publishingTransitions } from '../live/publishing-access.js';
import { clientSubscriberKey, LiveHub, type LiveEvent } from '../live/subscription-hub.js';
import { redisSubscriptionSlots } from '../live/subscription-slots.js';
import { ALWAYS_LEADER, leadWithLease, type Leadership } from '../live/watcher-leadership.js';
import { createWatcher, type Watcher } from '../live/watcher.js';
import { recordsView } from '../records/index.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamSource } from '../upstream/source.js';
import type { Metrics } from './observability/metrics.js';
import { openSeveral, type Opened } from './opened.js';
import type { RedisPlace } from './open-redis.js';
import type { ResponseCache } from './response-cache/cache.js';

/** When a store that holds no dates for some dataset has its first look, rather than an interval after start. */
const FIRST_LOOK_MS = 2_000;

/** Change detection and delivery, as the app and shutdown use them. */
export interface LiveParts {
  readonly hub: LiveHub;
  /** What the watcher recorded of each dataset, also written to the store (the catalogues' dates). */
  readonly datasetVersions: DatasetVersions;
  /** The store, announcing each request-for-use transition to every instance. */
  readonly access: AccessService;
  /** Runs passes on its own every WATCH_INTERVAL_S (none when 0); `check()` runs one now. */
  readonly watcher: Watcher;
  readonly leadership: Leadership;
}

export interface LiveDependencies {
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** The request-for-use store as opened. */
  readonly store: AccessService;
  readonly upstream: { readonly client: UpstreamClient; readonly source: UpstreamSource };
  readonly responseCache: ResponseCache | undefined;
  readonly redisPlace: RedisPlace;
  /** The shared connection; undefined without Redis (versions and leadership then stay in this instance). */
  readonly redis: Redis | undefined;
  readonly now: (() => number) | undefined;
}

/**
 * Subscriptions, the watcher's records and the event bus (Redis or memory), the store's transitions announced on it,
 * and the watcher with its leadership. Closed in reverse: the subscriptions complete first, then the watcher stops
 * before its lease is handed back, so no pass runs once another instance may lead.
 */
export function openLive(config: Config, dependencies: LiveDependencies): Promise<Opened<LiveParts>> {
  const { logger, metrics, upstream, responseCache, redisPlace, redis, now } = dependencies;
  return openSeveral(logger, (opened) => {
    // With Redis, a caller's subscriptions are counted over every instance (SUBSCRIPTION_MAX_PER_CALLER holds for
    // the fleet, not per instance); closed after the hub, whose subscriptions give their slots back as they end.
    const { link } = redisPlace;
    const slots =
      redis === undefined || link === undefined
        ? undefined
        : redisSubscriptionSlots({
            redis,
            key: (caller) => redisPlace.key(`live:subscriptions:${caller}`),
            run: (command) => link.run(command),
            logger: logger.child({ component: 'subscription-slots' }),
          });
    if (slots !== undefined) opened.push(() => slots.close());
    const hub = new LiveHub(config.live.subscriptions, metrics.subscriptions, slots);
    const datasetVersions = recordingDates(
      redis === undefined ? createMemoryVersions() : createRedisVersions(redis, redisPlace.key('live:')),
      dependencies.store,
      logger.child({ component: 'dataset-dates' }),
    );
    // What every instance does with an event, its own or another's: forget what the change made stale, then tell
    // the subscribers, so that a client that queries on the event reads the new data.
    const receive = async (event: LiveEvent): Promise<void> => {
      if (event.topic === 'clientAccessChanged') return hub.recheck(clientSubscriberKey(event.clientId));
      if (event.topic === 'datasetChanged') {
        responseCache?.dropDatasets([event.change.dataset]);
        await upstream.source.forgetDataset(event.change.dataset, 'local');
      }
      hub.deliver(event);
    };
    const bus =
      redisPlace.link === undefined
        ? createMemoryBus(receive, logger)
        : createRedisBus({
            link: redisPlace.link,
            channel: eventChannel(redisPlace.keyPrefix),
            receive,
            logger: logger.child({ component: 'event-bus' }),
            onRejected: () => metrics.eventRejected(),
            onCommand: metrics.redisCommand,
          });
    opened.push(() => bus.close());
    const publish = (event: LiveEvent): void => {
      metrics.eventPublished(event.topic);
      bus.publish(event);
    };
    const access = publishingTransitions(
      dependencies.store,
      (request) => publish({ topic: 'useRequestChanged', request }),
      (clientId) => publish({ topic: 'clientAccessChanged', clientId }),
    );
    // Without Redis, decisions the admin command wrote to the store are found by polling it.
    if (redisPlace.link === undefined && config.live.storePollS > 0) {
      const cliDecisions = announceCliDecisions({
        access,
        intervalMs: config.live.storePollS * 1_000,
        announce: (request) => publish({ topic: 'useRequestChanged', request }),
        logger,
      });
      opened.push(() => Promise.resolve(cliDecisions.close()));
    }

    const leadership =
      redis === undefined
        ? ALWAYS_LEADER
        : leadWithLease({
            redis,
            key: redisPlace.key('live:watcher-leader'),
            ttlMs: config.live.watchLeaseS * 1_000,
            logger: logger.child({ component: 'watcher' }),
          });
    opened.push(() => leadership.close());
    const watcher = createWatcher({
      client: upstream.client,
      codes: DATASET_CODES,
      versions: datasetVersions,
      describe: async (value, version) => {
        const view = recordsView(value, `watcher#${version}`);
        await view.prepare();
        return { recordCount: view.size, shapeFingerprint: view.fingerprint() };
      },
      // The shared payload entries go once, here; each instance then drops its own copies as it receives the event.
      onChange: async (change) => {
        await upstream.source.forgetDataset(change.dataset, 'shared');
        publish({ topic: 'datasetChanged', change });
      },
      keep: (code, answer) => upstream.source.keepDataset(code, answer),
      isLeader: () => leadership.isLeader(),
      onReport: (report) => metrics.watcherRun(report),
      logger: logger.child({ component: 'watcher' }),
      now,
    });
    // Closed before the lease is handed back, so no pass runs once another instance may lead.
    opened.push(() => watcher.close());
    // A store without a dataset's dates (a new deployment) has its first look at it as soon as anything downloads its
    // whole payload (CACHE_WARM, a query), and within seconds at the latest instead of an interval: until then the
    // catalogues publish no dates, and CKAN's harvesters need metadata_modified. The early pass waits for the warm's
    // downloads and looks only at what they did not record, so nothing is fetched twice.
    const undated = dependencies.store.datasetDates().then(
      (rows) => new Set<string>(DATASET_CODES.filter((code) => !rows.some((row) => row.code === code))),
      () => new Set<string>(),
    );
    upstream.source.observeDatasetBodies((code, answer) => {
      void undated
        .then(async (codes) => {
          if (!codes.delete(code)) return;
          await watcher.record(code, answer).catch((error: unknown) => {
            codes.add(code);
            logger.warn({ dataset: code, err: error }, 'could not record a first look');
          });
        })
        .catch(() => undefined);
    });
    if (config.live.watchIntervalS > 0) {
      const intervalMs = config.live.watchIntervalS * 1_000;
      watcher.start(intervalMs);
      void undated.then((codes) => {
        // Read at once, before a download has taken a dataset off the list.
        if (codes.size > 0)
          watcher.start(intervalMs, {
            afterMs: Math.min(FIRST_LOOK_MS, intervalMs),
            settled: () => upstream.source.idle(),
          });
      });
    }
    opened.push(() => Promise.resolve(hub.close()));
    return { hub, datasetVersions, access, watcher, leadership };
  });
}
