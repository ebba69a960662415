import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as ServerKitEntry from './server-kit-entry.js';
import { SERVER_KIT_BUNDLE, transpiledCheckout } from './transpiled-source.js';

/** The server's parts an in-process stack uses (server-kit-entry.ts). */
export type ServerKit = typeof ServerKitEntry;

/** Set by the vitest project whose suites run on the production build (vitest.config.ts). */
export const SERVER_BUILD_VARIABLE = 'TEG_TEST_SERVER_BUILD';

/** Whether this worker's stacks run the production build (the `build` project) rather than `src/`. */
export const RUNS_THE_BUILD = process.env[SERVER_BUILD_VARIABLE] === '1';

/**
 * The server's parts from the run's production bundle in the `build` project, from `src/` elsewhere. The bundle is
 * imported by Node itself (vitest.config.ts leaves it external), as `node dist/main.js` would load it.
 */
export async function loadServerKit(): Promise<ServerKit> {
  if (!RUNS_THE_BUILD) return import('./server-kit-entry.js');
  const url = pathToFileURL(join(transpiledCheckout(), 'dist', SERVER_KIT_BUNDLE)).href;
  return (await import(/* @vite-ignore */ url)) as ServerKit;
}
