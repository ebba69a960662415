import type { Route } from '../../http/route.js';
import type { DatasetPageFacts } from '../../portal/dataset-page.js';
import type { PortalFiles } from '../../portal/serve.js';
import { PORTAL_PATH } from '../../portal/route.js';

/**
 * The portal at /portal/: its serving module is imported on the first request for it, and its files are read as
 * they are asked for (portal/serve.ts), so the portal costs the GraphQL path one string comparison per request and
 * an idle server nothing.
 */
export function portalRoute(facts: DatasetPageFacts): Route {
  let files: Promise<PortalFiles> | undefined;
  return {
    name: 'portal',
    // Files read from memory once read: an asset costs what a stored answer does, and its bytes.
    price: 'stored',
    paths: [PORTAL_PATH, `${PORTAL_PATH}/*`],
    async handle(request, state) {
      if (files === undefined) {
        const loading = import('../../portal/serve.js').then(({ createPortalFiles }) => createPortalFiles(facts));
        // A failure answers the requests that awaited it (500, by the front door); the next request tries again.
        loading.catch(() => files === loading && (files = undefined));
        files = loading;
      }
      return (await files).answer(request, state.url.pathname);
    },
  };
}
