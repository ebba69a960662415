/**
 * What the in-process stack (stack.ts) takes from the server: built into the run's production bundle as one more
 * entry (transpiled-source.ts), so the suites of the `build` project run the bundle's code, with its resolution of
 * every package, and the others run `src/`. Everything that hands objects to the server comes from here, so that no
 * class of the source meets a class of the bundle.
 */
export { openAccessService } from '../../src/access/service.js';
export { connectionsPerPeer, loadConfig } from '../../src/config.js';
export { assemble } from '../../src/server/assemble.js';
export { createHttpServer } from '../../src/server/transport/http-server.js';
export { createLogger } from '../../src/logger.js';
export { GRAPHQL_PATH } from '../../src/server/app.js';
