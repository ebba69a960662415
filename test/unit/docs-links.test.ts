import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, readDoc, REPOSITORY_ROOT } from '../helpers/docs.js';

// A clone has only what the repository holds: every relative link of the README and docs/ must land on a file in
// it, and on a heading of that file when it names one.

/** The markdown outside fenced code blocks and inline code, where links and headings are. */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^[ \t]*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line.replace(/`[^`]*`/g, '``'));
  }
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings, a repeated one numbered as GitHub numbers it. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^[ \t]*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line);
  }
  for (const [, text] of lines.map((line) => /^#{1,6}\s+(.*?)\s*#*$/.exec(line) ?? [])) {
    if (text === undefined) continue;
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  readonly file: string;
  readonly target: string;
}

function relativeLinks(file: string): Link[] {
  return prose(readDoc(file))
    .flatMap((line) => [...line.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, target]) => target ?? ''))
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => ({ file, target }));
}

/** What is wrong with a link, or undefined when it resolves. */
function problemOf({ file, target }: Link): string | undefined {
  const [path = '', anchor] = target.split('#');
  const resolved = path === '' ? join(REPOSITORY_ROOT, file) : resolve(REPOSITORY_ROOT, dirname(file), path);
  const inRepository = relative(REPOSITORY_ROOT, resolved);
  if (inRepository.startsWith('..')) return 'points outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined) return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md'))
    return 'an anchor into a file that is not markdown';
  return anchorsOf(readDoc(inRepository)).has(anchor) ? undefined : `no heading #${anchor}`;
}

describe('links of the README and docs/', () => {
  const files = documentationFiles();
  const links = files.flatMap(relativeLinks);

  it('finds the docs and their links', () => {
    expect(files).toContain('docs/README.md');
    expect(files).toContain('docs/app-developers/errors.md');
    expect(links.length).toBeGreaterThan(50);
  });

  it('computes anchors as GitHub does', () => {
    expect(anchorsOf('# Supported Node.js versions\n## The response cache (hot path)\n## A\n## A')).toEqual(
      new Set(['supported-nodejs-versions', 'the-response-cache-hot-path', 'a', 'a-1']),
    );
    expect(problemOf({ file: 'README.md', target: '../shared/DESIGN.md' })).toBe('points outside the repository');
    expect(problemOf({ file: 'README.md', target: 'docs/README.md#no-such-heading' })).toBe(
      'no heading #no-such-heading',
    );
  });

  it('every relative link points at an existing file in the repository, and at an existing heading', () => {
    const broken = links.flatMap((link) => {
      const problem = problemOf(link);
      return problem === undefined ? [] : [`${link.file}: ${link.target} (${problem})`];
    });
    expect(broken).toEqual([]);
  });
});
