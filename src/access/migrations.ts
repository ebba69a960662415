import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The request-for-use schema, one migration set for both dialects; only two column types differ. Migrations
 * describe the schema as it was when written, so their status lists are literals, not the catalogue's constants.
 */
function requestForUse(dialect: Dialect): Migration {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('clients')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('contact_email', 'text', (col) => col.notNull())
        .addColumn('api_key_hash', 'text', (col) => col.notNull().unique())
        .addColumn('created_at', timestamp, (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('use_requests')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('endpoint_id', 'integer', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('purpose', 'text', (col) => col.notNull())
        .addColumn('note', 'text')
        .addColumn('created_at', timestamp, (col) => col.notNull())
        .addColumn('updated_at', timestamp, (col) => col.notNull())
        // At most one request per client and endpoint: asking again moves the same row back to PENDING.
        .addUniqueConstraint('use_requests_client_endpoint_key', ['client_id', 'endpoint_id'])
        .addCheckConstraint('use_requests_status_check', sql`status in ('PENDING', 'APPROVED', 'REJECTED', 'REVOKED')`)
        .execute();
      // The operator's list: newest first, optionally one status.
      await db.schema
        .createIndex('use_requests_updated_idx')
        .on('use_requests')
        .columns(['updated_at', 'id'])
        .execute();
      await db.schema
        .createIndex('use_requests_status_updated_idx')
        .on('use_requests')
        .columns(['status', 'updated_at', 'id'])
        .execute();

      await db.schema
        .createTable('use_request_events')
        .addColumn('seq', dialect === 'postgres' ? 'bigint' : 'integer', (col) =>
          // SQLite's AUTOINCREMENT never reuses a number, even after the newest row is deleted.
          dialect === 'postgres' ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
        )
        .addColumn('request_id', 'text', (col) => col.notNull().references('use_requests.id'))
        .addColumn('from_status', 'text', (col) => col.notNull())
        .addColumn('to_status', 'text', (col) => col.notNull())
        .addColumn('actor', 'text', (col) => col.notNull())
        .addColumn('note', 'text')
        .addColumn('at', timestamp, (col) => col.notNull())
        .addCheckConstraint(
          'use_request_events_from_check',
          sql`from_status in ('NOT_REQUESTED', 'PENDING', 'APPROVED', 'REJECTED', 'REVOKED')`,
        )
        .addCheckConstraint(
          'use_request_events_to_check',
          sql`to_status in ('PENDING', 'APPROVED', 'REJECTED', 'REVOKED')`,
        )
        .execute();
      await db.schema
        .createIndex('use_request_events_request_idx')
        .on('use_request_events')
        .columns(['request_id', 'seq'])
        .execute();
    },
  };
}

/**
 * Keys with a life cycle: a client's status and quota beside its current key, the further keys it still holds
 * (a rotated key in its grace period, a key minted for a retried registration), the client's own audit trail,
 * and what an Idempotency-Key of a registration answered. Existing clients keep their one key, unchanged.
 */
function keyLifeCycle(dialect: Dialect): Migration {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('clients').addColumn('disabled_at', timestamp).execute();
      await db.schema.alterTable('clients').addColumn('deleted_at', timestamp).execute();
      await db.schema.alterTable('clients').addColumn('rate_limit_points', 'integer').execute();

      await db.schema
        .createTable('client_keys')
        .addColumn('key_hash', 'text', (col) => col.primaryKey())
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('created_at', timestamp, (col) => col.notNull())
        // null: until the client rotates.
        .addColumn('expires_at', timestamp)
        .execute();
      await db.schema
        .createIndex('client_keys_client_idx')
        .on('client_keys')
        .columns(['client_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('client_events')
        .addColumn('seq', dialect === 'postgres' ? 'bigint' : 'integer', (col) =>
          dialect === 'postgres' ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
        )
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('actor', 'text', (col) => col.notNull())
        .addColumn('detail', 'text')
        .addColumn('at', timestamp, (col) => col.notNull())
        .addCheckConstraint(
          'client_events_kind_check',
          sql`kind in ('REGISTERED', 'KEY_ISSUED_FOR_RETRY', 'KEY_ROTATED', 'DISABLED', 'ENABLED', 'QUOTA_SET', 'DELETED')`,
        )
        .execute();
      await db.schema
        .createIndex('client_events_client_idx')
        .on('client_events')
        .columns(['client_id', 'seq'])
        .execute();

      await db.schema
        .createTable('registration_idempotency')
        // SHA-256 of the Idempotency-Key: the header value is never stored.
        .addColumn('key_hash', 'text', (col) => col.primaryKey())
        .addColumn('input_hash', 'text', (col) => col.notNull())
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('retries', 'integer', (col) => col.notNull())
        .addColumn('created_at', timestamp, (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('registration_idempotency_created_idx')
        .on('registration_idempotency')
        .columns(['created_at'])
        .execute();
    },
    // Loses what only this schema can hold: keys in their grace period and keys minted for retried registrations
    // (each client keeps its current key), disabled and deleted marks, quotas, the clients' audit trail and the
    // remembered Idempotency-Keys (docs/operators/runbooks/roll-back-a-release.md).
    async down(db: Kysely<unknown>) {
      for (const table of ['registration_idempotency', 'client_events', 'client_keys'])
        await db.schema.dropTable(table).execute();
      for (const column of ['rate_limit_points', 'deleted_at', 'disabled_at'])
        await db.schema.alterTable('clients').dropColumn(column).execute();
    },
  };
}

/**
 * When a client's keys were first used. A retried registration may issue a further key only while none was: after
 * that the first answer evidently arrived, and a replay of its Idempotency-Key must not take the client from the
 * key that holds it. Clients registered before this migration count as used.
 */
function keyFirstUse(dialect: Dialect): Migration {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('clients').addColumn('key_used_at', timestamp).execute();
      await sql`update clients set key_used_at = created_at`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('clients').dropColumn('key_used_at').execute();
    },
  };
}

/**
 * Usage per client, for the operator: operations per client per UTC day (one counter row per client and day,
 * added to in batches) and one row per read of a gated summary (which client read which endpoint, when). Both are
 * kept for a bounded number of days. Expand-only: two new tables, nothing existing changes.
 */
function clientUsage(dialect: Dialect): Migration {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('client_usage_days')
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        // YYYY-MM-DD (UTC): text on both dialects, so that it sorts and compares the same way.
        .addColumn('day', 'text', (col) => col.notNull())
        .addColumn('operations', dialect === 'postgres' ? 'bigint' : 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('client_usage_days_pkey', ['client_id', 'day'])
        .execute();
      await db.schema.createIndex('client_usage_days_day_idx').on('client_usage_days').columns(['day']).execute();

      await db.schema
        .createTable('summary_reads')
        .addColumn('seq', dialect === 'postgres' ? 'bigint' : 'integer', (col) =>
          dialect === 'postgres' ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
        )
        .addColumn('client_id', 'text', (col) => col.notNull().references('clients.id'))
        .addColumn('endpoint_id', 'integer', (col) => col.notNull())
        .addColumn('at', timestamp, (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('summary_reads_client_idx')
        .on('summary_reads')
        .columns(['client_id', 'seq'])
        .execute();
      await db.schema.createIndex('summary_reads_at_idx').on('summary_reads').columns(['at']).execute();
    },
    // Loses the usage counts and the summary-read audit (their indexes go with their tables).
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('summary_reads').execute();
      await db.schema.dropTable('client_usage_days').execute();
    },
  };
}

/**
 * A note on a client's events, as requests for use have on theirs: why the operator disabled or enabled it. Written
 * by the operator about the client, so erased with it (clients.ts). Expand-only: one nullable column.
 */
function clientEventNotes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('client_events').addColumn('note', 'text').execute();
    },
    // Loses the notes on disabling and enabling.
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('client_events').dropColumn('note').execute();
    },
  };
}

