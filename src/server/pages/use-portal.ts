import type { Plugin } from 'graphql-yoga';
import type { DatasetPageFacts } from '../../portal/dataset-page.js';
import type { PortalFiles } from '../../portal/serve.js';
import { isPortalPath } from '../../portal/route.js';

/**
 * The portal at /portal/: its serving module is imported on the first request for it, and its files are read as
 * they are asked for (portal/serve.ts), so the portal costs the GraphQL path one string comparison per request and
 * an idle server nothing.
 */
export function usePortal(facts: DatasetPageFacts): Plugin {
  let files: Promise<PortalFiles> | undefined;
  return {
    onRequest(payload) {
      const { pathname } = payload.url;
      if (!isPortalPath(pathname)) return;
      if (files === undefined) {
        const loading = import('../../portal/serve.js').then(({ createPortalFiles }) => createPortalFiles(facts));
        // A failure answers the requests that awaited it (500, by the error boundary); the next request tries again.
        loading.catch(() => files === loading && (files = undefined));
        files = loading;
      }
      return files
        .then((portal) => portal.answer(payload.request, pathname))
        .then((response) => payload.endResponse(response));
    },
  };
}
