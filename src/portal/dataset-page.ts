/**
 * /portal/datasets/<CODE>: the portal's page (its index.html, whose scripts route to the dataset) with the dataset's
 * schema.org `Dataset` in a `<script type="application/ld+json">`, so that a search engine reading the page without
 * running it finds the dataset. The portal's CSP allows no inline script, but a JSON-LD block is data, never run.
 * The page's relative links are made absolute: under /portal/datasets/ they would point one level too deep, and the
 * CSP's `base-uri 'none'` allows no `<base>`.
 */
import { findDataset, type DatasetCode } from '../catalogue.js';
import { CodedError, withoutStackTrace } from '../errors/coded-error.js';
import { CODE } from '../errors/registry.js';
import { readFacts, type HarvestOptions } from '../harvest/dataset-facts.js';
import { schemaOrgDataset, scriptJson } from '../harvest/json-ld.js';
import { negotiateLanguage } from '../http/language.js';
import { PORTAL_PATH } from './route.js';

const DATASET_PAGE = /^\/portal\/datasets\/([^/]+)$/;

/** What the dataset pages publish beside the catalogue: the licence, the contact, and the last change seen. */
export type DatasetPageFacts = HarvestOptions;

/**
 * The dataset a portal path names, or undefined when it is not a dataset page; throws BAD_REQUEST for a path whose
 * percent-encoding cannot be decoded.
 */
export function datasetOfPage(pathname: string): DatasetCode | undefined {
  const code = DATASET_PAGE.exec(pathname)?.[1];
  if (code === undefined) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(code);
  } catch {
    // A malformed percent-encoding (`%E0%A4%A`) is the caller's: 400, not a 500 and a logged stack.
    throw withoutStackTrace(
      () => new CodedError(CODE.BAD_REQUEST, 'The path holds a malformed percent-encoding.', {}, 400),
    );
  }
  return findDataset(decoded)?.code;
}

/** index.html for one dataset: its links absolute, and the dataset's JSON-LD at the end of its head. */
export async function datasetPageHtml(
  indexHtml: string,
  code: DatasetCode,
  request: Request,
  facts: DatasetPageFacts,
): Promise<string> {
  const entry = findDataset(code);
  if (entry === undefined) return indexHtml;
  const origin = new URL(request.url).origin;
  const language = negotiateLanguage(request.headers.get('accept-language')) === 'en' ? 'en' : 'th';
  const described = await readFacts(facts, origin, entry);
  const jsonLd = schemaOrgDataset(described, language);
  const title = language === 'th' ? described.title : described.titleEn;
  const description = (language === 'th' ? described.description : described.descriptionEn).slice(0, 300);
  const head =
    `<title>${escapeHtml(title)} · ${entry.code}</title>\n` +
    `    <meta name="description" content="${escapeHtml(description)}">\n` +
    `    <link rel="canonical" href="${escapeHtml(described.landingPage)}">`;
  const absolute = indexHtml.replace(
    /\b(href|src)="(?![a-z][a-z0-9+.-]*:|\/|#)([^"]*)"/gi,
    (_match, attribute: string, target: string) => `${attribute}="${PORTAL_PATH}/${target}"`,
  );
  return absolute
    .replace(/<title>[^<]*<\/title>/, () => head)
    .replace('</head>', `  <script type="application/ld+json">${scriptJson(jsonLd)}</script>\n  </head>`);
}

/** Text for an HTML attribute or element. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