/**
 * When each dataset's content was first seen and last seen to change, kept across restarts, so that catalogues
 * (CKAN's metadata_created and metadata_modified, DCAT's dct:issued and dct:modified) have their dates from the first
 * request after a start. Expand-only: one new table.
 */
function datasetDates(dialect: Dialect): Migration {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('dataset_dates')
        .addColumn('code', 'text', (col) => col.primaryKey())
        .addColumn('version', 'text', (col) => col.notNull())
        .addColumn('created_at', timestamp, (col) => col.notNull())
        .addColumn('modified_at', timestamp, (col) => col.notNull())
        .execute();
    },
    // Loses the dates: they are found again, as of the next look, by the watcher.
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('dataset_dates').execute();
    },
  };
}

/**
 * The migrations in code (no folder to ship or find at run time), in the order they apply.
 *
 * Each is written expand-then-contract, so the release before it still runs on the schema it leaves: a migration
 * only adds (tables, nullable columns or columns with defaults, indexes); a removal or a rename is split into an
 * expanding migration in one release and the contracting one (dropping what no release reads any more) in a later
 * release. An older release finds the newer migrations recorded and runs on (database.ts); a rollback or an old
 * instance restarting mid-rollout never refuses to start.
 *
 * Releases before 0004 did not tolerate newer migrations ("corrupted migrations"), so every migration after the
 * first has a `down` that removes what its `up` added: `npm run migrate -- --down-to <name>` takes the store back
 * to a release that knows only the migrations up to <name> (test/e2e/migrations.test.ts rolls each back and applies it
 * again). The first has none: there is no release before it to go back to.
 */
export function accessMigrations(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: () =>
      Promise.resolve({
        '0001_request_for_use': requestForUse(dialect),
        '0002_key_life_cycle': keyLifeCycle(dialect),
        '0003_key_first_use': keyFirstUse(dialect),
        '0004_client_usage': clientUsage(dialect),
        '0005_client_event_notes': clientEventNotes(),
        '0006_dataset_dates': datasetDates(dialect),
      }),
  };
}
