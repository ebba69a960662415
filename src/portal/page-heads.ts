/**
 * The head of each portal page as the server sends it: its own <title>, meta description and canonical address (the
 * words of assets/page-heads.js, which the browser sets too as the reader moves between pages), so that a search
 * engine or a link preview reading the page without running it tells the pages apart.
 */
import { negotiateLanguage } from '../http/language.js';
import { PAGE_HEADS, pageOfPath } from './assets/page-heads.js';

export interface PageHead {
  readonly title: string;
  readonly description: string;
  /** Absolute: the page's own address, without a view's query. */
  readonly canonical: string;
}

/** The page's language, from the request's Accept-Language, as the API answers (Thai unless English is preferred). */
export function pageLanguage(request: Request): 'th' | 'en' {
  return negotiateLanguage(request.headers.get('accept-language')) === 'en' ? 'en' : 'th';
}

/** The head of the catalogue, developer or operator page; undefined for any other path. */
export function portalPageHead(pathname: string, request: Request): PageHead | undefined {
  const page = pageOfPath(pathname);
  if (page === undefined) return undefined;
  const head = PAGE_HEADS[page];
  const { title, description } = head[pageLanguage(request)];
  return { title, description, canonical: `${new URL(request.url).origin}${head.path}` };
}

/** index.html with `head`'s title, description and canonical link in place of its own title, and `lang` set. */
export function withHead(indexHtml: string, head: PageHead, language: 'th' | 'en'): string {
  const tags =
    `<title>${escapeHtml(head.title)}</title>\n` +
    `    <meta name="description" content="${escapeHtml(head.description)}">\n` +
    `    <link rel="canonical" href="${escapeHtml(head.canonical)}">`;
  return indexHtml
    .replace(/<title>[^<]*<\/title>/, () => tags)
    .replace(/<html lang="[a-z]+"/, `<html lang="${language}"`);
}

/** Text for an HTML attribute or element. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
