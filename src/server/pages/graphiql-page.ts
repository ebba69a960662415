import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { etagOf } from '../../http/caching.js';
import { compressOnce } from '../../http/content-encoding.js';
import { CODE_ROOT } from '../../package-files.js';

/** The encodings the page is kept in, compressed ones by preference; a client that takes neither gets identity. */
export const PAGE_ENCODINGS = ['br', 'gzip'] as const;
export type PageEncoding = (typeof PAGE_ENCODINGS)[number] | 'identity';

/** The build's copy of the page (scripts/graphiql-page-build.ts), under dist/: one file per encoding, and ETags. */
export const PREBUILT_PAGE_DIRECTORY = join(CODE_ROOT, 'graphiql');
export const PAGE_FILES: Readonly<Record<PageEncoding, string>> = {
  identity: 'index.html',
  br: 'index.html.br',
  gzip: 'index.html.gz',
};
export const PAGE_ETAGS_FILE = 'etags.json';
export type PageEtags = Readonly<Record<PageEncoding, string>>;

/** One representation of the page: its bytes, as they go on the wire, and their ETag. */
export interface PageVariant {
  readonly body: Buffer;
  readonly etag: string;
}

export interface GraphiQLPageOptions {
  /** Where the prebuilt page is: the build's by default. */
  readonly directory?: string;
  /** The page's HTML when there is no prebuilt copy (a server running from source): rendered once, on first use. */
  readonly render?: () => Promise<string>;
}

const renderFromSource = async (): Promise<string> => (await import('./graphiql-render.js')).renderGraphiQLPage();

/**
 * GraphiQL's page, made once. The production build holds it rendered and compressed (dist/graphiql/): each variant
 * is read from its file at its first request, with the ETag the build wrote, so the server never loads the renderer
 * (9 MB of source) or compresses the page. With no such files (tsx, the tests from src/) it is rendered at the first
 * request and each encoding compressed the first time a client asks for it. Later requests are served from those
 * bytes. Each variant's ETag is a digest of its own bytes, so a gzip and a brotli copy are never taken for each other
 * (RFC 9110 §8.8.3), and every instance gives the same ETag.
 */
export class GraphiQLPage {
  readonly encodings = PAGE_ENCODINGS;
  private readonly variants = new Map<PageEncoding, Promise<PageVariant>>();
  private prebuilt: Promise<PageEtags | undefined> | undefined;
  private readonly directory: string;
  private readonly render: () => Promise<string>;

  constructor({ directory = PREBUILT_PAGE_DIRECTORY, render = renderFromSource }: GraphiQLPageOptions = {}) {
    this.directory = directory;
    this.render = render;
  }

  /** The page in `encoding`; concurrent first requests share one read, or one rendering and one compression. */
  variant(encoding: PageEncoding): Promise<PageVariant> {
    let pending = this.variants.get(encoding);
    if (pending === undefined) {
      const made = this.make(encoding);
      this.variants.set(encoding, made);
      // The requests that awaited it answer the failure; the next request tries again.
      made.catch(() => {
        if (this.variants.get(encoding) === made) this.variants.delete(encoding);
      });
      pending = made;
    }
    return pending;
  }

  private async make(encoding: PageEncoding): Promise<PageVariant> {
    const etags = await (this.prebuilt ??= readEtags(this.directory));
    if (etags !== undefined)
      return { body: await readFile(join(this.directory, PAGE_FILES[encoding])), etag: etags[encoding] };
    const body =
      encoding === 'identity'
        ? Buffer.from(await this.render())
        : await compressOnce(encoding, (await this.variant('identity')).body);
    return { body, etag: etagOf(body) };
  }
}

/** The prebuilt page's ETags, or undefined when there is no prebuilt page. */
async function readEtags(directory: string): Promise<PageEtags | undefined> {
  let text: string;
  try {
    text = await readFile(join(directory, PAGE_ETAGS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const etags = JSON.parse(text) as Partial<Record<PageEncoding, unknown>>;
  const valid = (['identity', ...PAGE_ENCODINGS] as const).every((encoding) => typeof etags[encoding] === 'string');
  if (!valid) throw new Error(`${join(directory, PAGE_ETAGS_FILE)} does not give an ETag for every encoding`);
  return etags as PageEtags;
}
