import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { AccessService } from './access/model.js';
import { createContextFactory, type Context } from './context.js';
import { maskError } from './errors.js';
import { GRAPHIQL_DEFAULT_QUERY, GRAPHIQL_TABS } from './graphiql-examples.js';
import { yogaLoggerFrom } from './logger.js';
import { useFreshness } from './plugins/use-freshness.js';
import { useOperationLog } from './plugins/use-operation-log.js';
import { useReadiness, type ReadinessCheck } from './plugins/use-readiness.js';
import { useRequestId } from './plugins/use-request-id.js';
import { schema } from './schema.js';
import { ShapeWatch } from './shape-watch.js';
import type { UpstreamClient } from './upstream/client.js';
import type { UpstreamSource } from './upstream/source.js';

export interface AppDependencies {
  /** Builds `apiUrl`s; payloads are read through `source`, never from the client directly. */
  readonly upstream: UpstreamClient;
  /** Upstream payloads through the cross-request cache. */
  readonly source: UpstreamSource;
  /** How long payloads stay fresh and may be served stale: the HTTP caching headers follow them. */
  readonly cachePolicy: { readonly ttlS: number; readonly swrS: number };
  readonly access: AccessService;
  readonly logger: Logger;
  /** Checks for /ready besides the store's own, which is always there. */
  readonly readinessChecks?: readonly ReadinessCheck[];
}

export type App = YogaServerInstance<Record<string, unknown>, Context>;

export const GRAPHQL_PATH = '/graphql';

/**
 * The GraphQL server as a fetch handler: no socket, no side effects, so tests call `app.fetch(...)` and
 * main.ts hands it to node:http.
 */
export function createApp(deps: AppDependencies): App {
  return createYoga<Record<string, unknown>, Context>({
    schema,
    context: createContextFactory({ ...deps, shapes: new ShapeWatch(deps.logger) }),
    graphqlEndpoint: GRAPHQL_PATH,
    healthCheckEndpoint: '/health',
    landingPage: false,
    logging: yogaLoggerFrom(deps.logger),
    maskedErrors: { maskError },
    // GraphiQL's scripts and styles come from our own server, so it works with no internet.
    renderGraphiQL,
    graphiql: {
      title: 'thai-edu-graphql: สถิติการศึกษา',
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
      defaultTabs: GRAPHIQL_TABS,
    },
    plugins: [
      useRequestId(),
      useReadiness([
        { name: 'store', check: () => deps.access.ping().then(() => true) },
        {
          // An open breaker degrades answers (stale or UPSTREAM_UNAVAILABLE) but does not stop this instance
          // from serving, so it is reported without failing the check.
          name: 'upstream',
          check: () => Promise.resolve(true),
          describe: () => ({ breaker: deps.source.breakerState() }),
        },
        ...(deps.readinessChecks ?? []),
      ]),
      useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf'] }),
      useOperationLog(),
      useFreshness({ catalogueMaxAgeS: deps.cachePolicy.ttlS, staleWhileRevalidateS: deps.cachePolicy.swrS }),
    ],
  });
}
