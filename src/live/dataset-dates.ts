/**
 * The dates catalogues publish of each dataset, from the store (access/dataset-dates.ts) rather than the watcher's
 * memory: `recordingDates` writes each version the watcher records there; `datasetDatesReader` reads them back, so a
 * restarted server has them from its first request.
 */
import type { Logger } from 'pino';
import type { DatasetCode } from '../catalogue.js';
import type { AccessService, DatasetDatesRecord } from '../access/model.js';
import type { DatasetVersions } from './dataset-versions.js';

/** When a dataset was first seen and last seen to change; either undefined when nothing says. */
export interface DatasetDates {
  readonly created: Date | undefined;
  readonly modified: Date | undefined;
}

/**
 * The watcher's records, each also written to the store as a content version seen at its `changedAt`. A store that
 * fails is logged and does not fail the watcher: the next change writes again.
 */
export function recordingDates(
  versions: DatasetVersions,
  access: Pick<AccessService, 'recordDatasetVersion'>,
  logger: Logger,
): DatasetVersions {
  return {
    get: (code) => versions.get(code),
    async set(code, version) {
      await versions.set(code, version);
      await access
        .recordDatasetVersion({ code, version: version.version, seenAt: new Date(version.changedAt) })
        .catch((error: unknown) => logger.warn({ err: error, dataset: code }, 'dataset dates not stored'));
    },
  };
}

/**
 * A dataset's dates: the store's record; without one (the store away, or the watcher has not looked yet), the
 * watcher's own record of the last change, with no creation date. A catalogue request reads all 13 datasets' at once:
 * the reads that arrive while a store query is in flight share it.
 */
export function datasetDatesReader(
  access: Pick<AccessService, 'datasetDates'>,
  versions: DatasetVersions,
): (code: DatasetCode) => Promise<DatasetDates> {
  let inFlight: Promise<Map<string, DatasetDatesRecord>> | undefined;
  const stored = (): Promise<Map<string, DatasetDatesRecord>> => {
    inFlight ??= access
      .datasetDates()
      .then(
        (rows) => new Map(rows.map((row) => [row.code, row])),
        () => new Map<string, DatasetDatesRecord>(),
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
  return async (code) => {
    const row = (await stored()).get(code);
    if (row !== undefined) return { created: row.created, modified: row.modified };
    const seen = await versions.get(code).catch(() => undefined);
    return { created: undefined, modified: seen === undefined ? undefined : new Date(seen.changedAt) };
  };
}
