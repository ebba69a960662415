import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { describeDatabaseUrl } from './access/database.js';
import { openAccessService } from './access/service.js';
import type { AccessService } from './access/model.js';
import { createApp, GRAPHQL_PATH } from './app.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startSimulator, type Simulator } from './simulator/server.js';
import { createUpstreamClient } from './upstream/client.js';

// How long a shutdown waits for in-flight requests before it closes their connections.
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    process.stderr.write(`thai-edu-graphql: invalid configuration\n${loaded.problems.map((p) => `  - ${p}\n`).join('')}`);
    process.exit(1);
  }
  const { config } = loaded;
  const logger = createLogger(config.logLevel);

  let simulator: Simulator | undefined;
  let { baseUrl, apiKey } = config.upstream;
  if (baseUrl === undefined) {
    // No real upstream configured: serve the embedded simulator so `npm start` works anywhere.
    apiKey ??= randomBytes(24).toString('base64url');
    simulator = await startSimulator({ host: '127.0.0.1', port: 0, apiKey, apiKeyHeader: config.upstream.apiKeyHeader });
    baseUrl = simulator.url;
    logger.info(
      { upstream: baseUrl },
      'UPSTREAM_BASE_URL is not set: started the embedded simulated upstream (deterministic sample data, not real statistics)',
    );
  }
  const upstream = createUpstreamClient({
    ...config.upstream,
    baseUrl,
    apiKey,
    logger: logger.child({ component: 'upstream' }),
  });
  let access: AccessService;
  try {
    access = await openAccessService({ databaseUrl: config.databaseUrl, adminToken: config.adminToken });
  } catch (error) {
    logger.fatal({ err: error, store: describeDatabaseUrl(config.databaseUrl) }, 'cannot open the request-for-use store');
    await Promise.allSettled([upstream.close(), simulator?.close()]);
    process.exit(1);
  }
  logger.info(
    { store: describeDatabaseUrl(config.databaseUrl), operator: config.adminToken === undefined ? 'disabled (no ADMIN_TOKEN)' : 'enabled' },
    'request-for-use store ready',
  );
  const app = createApp({ upstream, access, logger });

  const server = createServer(app.requestListener);
  server.listen(config.port, config.host);
  try {
    await once(server, 'listening');
  } catch (error) {
    logger.fatal({ err: error }, `cannot listen on ${config.host}:${config.port}`);
    await Promise.allSettled([upstream.close(), simulator?.close(), access.close()]);
    process.exit(1);
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  logger.info({ upstream: upstream.baseUrl }, `GraphQL server ready at http://${host}:${port}${GRAPHQL_PATH}`);

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    grace.unref();
    await closed;
    await Promise.allSettled([upstream.close(), simulator?.close(), access.close()]);
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}

await main();
