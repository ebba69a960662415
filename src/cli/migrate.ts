/**
 * `npm run migrate` (in the build: `node dist/cli/migrate.js`): applies the store's migrations and exits, so a
 * fleet can run with MIGRATE_ON_START=false and a runtime role without DDL rights. It reads the server's
 * configuration (the same checks) and writes JSON log lines like the server's; exit status 0 when the schema is
 * up to date, 1 otherwise.
 */
import { openDatabase } from '../access/database.js';
import { describeDatabaseUrl } from '../access/service.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../server/logger.js';

async function migrate(): Promise<number> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    process.stderr.write(
      `migrate: invalid configuration\n${loaded.problems.map((problem) => `  - ${problem}\n`).join('')}`,
    );
    return 1;
  }
  const { databaseUrl, database, logLevel } = loaded.config;
  const logger = createLogger(logLevel);
  const store = describeDatabaseUrl(databaseUrl);
  try {
    const { db, migrations } = await openDatabase({ databaseUrl, postgres: database, migrate: true });
    await db.destroy();
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
    logger.fatal({ store, err: error }, 'store migration failed');
    return 1;
  }
}

process.exitCode = await migrate();
