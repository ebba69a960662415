/**
 * The MCP server: four read-only tools and one resource per dataset, each answered by one GraphQL operation through
 * `call` (graphql-call.ts), so every figure is the API's own `aggregate` or `records` answer and every rule of the
 * API applies to it. Every figure carries its provenance; every result fits `maxResultBytes`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DATA_GROUPS, DATASET_CODES, DATASETS, findDataset, type DataGroup, type DatasetCode } from '../catalogue.js';
import { GEOGRAPHIES, type Geography } from '../catalogue-metadata.js';
import { CODE } from '../errors/registry.js';
import { searchDatasets } from '../harvest/catalogue-search.js';
import { largestFitting } from './bounded.js';
import type { GraphQLAnswer, GraphQLCall } from './graphql-call.js';
import { PROVENANCE_FRAGMENT, provenanceOf, provenanceSchema, type ProvenanceSelection } from './provenance.js';

export interface McpServerOptions {
  /** Runs one GraphQL operation as the caller. */
  readonly call: GraphQLCall;
  /** MCP_MAX_RESULT_BYTES. */
  readonly maxResultBytes: number;
  readonly version: string;
}

const INSTRUCTIONS =
  "Official statistics of Thailand's Ministry of Education (กระทรวงศึกษาธิการ) and its vocational education office " +
  '(สอศ.): teachers (ครู), students (นักเรียน), schools (สถานศึกษา), graduates (ผู้สำเร็จการศึกษา). Call find_datasets ' +
  'to pick a dataset, describe_dataset to learn its fields and how values are spelt (mostly Thai), then ' +
  'query_statistic for a figure or get_records for rows. Quote every figure with its provenance.citation and ' +
  'mention its caveats; years are Buddhist Era (พ.ศ. 2566 = 2023). Never estimate a figure the tools did not give.';

const DESCRIPTIONS = {
  find_datasets:
    'Find which of the 13 education datasets (ชุดข้อมูล) answers a question. Give words in Thai or English: a ' +
    'subject (ครู teachers, นักเรียน students, สถานศึกษา schools, ผู้สำเร็จการศึกษา graduates, ห้องเรียน classrooms, ' +
    'พิการ disabled), a breakdown (จังหวัด province, สังกัด jurisdiction, เพศ gender, ปีการศึกษา year) or a dataset code. ' +
    'Returns matching datasets best first (all 13 when nothing matches). Call this first when you do not know the ' +
    'dataset code; it reads no data and has no figures.',
  describe_dataset:
    'Describe one dataset before querying it: its fields (เขตข้อมูล) with their key as the filters take it, type, ' +
    'definition, unit and example values (so you spell a value as the data does, e.g. province names in Thai: ' +
    'เชียงใหม่, กรุงเทพมหานคร), how many records it has, its licence and caveats. Call this before query_statistic or ' +
    'get_records whenever you are unsure of a field name or a value.',
  query_statistic:
    'Compute a figure (ผลรวม, a sum) from a dataset: the total of one numeric field (`sum`, e.g. TOTAL or TEACHER_COUNT) over the ' +
    'records matching `where`, optionally per group (`groupBy`, e.g. ["PROVINCE_NAME"]). Exactly the GraphQL API’s ' +
    '`aggregate`. Use this for "how many …" questions rather than adding rows up yourself. `rowCount` is the number ' +
    'of records that matched; 0 means nothing matched (check the spelling with describe_dataset) and there is no ' +
    'figure. Cite provenance.citation with the figure.',
  get_records:
    'Read the records (ระเบียน) of a dataset, filtered by `where` and reduced to `select`ed fields, at most 100 a ' +
    'page and within the result size bound. When `truncated` is true, call again with the same dataset, where and ' +
    'select and `cursor: nextCursor` for the next page. Use this to show or inspect rows; for totals use ' +
    'query_statistic.',
} as const;

/** What the catalogue operation answers of one dataset. */
interface ListedDataset {
  readonly code: DatasetCode;
  readonly title: string;
  readonly titleEn: string;
  readonly group: DataGroup;
  readonly metadata: { readonly descriptiveTitle: string; readonly keywords: readonly string[] };
}

/**
 * find_datasets' answer: the datasets the search found with every word; for a question none holds every word of
 * ("teachers in Chiang Mai in 2566": no dataset names a year), the same search's datasets holding some of them,
 * those holding more first; all 13, unmatched, when none holds any.
 */
