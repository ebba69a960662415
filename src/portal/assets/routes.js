// The portal's addresses: path-style, under /portal/, so a page can be bookmarked, shared and linked to.

/** Where the server serves the portal. */
export const PORTAL = '/portal';

/** The address of a portal page, e.g. portalPath('/developer'). @param {string} path */
export function portalPath(path) {
  return `${PORTAL}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * A dataset's page, with its view (filters, chart) in the query string when given.
 * @param {string} code
 * @param {URLSearchParams} [view]
 */
export function datasetPath(code, view) {
  const search = view === undefined ? '' : view.toString();
  return portalPath(`/datasets/${encodeURIComponent(code)}${search === '' ? '' : `?${search}`}`);
}
