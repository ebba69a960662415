/**
 * Where a figure came from, as every tool result carries it: read from the same GraphQL operation that computed the
 * figure (the dataset's metadata and the payload version it was computed on), so the source and the number cannot
 * disagree.
 */
import { z } from 'zod';
import { DATASET_CODES, type DatasetCode } from '../catalogue.js';

/** The selection every tool's operation makes on its `dataset`, for `provenanceOf`. */
export const PROVENANCE_FRAGMENT = /* GraphQL */ `
  fragment Provenance on Dataset {
    code
    titleEn
    apiUrl
    metadata {
      descriptiveTitle
      publisher
      licence {
        name
        url
      }
      caveats
    }
    lastFetched {
      fetchedAt
      version
    }
  }
`;

/** What the fragment selects. */
export interface ProvenanceSelection {
  readonly code: DatasetCode;
  readonly titleEn: string;
  readonly apiUrl: string;
  readonly metadata: {
    readonly descriptiveTitle: string;
    readonly publisher: string;
    readonly licence: { readonly name: string; readonly url: string };
    readonly caveats: readonly string[];
  };
  readonly lastFetched: { readonly fetchedAt: string; readonly version: string } | null;
}

export const provenanceSchema = z.object({
  dataset: z.enum(DATASET_CODES),
  title: z.string().describe('The title to cite (Thai; the English rendering where the official title is a code).'),
  upstreamUrl: z.string().describe("The ministry's own address of the data."),
  fetchedAt: z.string().nullable().describe('When this server fetched the data the figure was computed on (UTC).'),
  version: z.string().nullable().describe('The version (content hash) of that data.'),
  licence: z.object({ name: z.string(), url: z.string() }),
  citation: z.string().describe('A sentence to paste under the figure: title, publisher, URL, date fetched, licence.'),
  caveats: z.array(z.string()).describe('What to beware of when reading the figure.'),
  simulated: z
    .boolean()
    .describe('True when the embedded simulator answered: the figures are made up, never the ministry’s.'),
});

export type Provenance = z.infer<typeof provenanceSchema>;

/** The provenance of a figure computed by an operation that selected `PROVENANCE_FRAGMENT`. */
export function provenanceOf(selection: ProvenanceSelection, simulated: boolean): Provenance {
  const { metadata, lastFetched } = selection;
  const title =
    metadata.descriptiveTitle === selection.titleEn
      ? selection.titleEn
      : `${metadata.descriptiveTitle} (${selection.titleEn})`;
  const fetched =
    lastFetched === null ? 'date of retrieval unknown' : `retrieved ${lastFetched.fetchedAt.slice(0, 10)}`;
  const citation =
    `${title}, ${metadata.publisher}, dataset ${selection.code}, ${selection.apiUrl} (${fetched}), ` +
    `licensed under the ${metadata.licence.name} (${metadata.licence.url}).` +
    (simulated ? ' SIMULATED DATA from a test server, not official figures.' : '');
  return {
    dataset: selection.code,
    title: metadata.descriptiveTitle,
    upstreamUrl: selection.apiUrl,
    fetchedAt: lastFetched?.fetchedAt ?? null,
    version: lastFetched?.version ?? null,
    licence: { name: metadata.licence.name, url: metadata.licence.url },
    citation,
    caveats: [...metadata.caveats],
    simulated,
  };
}
