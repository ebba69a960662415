import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';
import { METRICS_PATH } from './use-metrics.js';
import { HEALTH_PATH, READY_PATH, readinessAnswer, type Readiness } from './use-readiness.js';

/**
 * The operators' listener (ADMIN_LISTEN_PORT), as Apollo Router serves health and metrics on ports of their own:
 * `GET /metrics`, `/health` and `/ready`, and nothing else. A network policy or a Service can then keep /metrics
 * from the public (it leaves PORT), and Prometheus and probes reach the instance however busy its public port is.
 * /health and /ready stay on PORT too, where existing probes point. Plain node:http: none of the public pipeline's
 * limits, caches or GraphQL apply to three fixed pages.
 */
export function createAdminListener(deps: { metrics: Metrics; readiness: Readiness; logger: Logger }): Server {
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
  return createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      deps.logger.error({ err: error, path: request.url }, 'the admin listener failed to answer');
      if (!response.headersSent) answer(response, 500, {});
      else response.destroy();
    });
  });
}
