/**
 * `npm run migrate` (in the build: `node dist/cli/migrate.js`): applies the store's migrations and exits, so a
 * fleet can run with MIGRATE_ON_START=false and a runtime role without DDL rights. `--down-to <name>` instead
 * undoes every migration applied after <name>, newest first, so that an older release, which knows only the
 * migrations up to <name>, starts on the store (docs/operators/runbooks/roll-back-a-release.md). It reads the
 * store's settings only (loadStoreConfig: no upstream is needed to migrate) and writes JSON log lines like the
 * server's; exit status 0 when the schema is where it was asked to be, 1 otherwise, 2 for arguments it cannot use.
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../access/database.js';
import { describeDatabaseUrl } from '../access/service.js';
import { loadStoreConfig } from '../config.js';
import { createLogger } from '../logger.js';

const USAGE = 'usage: node dist/cli/migrate.js [--down-to <migration name>]\n';

async function migrate(argv: readonly string[]): Promise<number> {
  let downTo: string | undefined;
  try {
    downTo = parseArgs({ args: [...argv], options: { 'down-to': { type: 'string' } } }).values['down-to'];
  } catch (error) {
    process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const loaded = loadStoreConfig(process.env);
  if (!loaded.ok) {
    createLogger(loaded.logLevel).fatal({ problems: loaded.problems }, 'invalid configuration');
    return 1;
  }
  const { databaseUrl, database, logLevel } = loaded.config;
  const logger = createLogger(logLevel);
  for (const warning of loaded.warnings) logger.warn({ setting: warning.split(':')[0] }, warning);
  const store = describeDatabaseUrl(databaseUrl);
  try {
    const { db, migrations } = await openDatabase({
      databaseUrl,
      postgres: database,
      migrate: downTo === undefined ? true : { downTo },
    });
    await db.destroy();
    if (downTo !== undefined) {
      logger.info(
        { store, rolledBack: migrations.rolledBack, to: downTo },
        migrations.rolledBack.length === 0 ? `store schema already at ${downTo}` : `store rolled back to ${downTo}`,
      );
      return 0;
    }
    if (migrations.unknown.length > 0)
      logger.warn(
        { store, migrations: migrations.unknown },
        "the store has a newer release's migrations; left as they are",
      );
    logger.info(
      { store, applied: migrations.applied },
      migrations.applied.length === 0 ? 'store schema already up to date' : 'store migrations applied',
    );
    return 0;
  } catch (error) {
    logger.fatal({ store, err: error }, downTo === undefined ? 'store migration failed' : 'store rollback failed');
    return 1;
  }
}

process.exitCode = await migrate(process.argv.slice(2));
