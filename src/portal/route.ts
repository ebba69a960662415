/** Where the portal is served; the server checks every request against it without loading the portal. */
export const PORTAL_PATH = '/portal';

/** Whether a request path is the portal's. */
export function isPortalPath(pathname: string): boolean {
  return pathname === PORTAL_PATH || pathname.startsWith(`${PORTAL_PATH}/`);
}