function foundDatasets(
  listed: readonly ListedDataset[],
  foundCodes: readonly DatasetCode[],
  query: string,
): { matched: boolean; datasets: ListedDataset[] } {
  const byCode = new Map(listed.map((dataset) => [dataset.code, dataset]));
  const entries = listed.flatMap((dataset) => findDataset(dataset.code) ?? []);
  const codes = foundCodes.length > 0 ? foundCodes : searchDatasets(entries, query, 'any').map(({ code }) => code);
  const datasets = codes.flatMap((code) => byCode.get(code) ?? []);
  return datasets.length === 0 ? { matched: false, datasets: [...listed] } : { matched: true, datasets };
}

/** The most rows one get_records page holds, whatever `limit` asks. */
export const MAX_RESULT_ROWS = 100;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const datasetCode = z
  .enum(DATASET_CODES, { error: 'not one of the 13 dataset codes: call find_datasets first to get one' })
  .describe('The dataset code, e.g. ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER (find_datasets lists them).');

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The GraphQL API's RecordFilter, field for field. */
const recordFilter = z
  .object({
    field: z.string().describe('A field key as describe_dataset lists it, e.g. PROVINCE_NAME.'),
    eq: scalar.optional().describe('Equal to.'),
    ne: scalar.optional().describe('Not equal to.'),
    in: z.array(scalar).optional().describe('Equal to one of these.'),
    contains: scalar.optional().describe('Text containing this (case-insensitive).'),
    gte: scalar.optional().describe('Greater than or equal to.'),
    lte: scalar.optional().describe('Less than or equal to.'),
  })
  .strict();

const where = z
  .array(recordFilter)
  .optional()
  .describe(
    'Conditions that must all hold, as the GraphQL `records(where:)` takes them, e.g. ' +
      '[{ "field": "PROVINCE_NAME", "eq": "เชียงใหม่" }]. Numeric text compares as a number ("2566" = 2566).',
  );

const row = z.record(z.string(), z.unknown());

const listedDataset = z.object({
  code: z.enum(DATASET_CODES),
  title: z.string().describe('Official Thai title (the English rendering where the official title is the code).'),
  titleEn: z.string(),
  group: z.enum(DATA_GROUPS),
});

const fieldDescription = z.object({
  key: z.string().describe('As filters, sum and groupBy take it.'),
  type: z.string().describe('JSON type(s) of its values, e.g. "number" or "string".'),
  definition: z.string().nullable().describe('What it means, where known.'),
  unit: z.string().nullable().describe('What one value counts (persons, schools, year B.E.); null for a label.'),
  examples: z.array(z.unknown()).describe('Some of its values, as the data spells them.'),
  distinctCount: z.number().int(),
});

const DESCRIBE = /* GraphQL */ `
  query McpDescribeDataset($code: DatasetCode!) {
    dataset(code: $code) {
      ...Provenance
      metadata {
        coverage {
          geography
          description
          referencePeriod {
            description
          }
        }
      }
      recordCount
      fields {
        name
        types
        examples
        distinctCount
        definition {
          label
          labelEn
          unit
          description
        }
      }
    }
  }
  ${PROVENANCE_FRAGMENT}
`;

interface DescribeSelection extends ProvenanceSelection {
  readonly metadata: ProvenanceSelection['metadata'] & {
    readonly coverage: {
      readonly geography: Geography;
      readonly description: string;
      readonly referencePeriod: { readonly description: string } | null;
    };
  };
  readonly recordCount: number | null;
  readonly fields:
    | readonly {
        readonly name: string;
        readonly types: readonly string[];
        readonly examples: readonly unknown[];
        readonly distinctCount: number;
        readonly definition: {
          readonly label: string;
          readonly labelEn: string;
          readonly unit: string | null;
          readonly description: string | null;
        } | null;
      }[]
    | null;
}

/** A refused call: the API's code and message, and which tool to call first when the input named something unknown. */
class ToolRefusal extends Error {}

