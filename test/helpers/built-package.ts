import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// esbuild takes a few seconds even on a loaded machine; the bound is for a machine far slower than that.
const BUILD_TIMEOUT_MS = 60_000;

function newestModification(directory: string): number {
  return Math.max(
    ...readdirSync(directory, { withFileTypes: true }).map((entry) => {
      const path = join(directory, entry.name);
      return entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs;
    }),
  );
}

const modified = (path: string): number => statSync(join(ROOT, path)).mtimeMs;

/**
 * `npm run build`, unless dist/ is already newer than every source file, the build script and package.json (then
 * it is what a build would give).
 */
export async function ensureBuilt(): Promise<void> {
  let built = 0;
  try {
    built = statSync(join(ROOT, 'dist/main.js')).mtimeMs;
  } catch {
    // Never built.
  }
  // The build script reads its externals from package.json: a change to either changes the build too.
  const inputs = [newestModification(join(ROOT, 'src')), ...['scripts/build.ts', 'package.json'].map(modified)];
  if (built > Math.max(...inputs)) return;
  await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, timeout: BUILD_TIMEOUT_MS });
}

/**
 * The package as it ships: package.json and what its `files` name, copied to a new directory, with the
 * dependencies beside it (a link to this checkout's node_modules). Returns that directory.
 */
export function copyPackage(): string {
  const target = mkdtempSync(join(tmpdir(), 'teg-package-'));
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  for (const path of ['package.json', ...manifest.files])
    cpSync(join(ROOT, path), join(target, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(target, 'node_modules'), 'dir');
  return target;
}
