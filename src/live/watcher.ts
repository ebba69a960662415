import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { DatasetCode } from '../catalogue.js';
import type { UpstreamBody, UpstreamClient } from '../upstream/client.js';
import type { DatasetVersion, DatasetVersions } from './dataset-versions.js';
import { UpstreamError } from '../upstream/errors.js';
import { laterTurn } from '../later-turn.js';

/** Every dataset, or only those the watcher has no version of yet (a new deployment's first look). */
type PassScope = 'all' | 'unrecorded';

/** A dataset whose unfiltered payload changed since the watcher last looked: what `datasetChanged` delivers. */
export interface DatasetChange {
  readonly dataset: DatasetCode;
  readonly changedAt: Date;
  readonly version: string;
  readonly previousVersion: string;
  readonly recordCount: number;
  readonly previousRecordCount: number;
  readonly shapeFingerprint: string;
  readonly shapeChanged: boolean;
}

/** What the records engine says of a payload: how many records it has and the fingerprint of their fields. */
export interface PayloadDescription {
  readonly recordCount: number;
  readonly shapeFingerprint: string;
}

/** One pass over the datasets. */
export interface WatchReport {
  /** `skipped` when another instance holds the watcher's lease. */
  readonly outcome: 'done' | 'skipped';
  readonly changes: readonly DatasetChange[];
  /** Datasets answered 304 or with an identical body. */
  readonly unchanged: number;
  readonly failed: readonly DatasetCode[];
}

