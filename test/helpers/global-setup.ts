import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRANSPILED_SOURCE_VARIABLE, transpileSource } from './transpiled-source.js';

/** Where each live child's process group is written down by its spawner (test/helpers/child-process.ts). */
export const CHILDREN_DIRECTORY_VARIABLE = 'TEG_TEST_CHILDREN_DIR';

/**
 * Once per run (vitest calls it for each project: the second call finds the first's work and leaves it be): the
 * source transpiled for the processes the suites spawn (transpiled-source.ts). vitest's own teardown: whatever child
 * process a test started and nothing ended (a worker killed mid-test) is ended here, by the process group its
 * spawner wrote down (test/helpers/child-process.ts).
 */
export default async function setup(): Promise<() => void> {
  if (process.env[TRANSPILED_SOURCE_VARIABLE] !== undefined) return () => undefined;
  const directory = mkdtempSync(join(tmpdir(), 'teg-test-children-'));
  process.env[CHILDREN_DIRECTORY_VARIABLE] = directory;
  const transpiled = await transpileSource();
  process.env[TRANSPILED_SOURCE_VARIABLE] = transpiled.directory;
  return () => {
    for (const pid of readdirSync(directory)) {
      try {
        process.kill(-Number(pid), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(directory, { recursive: true, force: true });
    transpiled.remove();
    delete process.env[TRANSPILED_SOURCE_VARIABLE];
  };
}
