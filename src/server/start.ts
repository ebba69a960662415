import { once } from 'node:events';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { DATASET_CODES } from '../catalogue.js';
import { connectionsPerPeer, loadConfig } from '../config.js';
import { GRAPHQL_PATH } from './app.js';
import { createAdminListener } from './observability/admin-listener.js';
import { assemble, AssembleError } from './assemble.js';
import { createHttpServer } from './transport/http-server.js';
import { buildInfo } from './observability/build-info.js';
import { ConnectionDrain } from './transport/connection-drain.js';
import { collectWhenQuiet } from './idle-collection.js';
import { InFlightRequests } from './transport/in-flight-requests.js';
import { createLogger } from '../logger.js';
import { releaseYoungGeneration } from './young-generation.js';

/** The server process: configuration → assemble → listen → shutdown on SIGTERM or SIGINT. */
export async function startServer(): Promise<void> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    // A JSON line like every other, so a log pipeline that parses them keeps this one too.
    createLogger(loaded.logLevel).fatal({ problems: loaded.problems }, 'invalid configuration');
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
  const inFlight = new InFlightRequests();
  listener.prependListener('request', inFlight.track);
  const idleCollection = collectWhenQuiet(listener, () => inFlight.list().length);
  const drain = new ConnectionDrain(listener);
  /** Listens, or logs why it cannot and exits 1; resolves with the origin it listens at. */
  const listenOrExit = async (target: Server, port: number, host: string): Promise<string> => {
    target.listen(port, host);
    await once(target, 'listening').catch(async (error: unknown) => {
      logger.fatal({ err: error }, `cannot listen on ${host}:${port}`);
      await server.close();
      process.exit(1);
    });
    const address = target.address();
    const bound = typeof address === 'object' && address !== null ? address.port : port;
    return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  };
  // Before the public listener, so that whatever watches for the ready line finds the operators' one already up.
  let adminListener: Server | undefined;
  if (config.admin.port !== undefined) {
    adminListener = createAdminListener(server, config.connections);
    const origin = await listenOrExit(adminListener, config.admin.port, config.admin.host);
    logger.info(`operators' listener ready at ${origin} (/metrics, /health, /ready)`);
  }
  const origin = await listenOrExit(listener, config.port, config.host);
  logger.info(
    { upstream: server.upstream.baseUrl, ...buildInfo(), node: process.version },
    `GraphQL server ready at ${origin}${GRAPHQL_PATH}`,
  );
  releaseYoungGeneration();
  if (config.cache.warm) void server.source.warm(DATASET_CODES);

  const { graceS, readinessDelayS } = config.shutdown;
  let stopping = false;
  /**
   * SIGTERM (or SIGINT): /ready fails at once while requests are still served, so load balancers stop routing here
   * (a Kubernetes rollout needs that window), and every answer says `Connection: close`, so kept-alive clients
   * reconnect elsewhere meanwhile; the watcher's lease is handed over at once; then the listener closes, streams
   * complete, and in-flight requests drain. The grace bounds the whole of it whatever the state: its timer keeps the
   * process alive (not unref'd) and exits, listing what was still running.
   */
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const deadline = setTimeout(() => {
      logger.error(
        { graceS, cut: inFlight.list() },
        `shutdown grace (SHUTDOWN_GRACE_S=${graceS}) ran out: exiting with the requests listed still running`,
      );
      listener.closeAllConnections();
      adminListener?.closeAllConnections();
      process.exit(1);
    }, graceS * 1_000);
    logger.info({ signal, graceS, readinessDelayS }, 'shutting down: /ready answers 503, still serving');
    idleCollection.stop();
    drain.begin();
    await server.beginShutdown();
    await delay(readinessDelayS * 1_000);
    logger.info(
      { inFlight: inFlight.list().length },
      'shutting down: no new connections, finishing in-flight requests',
    );
    const closed = drain.close();
    // Subscription streams never go idle by themselves: they complete now, and their connections close as they end.
    server.live.completeSubscriptions();
    await closed;
    // Last: it answers /ready (503) and /metrics to the end of the drain.
    adminListener?.closeAllConnections();
    adminListener?.close();
    await server.close();
    clearTimeout(deadline);
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}
