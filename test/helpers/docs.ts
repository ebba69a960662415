import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository's root: documentation paths are given from here (`README.md`, `docs/app-developers/clients.md`). */
export const REPOSITORY_ROOT = resolve(import.meta.dirname, '../..');

/** The text of one documentation file, by its path from the repository's root. */
export function readDoc(path: string): string {
  return readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
}

/** The fenced code blocks of one language in a markdown text, in order (indented fences, in lists, included). */
export function fencedBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^[ \t]*```([\w-]*)\n([\s\S]*?)^[ \t]*```/gm)]
    .filter(([, fence]) => fence === language)
    .map(([, , body]) => body ?? '');
}

/** README.md and every markdown file under docs/, as paths from the repository's root. */
export function documentationFiles(): string[] {
  const under = (directory: string): string[] =>
    readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
      const path = join(directory, entry.name);
      return entry.isDirectory() ? under(path) : entry.name.endsWith('.md') ? [path] : [];
    });
  return [
    'README.md',
    ...under(join(REPOSITORY_ROOT, 'docs'))
      .map((path) => relative(REPOSITORY_ROOT, path))
      .sort(),
  ];
}
