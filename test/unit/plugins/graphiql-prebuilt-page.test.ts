import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { GraphiQLPage, PAGE_ETAGS_FILE, PAGE_FILES } from '../../../src/server/pages/graphiql-page.js';

// The page's two sources (graphiql-page.ts): the build's files when they are there, else one rendering.
function prebuilt(): string {
  const directory = join(mkdtempSync(join(tmpdir(), 'teg-graphiql-')), 'graphiql');
  mkdirSync(directory);
  writeFileSync(join(directory, PAGE_FILES.identity), '<!doctype html><title>built</title>');
  writeFileSync(join(directory, PAGE_FILES.br), 'brotli bytes');
  writeFileSync(join(directory, PAGE_FILES.gzip), 'gzip bytes');
  writeFileSync(
    join(directory, PAGE_ETAGS_FILE),
    JSON.stringify({ identity: '"built-identity"', br: '"built-br"', gzip: '"built-gzip"' }),
  );
  return directory;
}

describe("GraphiQL's page", () => {
  it("serves the build's bytes with the build's ETags, and never renders", async () => {
    const render = vi.fn(() => Promise.resolve('<!doctype html><title>rendered</title>'));
    const page = new GraphiQLPage({ directory: prebuilt(), render });
    const [br, again] = await Promise.all([page.variant('br'), page.variant('br')]);
    expect(br).toBe(again);
    expect(br).toEqual({ body: Buffer.from('brotli bytes'), etag: '"built-br"' });
    expect(await page.variant('gzip')).toEqual({ body: Buffer.from('gzip bytes'), etag: '"built-gzip"' });
    expect((await page.variant('identity')).etag).toBe('"built-identity"');
    expect(render).not.toHaveBeenCalled();
  });

  it('renders once, on first use, when there is no prebuilt page', async () => {
    const render = vi.fn(() => Promise.resolve('<!doctype html><title>rendered</title>'));
    const page = new GraphiQLPage({ directory: join(tmpdir(), 'teg-no-such-page'), render });
    expect(render).not.toHaveBeenCalled();
    const [identity, br] = await Promise.all([page.variant('identity'), page.variant('br')]);
    expect(identity.body.toString()).toBe('<!doctype html><title>rendered</title>');
    expect(br.etag).not.toBe(identity.etag);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('refuses an ETags file that leaves out an encoding', async () => {
    const directory = prebuilt();
    writeFileSync(join(directory, PAGE_ETAGS_FILE), JSON.stringify({ identity: '"x"' }));
    await expect(new GraphiQLPage({ directory }).variant('br')).rejects.toThrow(/every encoding/);
  });
});