function refusalOf(answer: GraphQLAnswer): ToolRefusal {
  const first = answer.errors[0];
  const code = typeof first?.extensions?.['code'] === 'string' ? first.extensions['code'] : `HTTP ${answer.status}`;
  const detail = first?.extensions?.['detail'];
  // The API names its pagination argument `after`; get_records calls it `cursor`.
  const message = (
    (first?.message ?? 'the API gave no answer') + (typeof detail === 'string' ? ` (${detail})` : '')
  ).replaceAll('`after`', '`cursor`');
  const aboutCursor = code === CODE.CURSOR_STALE || (code === CODE.BAD_USER_INPUT && message.includes('`cursor`'));
  // The records engine refuses a field no record has with BAD_USER_INPUT, listing the fields there are.
  const hint = aboutCursor
    ? ' A cursor is the nextCursor of the previous get_records call with the same dataset, where and select: ' +
      'call again without cursor to start from the first row.'
    : code === CODE.BAD_USER_INPUT
      ? ' Call describe_dataset first to see the field keys and how their values are spelt.'
      : code === CODE.RATE_LIMITED
        ? ' The caller’s rate limit (shared with the GraphQL API) is spent: wait before calling again.'
        : '';
  return new ToolRefusal(`${code}: ${message}${hint}`);
}

/** The dataset an operation answered, or the refusal when it answered none (or failed the field the tool needs). */
function datasetOf<Selection>(answer: GraphQLAnswer, needed: keyof Selection): Selection {
  const dataset = answer.data?.['dataset'] as Selection | null | undefined;
  if (dataset === null || dataset === undefined || dataset[needed] === null || dataset[needed] === undefined)
    throw refusalOf(answer);
  return dataset;
}

function describeResult(dataset: DescribeSelection, simulated: boolean) {
  return {
    dataset: dataset.code,
    title: dataset.metadata.descriptiveTitle,
    titleEn: dataset.titleEn,
    coverage: {
      geography: dataset.metadata.coverage.geography,
      description: dataset.metadata.coverage.description,
      referencePeriod: dataset.metadata.coverage.referencePeriod?.description ?? null,
    },
    recordCount: dataset.recordCount,
    fields: (dataset.fields ?? []).map((field) => ({
      key: field.name,
      type: field.types.map((type) => type.toLowerCase()).join(' | '),
      definition:
        field.definition === null
          ? null
          : `${field.definition.label} (${field.definition.labelEn})` +
            (field.definition.description === null ? '' : `: ${field.definition.description}`),
      unit: field.definition?.unit ?? null,
      examples: [...field.examples],
      distinctCount: field.distinctCount,
    })),
    provenance: provenanceOf(dataset, simulated),
  };
}

/** What describe_dataset's text holds besides the title, record count and citation. */
interface DescribeText {
  readonly fields: boolean;
  readonly caveats: boolean;
}

function describeText(result: ReturnType<typeof describeResult>, holds: DescribeText): string {
  const fields = result.fields.map(
    (field) => `${field.key} (${field.type}${field.unit === null ? '' : `, ${field.unit}`})`,
  );
  const caveats = result.provenance.caveats;
  return (
    `${result.dataset}: ${result.title}${result.title === result.titleEn ? '' : ` (${result.titleEn})`}, ` +
    `${formatNumber(result.recordCount)} records. ` +
    (holds.caveats
      ? `Coverage: ${result.coverage.description}` +
        (result.coverage.referencePeriod === null ? '. ' : `; ${result.coverage.referencePeriod}. `)
      : '') +
    (holds.fields ? `Fields: ${fields.join(', ')}. ` : `${fields.length} fields: see fields. `) +
    (holds.caveats ? `Caveats: ${caveats.join(' ')} ` : `${caveats.length} caveats: see provenance.caveats. `) +
    `Source: ${result.provenance.citation}`
  );
}

function formatNumber(value: unknown): string {
  return typeof value === 'number' ? value.toLocaleString('en-US') : String(value);
}

/** The most characters of a filter a result's text repeats: the caller has it whole, and the result has a bound. */
const FILTER_TEXT_CHARS = 300;

function filterText(filters: readonly z.infer<typeof recordFilter>[] | undefined): string {
  if (filters === undefined || filters.length === 0) return 'all records';
  const text = filters
    .map(({ field, ...operators }) =>
      Object.entries(operators)
        .map(([operator, value]) => `${field} ${operator} ${JSON.stringify(value)}`)
        .join(' and '),
    )
    .join(' and ');
  return text.length <= FILTER_TEXT_CHARS ? text : `${text.slice(0, FILTER_TEXT_CHARS)}… (the filter given)`;
}

