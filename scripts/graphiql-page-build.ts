/**
 * GraphiQL's page, rendered and compressed once by the build (scripts/build.ts) into `<outdir>/graphiql/`: the HTML,
 * its brotli and gzip copies and their ETags, which the server reads at the page's first request
 * (src/server/pages/graphiql-page.ts) instead of loading the renderer's 9 MB of source and compressing 9 MB.
 *
 * Offline, the build can afford what a server should not: brotli at quality 9 with a 16 MB window (quality 11 saves
 * another 8 % for ten times the time), gzip at level 9, and the three Web Workers the renderer inlines as strings
 * (Monaco's editor, JSON and GraphQL workers, printed unminified) minified by esbuild, whitespace and syntax.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { transform } from 'esbuild';
import { editorWorkerService, graphqlWorker, jsonWorker } from '@graphql-yoga/render-graphiql/graphiql';
import { etagOf } from '../src/http/caching.js';
import { PAGE_ETAGS_FILE, PAGE_FILES, type PageEncoding, type PageEtags } from '../src/server/pages/graphiql-page.js';
import { renderGraphiQLPage } from '../src/server/pages/graphiql-render.js';

/** The page's HTML with each inlined worker minified: the same scripts, about a third smaller. */
async function minifiedWorkers(html: string): Promise<string> {
  let page = html;
  for (const worker of [editorWorkerService, jsonWorker, graphqlWorker]) {
    const inlined = JSON.stringify(worker);
    if (!page.includes(inlined)) throw new Error('a GraphiQL worker is not inlined as the renderer used to do it');
    const { code } = await transform(worker, { minifyWhitespace: true, minifySyntax: true, target: 'es2020' });
    page = page.replace(inlined, () => JSON.stringify(code));
  }
  return page;
}

/** Writes the page's files under `<outdir>/graphiql/`; resolves with each variant's size in bytes. */
export async function buildGraphiQLPage(outdir: string): Promise<Record<PageEncoding, number>> {
  const identity = Buffer.from(await minifiedWorkers(renderGraphiQLPage()));
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    promisify(gzip)(identity, { level: 9 }),
  ]);
  const variants: Record<PageEncoding, Buffer> = { identity, br, gzip: gz };
  const directory = join(outdir, 'graphiql');
  mkdirSync(directory, { recursive: true });
  const etags = {} as Record<PageEncoding, string>;
  for (const [encoding, body] of Object.entries(variants) as [PageEncoding, Buffer][]) {
    writeFileSync(join(directory, PAGE_FILES[encoding]), body);
    etags[encoding] = etagOf(body);
  }
  writeFileSync(join(directory, PAGE_ETAGS_FILE), `${JSON.stringify(etags satisfies PageEtags, null, 2)}\n`);
  return { identity: identity.length, br: br.length, gzip: gz.length };
}
