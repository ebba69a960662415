import type { YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import { createLoaders, type Loaders } from './loaders.js';
import { requestIdOf } from './plugins/use-request-id.js';
import type { UpstreamClient } from './upstream/client.js';

/** What every resolver receives: the per-request loaders and the facts about this request. */
export interface Context {
  readonly requestId: string;
  readonly loaders: Loaders;
  /** Builds the upstream URLs shown as `apiUrl`; resolvers never call the upstream through it. */
  readonly upstreamUrls: Pick<UpstreamClient, 'datasetUrl' | 'summaryEndpointUrl'>;
  readonly logger: Logger;
}

export interface ContextDependencies {
  readonly upstream: UpstreamClient;
  readonly logger: Logger;
}

/** The yoga context factory: runs once per GraphQL request, so loaders never outlive their request. */
export function createContextFactory(deps: ContextDependencies) {
  return (initial: YogaInitialContext): Context => {
    const requestId = requestIdOf(initial.request);
    return {
      requestId,
      loaders: createLoaders(deps.upstream),
      upstreamUrls: deps.upstream,
      logger: deps.logger.child({ requestId }),
    };
  };
}