/** Builds the MCP server of one request (or of the stdio process): stateless, its tools bound to `call`. */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { call, maxResultBytes } = options;
  const server = new McpServer(
    { name: 'thai-edu-graphql', title: 'Thai education statistics (สถิติการศึกษา)', version: options.version },
    { instructions: INSTRUCTIONS },
  );

  /** A result with its figure in a short text and the whole answer in structuredContent. */
  const answered = (text: string, structured: Record<string, unknown>): CallToolResult => ({
    content: [{ type: 'text', text }],
    structuredContent: structured,
  });
  /**
   * The largest result `build(n)` (n from 0 to `count`) whose whole message, its text with its structuredContent,
   * fits MCP_MAX_RESULT_BYTES.
   */
  const fitted = <Result>(count: number, build: (n: number) => Result): Result =>
    build(largestFitting(count, maxResultBytes, build));
  const refused = (error: unknown): CallToolResult => {
    if (!(error instanceof ToolRefusal)) throw error;
    return { content: [{ type: 'text', text: error.message }], isError: true };
  };

  server.registerTool(
    'find_datasets',
    {
      title: 'Find datasets (ค้นหาชุดข้อมูล)',
      description: DESCRIPTIONS.find_datasets,
      inputSchema: {
        query: z.string().max(500).describe('Words of the question, Thai or English, e.g. "teachers in เชียงใหม่".'),
      },
      outputSchema: {
        datasets: z.array(listedDataset),
        matched: z.boolean().describe('False when no dataset matched the words and all 13 are listed.'),
      },
      annotations: READ_ONLY,
    },
    async ({ query }) => {
      try {
        // The catalogue's one search (GraphQL's datasets(search:)): the datasets holding every word of the question.
        const answer = await call(
          'query McpFindDatasets($search: String!) { found: datasets(search: $search) { code } ' +
            'datasets { code title titleEn group metadata { descriptiveTitle keywords } } }',
          { search: query },
        );
        const listed = answer.data?.['datasets'] as ListedDataset[] | undefined;
        const foundCodes = (answer.data?.['found'] as { code: DatasetCode }[] | undefined)?.map(({ code }) => code);
        if (listed === undefined || foundCodes === undefined) throw refusalOf(answer);
        const found = foundDatasets(listed, foundCodes, query);
        const datasets = found.datasets.map((dataset) => ({
          code: dataset.code,
          title: dataset.metadata.descriptiveTitle,
          titleEn: dataset.titleEn,
          group: dataset.group,
        }));
        const lines = datasets.map(
          (dataset) =>
            `${dataset.code}: ${dataset.title}${dataset.title === dataset.titleEn ? '' : ` (${dataset.titleEn})`}`,
        );
        const text =
          (found.matched ? `Datasets for "${query}", best first:\n` : `No dataset matched "${query}"; all 13:\n`) +
          lines.join('\n');
        return answered(text, { datasets, matched: found.matched });
      } catch (error) {
        return refused(error);
      }
    },
  );

  /**
   * describe_dataset's answer, as `wrap` sends it (a tool result or a resource), within the bound. What may be left
   * out, first to last as n falls: the fields' examples (what grows with the data), field by field from the last;
   * their definitions the same way; then, in the text of a tool result, the caveats and the coverage (which
   * provenance.caveats and coverage still hold) and the list of fields (which `fields` still holds). The citation
   * always stays.
   */
  const describe = async <Sent>(
    code: DatasetCode,
    wrap: (result: ReturnType<typeof describeResult>, text: DescribeText) => Sent,
  ) => {
    const answer = await call(DESCRIBE, { code });
    const result = describeResult(datasetOf<DescribeSelection>(answer, 'fields'), answer.simulated);
    const count = result.fields.length;
    return fitted(2 + 2 * count, (n) =>
      wrap(
        {
          ...result,
          fields: result.fields.map((field, index) => ({
            ...field,
            definition: index < n - 2 ? field.definition : null,
            examples: index < n - 2 - count ? field.examples : [],
          })),
        },
        { fields: n >= 1, caveats: n >= 2 },
      ),
    );
  };

  server.registerTool(
    'describe_dataset',
    {
      title: 'Describe a dataset (อธิบายชุดข้อมูล)',
      description: DESCRIPTIONS.describe_dataset,
      inputSchema: { dataset: datasetCode },
      outputSchema: {
        dataset: z.enum(DATASET_CODES),
        title: z.string(),
        titleEn: z.string(),
        coverage: z.object({
          geography: z
            .enum(GEOGRAPHIES)
            .describe('NATIONAL totals, BY_PROVINCE, BANGKOK_ONLY, or BY_INSTITUTION (school by school).'),
          description: z.string().describe('The area the records cover, in words (dataset 13: OVEC colleges only).'),
          referencePeriod: z
            .string()
            .nullable()
            .describe('The academic years the records hold, or the day they were read; null when not read.'),
        }),
        recordCount: z.number().int().nullable(),
        fields: z.array(fieldDescription),
        provenance: provenanceSchema,
      },
      annotations: READ_ONLY,
    },
    async ({ dataset }) => {
      try {
        return await describe(dataset, (result, text) => answered(describeText(result, text), result));
      } catch (error) {
        return refused(error);
      }
    },
  );

  server.registerTool(
    'query_statistic',
    {
      title: 'Compute a figure (คำนวณสถิติ)',
      description: DESCRIPTIONS.query_statistic,
      inputSchema: {
        dataset: datasetCode,
        sum: z
          .string()
          .describe(
            'The numeric field to add up, e.g. TOTAL or TEACHER_COUNT (describe_dataset lists them with units).',
          ),
        where,
        groupBy: z
          .array(z.string())
          .max(5)
          .optional()
          .describe('Fields to break the figure down by, e.g. ["PROVINCE_NAME"] or ["GENDER"]; none: one figure.'),
      },
      outputSchema: {
        dataset: z.enum(DATASET_CODES),
        sum: z.string(),
        value: z.number().nullable().optional().describe('The figure when no groupBy; null when no record matched.'),
        groups: z
          .array(row)
          .optional()
          .describe('With groupBy: one object per group, its keys, the sum under the `sum` field name, and `count`.'),
        groupCount: z.number().int().optional(),
        truncated: z.boolean().describe('True when groups were left out to keep the result within its size bound.'),
        rowCount: z.number().int().describe('How many records matched `where`: 0 means no figure.'),
        provenance: provenanceSchema,
      },
      annotations: READ_ONLY,
    },
    async ({ dataset: code, sum, where: filters, groupBy = [] }) => {
      try {
        const answer = await call(
          /* GraphQL */ `
            query McpQueryStatistic(
              $code: DatasetCode!
              $sum: [String!]!
              $groupBy: [String!]!
              $where: [RecordFilter!]
            ) {
              dataset(code: $code) {
                ...Provenance
                aggregate(sum: $sum, groupBy: $groupBy, where: $where)
              }
            }
            ${PROVENANCE_FRAGMENT}
          `,
          { code, sum: [sum], groupBy, where: filters ?? null },
        );
        const dataset = datasetOf<ProvenanceSelection & { aggregate: Record<string, unknown>[] | null }>(
          answer,
          'aggregate',
        );
        const groups = dataset.aggregate ?? [];
        const rowCount = groups.reduce(
          (total, group) => total + (typeof group['count'] === 'number' ? group['count'] : 0),
          0,
        );
        const provenance = provenanceOf(dataset, answer.simulated);
        const scope = `${sum} of ${code} over ${filterText(filters)}`;
        if (rowCount === 0) {
          const structured = {
            dataset: code,
            sum,
            ...(groupBy.length === 0 ? { value: null } : { groups: [], groupCount: 0 }),
            truncated: false,
            rowCount,
            provenance,
          };
          return answered(
            `No record matches (rowCount 0): ${scope}. There is no figure to report; check field names and value ` +
              'spellings with describe_dataset (values are mostly Thai, e.g. เชียงใหม่).',
            structured,
          );
        }
        if (groupBy.length === 0) {
          const value = groups[0]?.[sum];
          const figure = typeof value === 'number' ? value : null;
          return answered(
            `${scope}: ${formatNumber(figure)} (from ${formatNumber(rowCount)} records). Source: ${provenance.citation}`,
            { dataset: code, sum, value: figure, truncated: false, rowCount, provenance },
          );
        }
        const build = (n: number) => {
          const structured = {
            dataset: code,
            sum,
            groups: groups.slice(0, n),
            groupCount: groups.length,
            truncated: n < groups.length,
            rowCount,
            provenance,
          };
          const first = structured.groups
            .slice(0, 5)
            .map((group) => `${groupBy.map((field) => String(group[field])).join(' / ')}: ${formatNumber(group[sum])}`);
          return answered(
            `${scope} by ${groupBy.join(', ')}: ${groups.length} groups from ${formatNumber(rowCount)} records` +
              `${structured.truncated ? ` (${structured.groups.length} shown within the size bound)` : ''}; ` +
              `${first.join('; ')}${structured.groups.length > 5 ? '; …' : ''}. Source: ${provenance.citation}`,
            structured,
          );
        };
        return fitted(groups.length, build);
      } catch (error) {
        return refused(error);
      }
    },
  );

  server.registerTool(
    'get_records',
    {
      title: 'Read records (อ่านระเบียน)',
      description: DESCRIPTIONS.get_records,
      inputSchema: {
        dataset: datasetCode,
        where,
        select: z
          .array(z.string())
          .optional()
          .describe('Only these fields in each row (describe_dataset lists them); all fields when omitted.'),
        limit: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            `Rows wanted; at most ${MAX_RESULT_ROWS} come per page (default 20), fewer if the page would be too large.`,
          ),
        cursor: z.string().optional().describe('nextCursor of the previous page (same dataset, where and select).'),
      },
      outputSchema: {
        rows: z.array(row),
        totalCount: z.number().int().describe('How many records match, over all pages.'),
        truncated: z.boolean().describe('More rows follow: call again with cursor: nextCursor.'),
        nextCursor: z.string().nullable(),
        provenance: provenanceSchema,
      },
      annotations: READ_ONLY,
    },
    async ({ dataset: code, where: filters, select, limit = 20, cursor }) => {
      try {
        const answer = await call(
          /* GraphQL */ `
            query McpGetRecords(
              $code: DatasetCode!
              $where: [RecordFilter!]
              $select: [String!]
              $first: Int!
              $after: String
            ) {
              dataset(code: $code) {
                ...Provenance
                records(where: $where, select: $select, first: $first, after: $after) {
                  totalCount
                  edges {
                    cursor
                    node
                  }
                  pageInfo {
                    hasNextPage
                  }
                }
              }
            }
            ${PROVENANCE_FRAGMENT}
          `,
          {
            code,
            where: filters ?? null,
            select: select ?? null,
            first: Math.min(limit, MAX_RESULT_ROWS),
            after: cursor ?? null,
          },
        );
        type Page = {
          totalCount: number;
          edges: { cursor: string; node: Record<string, unknown> }[];
          pageInfo: { hasNextPage: boolean };
        };
        const dataset = datasetOf<ProvenanceSelection & { records: Page | null }>(answer, 'records');
        const page = dataset.records as Page;
        const provenance = provenanceOf(dataset, answer.simulated);
        const structuredOf = (n: number) => {
          const shown = page.edges.slice(0, n);
          const more = n < page.edges.length || page.pageInfo.hasNextPage;
          return {
            rows: shown.map((edge) => edge.node),
            totalCount: page.totalCount,
            truncated: more,
            nextCursor: more ? (shown.at(-1)?.cursor ?? cursor ?? null) : null,
            provenance,
          };
        };
        const resultOf = (structured: ReturnType<typeof structuredOf>) =>
          answered(
            page.totalCount === 0
              ? `No record of ${code} matches ${filterText(filters)} (totalCount 0).`
              : `${structured.rows.length} of ${formatNumber(page.totalCount)} records of ${code} matching ` +
                  `${filterText(filters)} (rows in structuredContent)` +
                  (structured.truncated ? '; more follow: call again with cursor = nextCursor' : '') +
                  `. Source: ${provenance.citation}`,
            structured,
          );
        const result = fitted(page.edges.length, (n) => resultOf(structuredOf(n)));
        // A single row larger than the bound is replaced by a note rather than failing the call.
        return (result.structuredContent as ReturnType<typeof structuredOf>).rows.length === 0 && page.edges.length > 0
          ? resultOf({
              ...structuredOf(1),
              rows: [{ note: 'This record alone exceeds MCP_MAX_RESULT_BYTES: ask for fewer fields with select.' }],
            })
          : result;
      } catch (error) {
        return refused(error);
      }
    },
  );

  for (const entry of DATASETS) {
    server.registerResource(
      entry.code,
      datasetResourceUri(entry.code),
      {
        title: entry.title === entry.code ? entry.titleEn : `${entry.title} (${entry.titleEn})`,
        description: `Dataset ${entry.no}: metadata, licence, caveats and fields (describe_dataset's answer).`,
        mimeType: 'application/json',
      },
      async (uri) => {
        try {
          return await describe(entry.code, (result) => ({
            contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(result) }],
          }));
        } catch (error) {
          if (error instanceof ToolRefusal) throw new Error(error.message);
          throw error;
        }
      },
    );
  }
  return server;
}

/** The URI of a dataset's resource. */
export function datasetResourceUri(code: DatasetCode): string {
  return `thai-edu://datasets/${code}`;
}
