import { cpSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_EXTERNALS, SERVER_KIT_BUNDLE, transpiledCheckout } from './transpiled-source.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the run's production build left for Node to load: package names and Node's own modules. */
export function buildExternals(): string[] {
  return JSON.parse(readFileSync(join(transpiledCheckout(), BUILD_EXTERNALS), 'utf8')) as string[];
}

/**
 * The package as it ships: package.json and what its `files` name (dist/ being the run's production build of this
 * source, made by the same function as `npm run build`), copied to a new directory, with the dependencies beside it
 * (a link to this checkout's node_modules). Returns that directory.
 */
export function copyPackage(): string {
  const built = transpiledCheckout();
  const target = mkdtempSync(join(tmpdir(), 'teg-package-'));
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  for (const path of ['package.json', ...manifest.files])
    cpSync(join(built, path), join(target, path), {
      recursive: true,
      dereference: true,
      // The suites' own entry into the bundle is not part of what ships.
      filter: (source) => !source.startsWith(join(built, 'dist', dirname(SERVER_KIT_BUNDLE))),
    });
  symlinkSync(join(ROOT, 'node_modules'), join(target, 'node_modules'), 'dir');
  return target;
}