export interface WatcherOptions {
  readonly client: Pick<UpstreamClient, 'getDataset'>;
  readonly codes: readonly DatasetCode[];
  readonly versions: Pick<DatasetVersions, 'get' | 'set'>;
  /** Counts and fingerprints a payload (the records engine does; the upstream layer does not know records). */
  readonly describe: (value: unknown, version: string) => Promise<PayloadDescription>;
  /** Told of each change, after its version is recorded; the watcher waits for it before the next dataset. */
  readonly onChange: (change: DatasetChange) => Promise<void>;
  /**
   * Given every body the watcher downloaded, after any change it showed was handled: the payload cache keeps it,
   * so that what the watcher fetched is not fetched again by the next query.
   */
  readonly keep: (code: DatasetCode, answer: UpstreamBody) => Promise<void>;
  /** Whether this instance watches now: the holder of the lease when instances share Redis, always otherwise. */
  readonly isLeader: () => boolean;
  /** Told of every pass, e.g. to count it in metrics. */
  readonly onReport?: (report: WatchReport) => void;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** A new deployment's first look, sooner than an interval: the catalogues publish no dates until it. */
export interface FirstLook {
  readonly afterMs: number;
  /** Awaited before it: downloads under way (CACHE_WARM), whose bodies it then need not fetch again (see `record`). */
  readonly settled: () => Promise<void>;
}

export interface Watcher {
  /** One pass now: a conditional GET per dataset, one at a time, unless another instance is the leader. */
  check(): Promise<WatchReport>;
  /**
   * A pass every `intervalMs` (by default the first one too: start-up already fetches enough, CACHE_WARM and the
   * first requests), each timer drawn up to a tenth later so that restarted instances spread out; a pass never
   * overlaps the one before. With `firstLook`, a pass over only the datasets not yet recorded comes first, then the
   * intervals. Called again, it starts over.
   */
  start(intervalMs: number, firstLook?: FirstLook): void;
  /**
   * A body of a dataset's unfiltered payload that something else downloaded (a query, CACHE_WARM): recorded as the
   * first look at a dataset the watcher has no version of, so that its dates are known without another download.
   * A dataset already recorded is left to the passes, which compare.
   */
  record(code: DatasetCode, answer: UpstreamBody): Promise<void>;
  /** No more passes; waits for the one running. */
  close(): Promise<void>;
}

/**
 * Change detection for an upstream that publishes no events: it revalidates each dataset's unfiltered payload
 * with the validators it last saw (If-None-Match, If-Modified-Since). A 304 or a body with the same content hash
 * is no change; another body is one, recorded (version, record count, shape) and handed to `onChange`. The first
 * look at a dataset only records it: nothing to compare with.
 */
export function createWatcher(options: WatcherOptions): Watcher {
  const now = options.now ?? Date.now;
  let running: { readonly scope: PassScope; readonly report: Promise<WatchReport> } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  /** First looks being recorded from others' downloads, which a pass over the unrecorded waits for. */
  const recording = new Set<Promise<void>>();

  /** A pass of `scope`, or the one running when it covers as much; a full pass asked during a partial one follows it. */
  function run(scope: PassScope): Promise<WatchReport> {
    if (running !== undefined && (scope === 'unrecorded' || running.scope === 'all')) return running.report;
    if (running !== undefined) {
      const next = (): Promise<WatchReport> => run(scope);
      return running.report.then(next, next);
    }
    const report = pass(scope).finally(() => {
      running = undefined;
    });
    running = { scope, report };
    return report;
  }

  async function pass(scope: PassScope): Promise<WatchReport> {
    if (!options.isLeader()) return report({ outcome: 'skipped', changes: [], unchanged: 0, failed: [] });
    const changes: DatasetChange[] = [];
    const failed: DatasetCode[] = [];
    const codes = new Set<string>();
    let unchanged = 0;
    if (scope === 'unrecorded') await Promise.allSettled([...recording]);
    for (const code of options.codes) {
      if (closed) break;
      if (scope === 'unrecorded' && (await options.versions.get(code)) !== undefined) continue;
      try {
        const change = await look(code);
        if (change === undefined) unchanged += 1;
        else changes.push(change);
      } catch (error) {
        failed.push(code);
        if (error instanceof UpstreamError) codes.add(error.code);
        else options.logger.error({ dataset: code, err: error }, 'watcher failed on a dataset');
      }
    }
    // One line per pass: an upstream that is down fails every dataset, and the breaker says so once already.
    if (failed.length > 0)
      options.logger.warn(
        { failed, codes: [...codes] },
        'watcher could not check some datasets; it tries again next pass',
      );
    return report({ outcome: 'done', changes, unchanged, failed });
  }

  function report(result: WatchReport): WatchReport {
    options.onReport?.(result);
    return result;
  }

  /** The change of one dataset, or undefined when there is none (or this was the first look). */
  async function look(code: DatasetCode): Promise<DatasetChange | undefined> {
    const previous = await options.versions.get(code);
    const answer = await options.client.getDataset(
      code,
      '',
      previous && { etag: previous.etag, lastModified: previous.lastModified },
    );
    if (answer.kind === 'not-modified') return undefined;
    // The body arrives in the turn that parsed it (MV_DWH_SCHOOL1's 1.4 MB is read and parsed in one): hashing and
    // describing it wait for a later one, as for a body something else downloaded (record).
    await laterTurn();
    const change = await compare(code, previous, answer);
    await options.keep(code, answer);
    return change;
  }

  async function compare(
    code: DatasetCode,
    previous: DatasetVersion | undefined,
    answer: UpstreamBody,
  ): Promise<DatasetChange | undefined> {
    const version = `sha256:${createHash('sha256').update(answer.text).digest('base64url')}`;
    const { etag, lastModified } = answer.headers;
    if (previous?.version === version) {
      // The same content: keep its record, with the validators the upstream gave this time.
      if (previous.etag !== etag || previous.lastModified !== lastModified)
        await options.versions.set(code, { ...previous, etag, lastModified });
      return undefined;
    }
    const described = await options.describe(answer.value, version);
    const at = now();
    const firstSeen = lastModified === undefined ? at : Math.min(at, Date.parse(lastModified) || at);
    const current: DatasetVersion = {
      version,
      ...described,
      changedAt: previous === undefined ? firstSeen : at,
      etag,
      lastModified,
    };
    await options.versions.set(code, current);
    if (previous === undefined) return undefined;
    const change: DatasetChange = {
      dataset: code,
      changedAt: new Date(at),
      version,
      previousVersion: previous.version,
      recordCount: described.recordCount,
      previousRecordCount: previous.recordCount,
      shapeFingerprint: described.shapeFingerprint,
      shapeChanged: described.shapeFingerprint !== previous.shapeFingerprint,
    };
    options.logger.info({ ...change, changedAt: change.changedAt.toISOString() }, 'upstream dataset changed');
    await options.onChange(change);
    return change;
  }

  function schedule(intervalMs: number, firstLook?: FirstLook): void {
    if (closed) return;
    const afterMs = firstLook?.afterMs ?? intervalMs;
    const jitterMs = Math.floor(Math.random() * afterMs * 0.1);
    timer = setTimeout(() => {
      const turn =
        firstLook === undefined
          ? run('all')
          : firstLook.settled().then(
              () => run('unrecorded'),
              () => run('unrecorded'),
            );
      void turn.finally(() => schedule(intervalMs));
    }, afterMs + jitterMs);
    timer.unref();
  }

  return {
    check: () => run('all'),
    start(intervalMs, firstLook) {
      clearTimeout(timer);
      schedule(intervalMs, firstLook);
    },
    record(code, answer) {
      const recorded = (async () => {
        // Not in the turn that parsed the body: hashing it (about 5 ms for the 3.7 MB payload) waits for a later one.
        await laterTurn();
        if (closed || !options.isLeader() || (await options.versions.get(code)) !== undefined) return;
        await compare(code, undefined, answer);
      })();
      recording.add(recorded);
      return recorded.finally(() => recording.delete(recorded));
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running?.report.catch(() => undefined);
    },
  };
}
