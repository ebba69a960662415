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
import { datasetCitation, type DatasetCitation } from '../harvest/citation.js';
import { readFacts, type HarvestOptions } from '../harvest/dataset-facts.js';
import { schemaOrgDataset, scriptJson } from '../harvest/json-ld.js';
import { datasetTitle } from './assets/page-heads.js';
import { pageLanguage, withHead } from './page-heads.js';
import { PORTAL_PATH } from './route.js';

const DATASET_PAGE = /^\/portal\/datasets\/([^/]+)$/;
const CITATION = /^\/portal\/datasets\/([^/]+)\/citation\.json$/;

/** What the dataset pages publish beside the catalogue: the licence, the contact, and the last change seen. */
export type DatasetPageFacts = HarvestOptions;

/**
 * The dataset a portal path names, or undefined when it is not a dataset page; throws BAD_REQUEST for a path whose
 * percent-encoding cannot be decoded.
 */
export function datasetOfPage(pathname: string): DatasetCode | undefined {
  return datasetNamed(DATASET_PAGE.exec(pathname)?.[1]);
}

/** The dataset whose citation a portal path asks for (/portal/datasets/<CODE>/citation.json), as datasetOfPage. */
export function datasetOfCitation(pathname: string): DatasetCode | undefined {
  return datasetNamed(CITATION.exec(pathname)?.[1]);
}

function datasetNamed(code: string | undefined): DatasetCode | undefined {
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

/**
 * The dataset page's "cite this" (its citation, in Thai, and as BibTeX), from the one place that writes citations
 * (harvest/citation.ts): the same text as the page's JSON-LD `citation`, which the portal's script cannot read on a
 * page it drew without a load.
 */
export async function datasetCitationJson(
  code: DatasetCode,
  request: Request,
  facts: DatasetPageFacts,
): Promise<DatasetCitation | undefined> {
  const entry = findDataset(code);
  return entry === undefined ? undefined : datasetCitation(await readFacts(facts, new URL(request.url).origin, entry));
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
  const language = pageLanguage(request);
  const described = await readFacts(facts, new URL(request.url).origin, entry);
  const jsonLd = schemaOrgDataset(described, language);
  const head = {
    title: datasetTitle(language === 'th' ? described.title : described.titleEn, entry.code, language),
    description: (language === 'th' ? described.description : described.descriptionEn).slice(0, 300),
    canonical: described.landingPage,
  };
  const absolute = indexHtml.replace(
    /\b(href|src)="(?![a-z][a-z0-9+.-]*:|\/|#)([^"]*)"/gi,
    (_match, attribute: string, target: string) => `${attribute}="${PORTAL_PATH}/${target}"`,
  );
  return withHead(absolute, head, language).replace(
    '</head>',
    `  <script type="application/ld+json">${scriptJson(jsonLd)}</script>\n  </head>`,
  );
}
