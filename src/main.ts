import { once } from 'node:events';
import { DATASET_CODES } from './catalogue.js';
import { connectionsPerPeer, loadConfig } from './config.js';
import { GRAPHQL_PATH } from './server/app.js';
import { assemble, AssembleError } from './server/assemble.js';
import { createHttpServer } from './server/http-server.js';
import { buildInfo } from './server/build-info.js';
import { createLogger } from './server/logger.js';

// How long a shutdown waits for in-flight requests before it closes their connections.
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    process.stderr.write(
      `thai-edu-graphql: invalid configuration\n${loaded.problems.map((p) => `  - ${p}\n`).join('')}`,
    );
    process.exit(1);
  }
  const { config } = loaded;
  const logger = createLogger(config.logLevel);
  for (const warning of loaded.warnings) logger.warn({ setting: warning.split(':')[0] }, warning);
  const server = await assemble(config, { logger }).catch((error: unknown) => {
    if (error instanceof AssembleError) logger.fatal({ ...error.facts, err: error.cause }, error.message);
    else logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  });

  const listener = createHttpServer(
    server.app,
    { ...config.connections, maxConnectionsPerPeer: connectionsPerPeer(config) },
    server.metrics,
  );
  listener.listen(config.port, config.host);
  await once(listener, 'listening').catch(async (error: unknown) => {
    logger.fatal({ err: error }, `cannot listen on ${config.host}:${config.port}`);
    await server.close();
    process.exit(1);
  });
  const address = listener.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  logger.info(
    { upstream: server.upstream.baseUrl, ...buildInfo(), node: process.version },
    `GraphQL server ready at http://${host}:${port}${GRAPHQL_PATH}`,
  );
  if (config.cache.warm) void server.source.warm(DATASET_CODES);

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
    // Subscription streams never go idle by themselves: they complete now, and their connections close as they end.
    server.live.completeSubscriptions();
    listener.closeIdleConnections();
    const grace = setTimeout(() => listener.closeAllConnections(), SHUTDOWN_GRACE_MS);
    grace.unref();
    await closed;
    await server.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}

await main();
