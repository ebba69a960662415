import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../package-files.js';

/** What this build is: shown in the start line and as the `build_info` metric. */
export interface BuildInfo {
  /** package.json's version. */
  readonly version: string;
  /** The source commit (a hex hash), or `unknown` when the build does not say. */
  readonly commit: string;
}

const HASH = /^[0-9a-f]{7,64}$/;

let known: BuildInfo | undefined;

/**
 * The version and commit, read once. The commit comes from `dist/build-info.json` when the build wrote one (the
 * image does: deploy/Dockerfile, from its SOURCE_COMMIT build argument, since its context has no .git), else from
 * the git checkout the package runs from, else it is `unknown`. Files only: no git process is started.
 */
export function buildInfo(): BuildInfo {
  known ??= {
    version: readVersion(),
    commit: commitFromBuild() ?? commitFromCheckout() ?? 'unknown',
  };
  return known;
}

function readVersion(): string {
  const manifest = readJson(join(PACKAGE_ROOT, 'package.json')) as { version?: unknown } | undefined;
  return typeof manifest?.version === 'string' ? manifest.version : 'unknown';
}

function commitFromBuild(): string | undefined {
  const written = readJson(join(PACKAGE_ROOT, 'dist', 'build-info.json')) as { commit?: unknown } | undefined;
  return typeof written?.commit === 'string' && HASH.test(written.commit) ? written.commit : undefined;
}

/** HEAD of the checkout at the package root: `.git` is a directory, or (a worktree) a file naming one. */
function commitFromCheckout(): string | undefined {
  const dotGit = join(PACKAGE_ROOT, '.git');
  const gitDir = isDirectory(dotGit)
    ? dotGit
    : /^gitdir: (.+)$/m
        .exec(readText(dotGit) ?? '')?.[1]
        ?.trim()
        .replace(/^(?!\/)/, `${PACKAGE_ROOT}/`);
  if (gitDir === undefined) return undefined;
  const head = readText(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return undefined;
  if (HASH.test(head)) return head;
  const ref = /^ref: (\S+)$/.exec(head)?.[1];
  if (ref === undefined) return undefined;
  // A worktree keeps its HEAD and shares the refs of the repository it belongs to.
  const common = readText(join(gitDir, 'commondir'))?.trim();
  const refsDir = common === undefined ? gitDir : resolve(gitDir, common);
  const loose = readText(join(refsDir, ref))?.trim();
  if (loose !== undefined && HASH.test(loose)) return loose;
  const packed = readText(join(refsDir, 'packed-refs'))
    ?.split('\n')
    .find((line) => line.endsWith(` ${ref}`))
    ?.split(' ')[0];
  return packed !== undefined && HASH.test(packed) ? packed : undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readJson(path: string): unknown {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
