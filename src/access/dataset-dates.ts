/**
 * When each dataset's content was first seen and last seen to change, in the store beside the request-for-use
 * tables (migration 0006), so that the dates catalogues publish survive a restart. One row per dataset: the content
 * version last seen, when the dataset was first seen (created) and when a new version was first seen (modified).
 */
import type { DatasetDatesRecord } from './model.js';
import { type AccessStore, toDate } from './store-rows.js';

/**
 * Records a content version seen at `seenAt`: the first of a dataset sets both dates; another version than the one
 * stored moves `modified` (and the version); the same version changes nothing. One statement, so that instances
 * recording at once cannot lose a change.
 */
export async function recordDatasetVersion(
  store: AccessStore,
  input: { readonly code: string; readonly version: string; readonly seenAt: Date },
): Promise<void> {
  const at = input.seenAt.toISOString();
  await store.db
    .insertInto('dataset_dates')
    .values({ code: input.code, version: input.version, created_at: at, modified_at: at })
    .onConflict((conflict) =>
      conflict
        .column('code')
        .doUpdateSet((update) => ({
          version: update.ref('excluded.version'),
          modified_at: update.ref('excluded.modified_at'),
        }))
        .where('dataset_dates.version', '<>', input.version),
    )
    .execute();
}

/** Every dataset's stored dates. */
export async function datasetDates(store: AccessStore): Promise<DatasetDatesRecord[]> {
  const rows = await store.db.selectFrom('dataset_dates').selectAll().execute();
  return rows.map((row) => ({
    code: row.code,
    version: row.version,
    created: toDate(row.created_at),
    modified: toDate(row.modified_at),
  }));
}
