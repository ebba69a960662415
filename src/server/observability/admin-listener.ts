import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ConnectionLimits } from '../../config.js';
import { connectionTimeouts, guardConnections } from '../transport/http-server.js';
import type { Metrics } from './metrics.js';
import { METRICS_PATH } from './use-metrics.js';
import { HEALTH_PATH, READY_PATH, readinessAnswer, type Readiness } from './use-readiness.js';

/**
 * The operators' listener (ADMIN_LISTEN_PORT), as Apollo Router serves health and metrics on ports of their own:
 * `GET /metrics`, `/health` and `/ready`, and nothing else. A network policy or a Service can then keep /metrics
 * from the public (it leaves PORT), and Prometheus and probes reach the instance however busy its public port is.
 * /health and /ready stay on PORT too, where existing probes point. Plain node:http: none of the public pipeline's
 * limits, caches or GraphQL apply to three fixed pages, but its connections are bounded as the public port's are
 * (transport/http-server.ts `guardConnections`): the same header, request and keep-alive time-outs, the same
 * first-headers time-out, and fewer connections (ADMIN_MAX_CONNECTIONS, ADMIN_MAX_CONNECTIONS_PER_PEER), so idle
 * sockets held open here cannot spend the process's file descriptors the public port needs.
 */
export function createAdminListener(
  deps: { metrics: Metrics; readiness: Readiness; logger: Logger },
  limits: ConnectionLimits,
): Server {
  const answer = (response: ServerResponse, status: number, headers: Record<string, string>, body = ''): void => {
    response.writeHead(status, { 'content-length': Buffer.byteLength(body), ...headers });
    response.end(response.req.method === 'HEAD' ? undefined : body);
  };
  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://admin.invalid').pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      answer(response, 405, { allow: 'GET, HEAD' });
      return;
    }
    if (path === HEALTH_PATH) answer(response, 200, { 'cache-control': 'no-store' });
    else if (path === READY_PATH) {
      const { status, headers, body } = readinessAnswer(await deps.readiness.report());
      answer(response, status, headers, body);
    } else if (path === METRICS_PATH) {
      const { registry } = deps.metrics;
      answer(
        response,
        200,
        { 'content-type': registry.contentType, 'cache-control': 'no-store' },
        await registry.metrics(),
      );
    } else answer(response, 404, {});
  };
  const server = createServer(connectionTimeouts(limits), (request, response) => {
    route(request, response).catch((error: unknown) => {
      deps.logger.error({ err: error, path: request.url }, 'the admin listener failed to answer');
      if (!response.headersSent) answer(response, 500, {});
      else response.destroy();
    });
  });
  guardConnections(server, {
    maxConnections: Math.min(limits.maxConnections > 0 ? limits.maxConnections : Infinity, ADMIN_MAX_CONNECTIONS),
    maxConnectionsPerPeer: ADMIN_MAX_CONNECTIONS_PER_PEER,
    firstHeadersTimeoutMs: limits.firstHeadersTimeoutMs,
  });
  return server;
}

/**
 * Connections of the operators' listener at most, and from one address: its callers are a few scrapers and probes
 * (Prometheus keeps one alive, a kubelet opens one per probe), so these leave room for them and bound what anyone
 * else who reaches the port can hold. Whatever TRUST_PROXY says: nothing proxies this port.
 */
export const ADMIN_MAX_CONNECTIONS = 64;
export const ADMIN_MAX_CONNECTIONS_PER_PEER = 16;
