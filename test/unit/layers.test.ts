import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

// Each layer imports only from layers of a lower rank (docs/contributors/layout.md). Files at the top of src/ are ranked
// by name: the process entry on top (the command-line programs in cli/ beside it), the leaf facts (catalogue, config,
// JSON types, the logger factory, where the package's files are, the error base) at the bottom.
const RANKS: Readonly<Record<string, number>> = {
  'main.ts': 5,
  cli: 5,
  server: 4,
  // HTTP features over the GraphQL layer's parts (callers, budgets): routes the server's front door wires in.
  downloads: 3.5,
  // MCP tools that run GraphQL operations through the server's own pipeline.
  mcp: 3.5,
  // The Federation v2 subgraph: a second yoga over the same builder, beside the server's.
  federation: 3.5,
  graphql: 3,
  portal: 3,
  live: 2,
  harvest: 2,
  // HTTP helpers and what a route is (http/route.ts): below every feature that answers a route.
  http: 1.8,
  // Below graphql/ and live/, which spend its budgets; its yoga plugins are in server/rate-limit/.
  'rate-limit': 1.5,
  upstream: 1,
  access: 1,
  records: 1,
  simulator: 1,
  'catalogue.ts': 0,
  'catalogue-metadata.ts': 0,
  'provinces.ts': 0,
  'config.ts': 0,
  config: 0,
  'json.ts': 0,
  // The pino logger factory: the server and the command-line programs log alike, and no CLI loads server/.
  'logger.ts': 0,
  'package-files.ts': 0,
  // A turn of the event loop after the one running: the upstream client, the records engine and the answer writer wait for one.
  'later-turn.ts': 0,
  errors: 0,
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(file: string): string {
  return relative(SRC, file).split('/')[0] ?? '';
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((match) =>
    resolve(dirname(file), match[1] ?? '').replace(/\.js$/, '.ts'),
  );
}

describe('the layout', () => {
  const files = sourceFiles(SRC);

  it('ranks every top-level entry of src/', () => {
    const unranked = [...new Set(files.map(layerOf))].filter((layer) => RANKS[layer] === undefined);
    expect(unranked).toEqual([]);
  });

  it('has no import that reaches up a layer, nor across between the domain folders', () => {
    const violations = files.flatMap((file) =>
      imports(file)
        .filter((target) => {
          const [from, to] = [layerOf(file), layerOf(target)];
          if (from === to) return false;
          const [fromRank, toRank] = [RANKS[from] ?? -1, RANKS[to] ?? -1];
          return toRank > fromRank || (toRank === fromRank && fromRank > 0);
        })
        .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
    );
    expect(violations).toEqual([]);
  });

  it('has no import cycle among src/ files (type-only imports count)', () => {
    const graph = new Map(files.map((file) => [file, imports(file).filter((target) => files.includes(target))]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'open')
          cycles.push([...path.slice(path.indexOf(target)), target].map((node) => relative(SRC, node)).join(' -> '));
        else if (state.get(target) === undefined) visit(target, [...path, target]);
      }
      state.set(file, 'done');
    };
    for (const file of files) if (state.get(file) === undefined) visit(file, [file]);
    expect(cycles).toEqual([]);
  });
});
