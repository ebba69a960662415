import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READY = /GraphQL server ready at (http:\/\/[^\s"]+)/;

/** `npm start`'s entry point as a real child process, with its own environment only. */
export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** The GraphQL endpoint it announced, e.g. http://127.0.0.1:41234/graphql. */
  readonly endpoint: string;
  output(): string;
  /** Resolves once the output contains `text`. */
  outputContains(text: string): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function runMain(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    // Only PATH and what the test sets: the developer's own variables must not leak into the run.
    env: {
      PATH: process.env['PATH'] ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-main-')), 'main.db')}`,
      ...env,
    },
  });
}

export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = runMain(env);
  let output = '';
  const awaited = new Set<{ text: string; resolve: () => void }>();
  const endpoint = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = READY.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
      for (const waiter of awaited) {
        if (!output.includes(waiter.text)) continue;
        awaited.delete(waiter);
        waiter.resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before it was ready:\n${output}`)));
  });
  return {
    child,
    endpoint,
    output: () => output,
    outputContains: (text) =>
      output.includes(text) ? Promise.resolve() : new Promise((resolve) => awaited.add({ text, resolve })),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

export async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = runMain(env);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}
