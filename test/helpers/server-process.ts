import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode, type SpawnedNode } from './child-process.js';

const READY = /GraphQL server ready at (http:\/\/[^\s"]+)/;

/** `npm start`'s entry point as a real child process, with its own environment only. */
export interface ServerProcess {
  readonly child: SpawnedNode['child'];
  /** The GraphQL endpoint it announced, e.g. http://127.0.0.1:41234/graphql. */
  readonly endpoint: string;
  output(): string;
  /** Resolves once the output contains `text`. */
  outputContains(text: string): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The server process with `env`: the build's dist/main.js, or with `fromSource` src/main.ts as `npm start` runs it. */
export function runMain(
  env: Record<string, string>,
  { fromSource = false }: { fromSource?: boolean } = {},
): SpawnedNode {
  return spawnNode(
    'src/main.ts',
    [],
    {
      // Only PATH and what the test sets: the developer's own variables must not leak into the run.
      PATH: process.env['PATH'] ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-main-')), 'main.db')}`,
      // Suites stop their servers often; the shutdown suite sets its own window.
      SHUTDOWN_READINESS_DELAY_S: '0',
      ...env,
    },
    { fromSource },
  );
}

export async function startServerProcess(
  env: Record<string, string> = {},
  options: { fromSource?: boolean } = {},
): Promise<ServerProcess> {
  const server = runMain(env, options);
  const { child } = server;
  const awaited = new Set<{ text: string; resolve: () => void }>();
  const endpoint = await new Promise<string>((resolve, reject) => {
    const onData = (): void => {
      const match = READY.exec(server.output());
      if (match?.[1] !== undefined) resolve(match[1]);
      for (const waiter of awaited) {
        if (!server.output().includes(waiter.text)) continue;
        awaited.delete(waiter);
        waiter.resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void server
      .exited()
      .then((code) => reject(new Error(`server exited with ${code} before it was ready:\n${server.output()}`)));
  });
  return {
    child,
    endpoint,
    output: () => server.output(),
    outputContains: (text) =>
      server.output().includes(text) ? Promise.resolve() : new Promise((resolve) => awaited.add({ text, resolve })),
    stop: (signal) => server.stop(signal),
  };
}

export async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const server = runMain(env);
  const code = await server.exited();
  return { code, output: server.output() };
}
