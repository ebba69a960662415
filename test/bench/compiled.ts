/**
 * A file of the bench's own, as JavaScript that node runs by itself in a process under test, written under .bench/
 * (beside the repository's node_modules, from which it may import). Under tsx, that process would run with tsx's
 * module hooks and their worker thread, and with source maps on: tsx's register calls
 * process.setSourceMapsEnabled(true), so the first error whose stack is read in a chunk of dist/ (undici's idle
 * upstream sockets close with one, every few seconds) has Node parse that chunk's source map, the largest 5.9 MB, in
 * one turn of the event loop: 0.1 to 0.4 s that production, without --enable-source-maps, never spends.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** test/bench/<name>.ts compiled to .bench/<name>.mjs; the path of the latter. */
export function compiledForNode(name: string): string {
  const file = join(ROOT, '.bench', `${name}.mjs`);
  const source = readFileSync(join(ROOT, 'test', 'bench', `${name}.ts`), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, outputText);
  return file;
}
