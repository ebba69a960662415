import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { CHILDREN_DIRECTORY_VARIABLE } from './global-setup.js';
import { EXIT_WITH_PARENT, runnableEntry, transpiledCheckout } from './transpiled-source.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const live = new Set<ChildProcess>();

function endGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function endAll(): void {
  for (const child of live) endGroup(child);
}

process.once('exit', endAll);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    endAll();
    // Alone, this listener would keep the process from ending on the signal, as it does by default.
    if (process.listenerCount(signal) === 1) process.exit(1);
  });
}

export interface SpawnedNode {
  readonly child: ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream };
  /** Everything it wrote to stdout and stderr so far, interleaved. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Resolves with its exit code (null when a signal ended it). */
  exited(): Promise<number | null>;
  /** Sends `signal` (SIGTERM unless told) and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs a TypeScript entry point of this repository (`src/main.ts`, `src/cli/admin.ts`…) as a child process, from the
 * run's transpiled copy of the source (transpiled-source.ts: the production build for the programs it holds, the
 * code tsx would run for the rest, without tsx's loader either way), in this checkout as its working directory. It
 * cannot outlive its test: it leads a process group of its own, which is killed when the test that started it
 * finishes (passed, failed or timed out), when this process exits or is signalled, and, should this process die
 * without a word, by the child itself (exit-with-parent.ts). Outside a test (in `beforeAll`) the caller stops it in
 * `afterAll`; the other guards still hold. `fromSource` runs a program of the build from its transpiled source
 * instead, as `npm start` (tsx) does.
 */
export function spawnNode(
  entry: string,
  args: readonly string[],
  env: Record<string, string>,
  { fromSource = false }: { fromSource?: boolean } = {},
): SpawnedNode {
  const transpiled = transpiledCheckout();
  const guard = runnableEntry(transpiled, `${EXIT_WITH_PARENT}.ts`);
  return spawnTracked(['--import', guard, runnableEntry(transpiled, entry, fromSource), ...args], {
    cwd: ROOT,
    env,
  });
}

/**
 * Runs a built script exactly as an operator would (`node dist/main.js` in `cwd`), with no loader: no tsx, and not
 * the exit-with-parent guard (which is TypeScript); the other guards of spawnNode hold.
 */
export function spawnBuilt(
  script: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string> },
): SpawnedNode {
  return spawnTracked([script, ...args], options);
}

function spawnTracked(argv: readonly string[], options: { cwd: string; env: Record<string, string> }): SpawnedNode {
  const child = spawn(process.execPath, argv, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  }) as SpawnedNode['child'];
  live.add(child);
  const registry = process.env[CHILDREN_DIRECTORY_VARIABLE];
  const record = registry === undefined || child.pid === undefined ? undefined : join(registry, String(child.pid));
  if (record !== undefined) {
    mkdirSync(registry as string, { recursive: true });
    writeFileSync(record, '');
  }
  const exit = once(child, 'exit').then(([code]) => {
    live.delete(child);
    if (record !== undefined) rmSync(record, { force: true });
    return code as number | null;
  });
  // The IPC channel is only the child's lifeline to this process: it must not keep this process alive either.
  child.channel?.unref();
  child.unref();
  try {
    onTestFinished(() => endGroup(child));
  } catch {
    // Not inside a test: the suite's afterAll stops it.
  }

  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    output += chunk.toString('utf8');
  });
  return {
    child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: () => exit,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exit;
    },
  };
}
