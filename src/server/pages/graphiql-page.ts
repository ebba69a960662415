import type { GraphiQLOptions } from 'graphql-yoga';
import { etagOf } from '../../http/caching.js';
import { compressOnce, type Encoding } from '../../http/content-encoding.js';

/**
 * GraphiQL's tab bar keeps a stale offset in each pre-loaded tab's inline transform (left by the reordering
 * animation when the tabs mount) and hides it with `.graphiql-tab:not(:focus-within) { transform: none }`. Pressing
 * a tab focuses it, the offset applies, the tab jumps away from under the pointer, and the click lands on the bar:
 * every pre-loaded tab needed two clicks in Chromium. Keeping tabs in place always makes one click enough; the cost
 * is that a tab being dragged to another place does not follow the pointer (it still moves when dropped).
 */
const ONE_CLICK_TABS = '<style>.graphiql-tab { transform: none !important; }</style>';

/** One representation of the page: its bytes, as they go on the wire, and their ETag. */
export interface PageVariant {
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * GraphiQL's page, made once. The renderer inlines GraphiQL's scripts and styles, so the page works with no
 * internet, but it is about 9 MB of text (some 70 MB of memory once loaded): it is imported and rendered on the
 * first request for the page, and each content encoding is compressed the first time a client asks for it. Every
 * later request is served from those bytes. Each variant's ETag is a digest of its own bytes, so a gzip and a
 * brotli copy are never taken for each other (RFC 9110 §8.8.3), and every instance gives the same ETag.
 */
export class GraphiQLPage {
  private readonly variants = new Map<Encoding | 'identity', Promise<PageVariant>>();

  constructor(private readonly options: GraphiQLOptions) {}

  /** The page in `encoding`; concurrent first requests share one rendering and one compression. */
  variant(encoding: Encoding | 'identity'): Promise<PageVariant> {
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

  private async make(encoding: Encoding | 'identity'): Promise<PageVariant> {
    const body =
      encoding === 'identity'
        ? Buffer.from(
            (await import('@graphql-yoga/render-graphiql'))
              .renderGraphiQL(this.options)
              .replace('</head>', `${ONE_CLICK_TABS}</head>`),
          )
        : await compressOnce(encoding, (await this.variant('identity')).body);
    return { body, etag: etagOf(body) };
  }
}
