/**
 * MCP on the production build, through the SDK's own client: over Streamable HTTP at /mcp, and over stdio through
 * the built `thai-edu-graphql-mcp` relay. Every figure is compared with the GraphQL API's own answer for the same
 * filter, every result with MCP_MAX_RESULT_BYTES.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_CODES } from '../../src/catalogue.js';
import { jsonBytes } from '../../src/mcp/bounded.js';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { runnableEntry, transpiledCheckout } from '../helpers/transpiled-source.js';
import { useListeningStack } from '../helpers/stack.js';

const TEACHERS = 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER';
const CHIANG_MAI = 'เชียงใหม่';
const DEFAULT_MAX_BYTES = 32 * 1024;

type Structured = Record<string, unknown>;

async function connectHttp(origin: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers } }));
  return client;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function structured(result: CallToolResult): Structured {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as Structured;
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** POSTs a GraphQL operation over the socket, as any client would. */
async function graphql(
  origin: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{
  status: number;
  body: { data?: Record<string, unknown>; errors?: { extensions?: { code?: string } }[] };
}> {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

const AGGREGATE = `query ($code: DatasetCode!, $where: [RecordFilter!], $groupBy: [String!]!) {
  dataset(code: $code) { aggregate(sum: ["TEACHER_COUNT"], groupBy: $groupBy, where: $where) recordCount(where: $where) }
}`;

/** What every tool's provenance must hold. */
function expectFullProvenance(given: unknown, code: string): void {
  const provenance = given as {
    dataset: string;
    title: string;
    upstreamUrl: string;
    fetchedAt: string;
    version: string;
    licence: { name: string; url: string };
    citation: string;
    caveats: string[];
    simulated: boolean;
  };
  expect(provenance.dataset).toBe(code);
  expect(provenance.title.length).toBeGreaterThan(0);
  expect(provenance.upstreamUrl).toContain(`/services/v1/api/${code}`);
  expect(provenance.fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(provenance.version.length).toBeGreaterThan(0);
  expect(provenance.licence.name).toBe('Open Government License - Thailand');
  expect(provenance.licence.url).toMatch(/^https:/);
  expect(provenance.simulated).toBe(false);
  expect(provenance.citation).toContain(code);
  expect(provenance.citation).toContain(provenance.upstreamUrl);
  expect(provenance.citation).toContain('Open Government License - Thailand');
  expect(provenance.citation).toMatch(/retrieved \d{4}-\d\d-\d\d/);
  expect(provenance.caveats.join(' ')).toMatch(/พ\.ศ\.|Buddhist/);
}

/** The tests both transports pass, given a connected client and the server's origin. */
function sharedSuite(connect: () => Promise<Client>, origin: () => string): void {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('lists the four read-only tools with input and output schemas, and a resource per dataset', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'describe_dataset',
      'find_datasets',
      'get_records',
      'query_statistic',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(100);
    }
    const statistic = tools.find((tool) => tool.name === 'query_statistic');
    expect(JSON.stringify(statistic?.inputSchema)).toContain(TEACHERS);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.name)).toEqual([...DATASET_CODES]);
  });

  it('finds the teachers dataset from "teachers in เชียงใหม่"', async () => {
    const found = structured(await callTool(client, 'find_datasets', { query: `teachers in ${CHIANG_MAI}` }));
    const codes = (found['datasets'] as { code: string }[]).map((dataset) => dataset.code);
    expect(found['matched']).toBe(true);
    expect(codes).toContain(TEACHERS);
    expect(codes).not.toContain('V10_DUPWITH');
    // No dataset names a year: the catalogue's search lists those holding the other words, more first (the relay
    // runs that ranking itself, from the package's shapes file).
    const withYear = structured(await callTool(client, 'find_datasets', { query: `teachers in ${CHIANG_MAI} 2566` }));
    expect(withYear['matched']).toBe(true);
    expect((withYear['datasets'] as { code: string }[]).slice(0, 2).map(({ code }) => code)).toEqual([
      'MV_DWH_SCHOOL1',
      TEACHERS,
    ]);
  });

  it('gives the figure GraphQL aggregate gives for teachers in เชียงใหม่, with full provenance', async () => {
    const where = [{ field: 'PROVINCE_NAME', eq: CHIANG_MAI }];
    const result = await callTool(client, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHER_COUNT', where });
    const answer = structured(result);
    const { body } = await graphql(origin(), AGGREGATE, { code: TEACHERS, where, groupBy: [] });
    const dataset = body.data?.['dataset'] as {
      aggregate: { TEACHER_COUNT: number; count: number }[];
      recordCount: number;
    };
    expect(dataset.recordCount).toBeGreaterThan(0);
    expect(answer['value']).toBe(dataset.aggregate[0]?.TEACHER_COUNT);
    expect(answer['rowCount']).toBe(dataset.recordCount);
    expectFullProvenance(answer['provenance'], TEACHERS);
    expect(textOf(result)).toContain((answer['value'] as number).toLocaleString('en-US'));
    expect(textOf(result)).toContain('Source:');
  });

  it('breaks a figure down by groups equal to aggregate’s', async () => {
    const answer = structured(
      await callTool(client, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHER_COUNT', groupBy: ['GENDER'] }),
    );
    const { body } = await graphql(origin(), AGGREGATE, { code: TEACHERS, groupBy: ['GENDER'] });
    const dataset = body.data?.['dataset'] as { aggregate: unknown[]; recordCount: number };
    expect(answer['groups']).toEqual(dataset.aggregate);
    expect(answer['rowCount']).toBe(dataset.recordCount);
  });

  it('says rowCount 0, and gives no figure, for a province with no rows', async () => {
    const where = [{ field: 'PROVINCE_NAME', eq: 'จังหวัดที่ไม่มี' }];
    const result = await callTool(client, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHER_COUNT', where });
    const answer = structured(result);
    expect(answer['rowCount']).toBe(0);
    expect(answer['value']).toBeNull();
    expect(textOf(result)).toContain('rowCount 0');
    const { body } = await graphql(origin(), AGGREGATE, { code: TEACHERS, where, groupBy: [] });
    expect((body.data?.['dataset'] as { recordCount: number }).recordCount).toBe(0);
  });

  it('describes a dataset: fields with definitions and units, and its provenance', async () => {
    const answer = structured(await callTool(client, 'describe_dataset', { dataset: TEACHERS }));
    const fields = answer['fields'] as { key: string; unit: string | null; examples: unknown[] }[];
    expect(fields.map((field) => field.key)).toEqual(
      expect.arrayContaining(['PROVINCE_NAME', 'TEACHER_COUNT', 'GENDER']),
    );
    expect(fields.find((field) => field.key === 'PROVINCE_NAME')?.examples.length).toBeGreaterThan(0);
    expectFullProvenance(answer['provenance'], TEACHERS);
    expect((answer['provenance'] as { caveats: string[] }).caveats.length).toBeGreaterThanOrEqual(3);
  });

  it('reads a dataset resource', async () => {
    const read = await client.readResource({ uri: `thai-edu://datasets/${TEACHERS}` });
    const content = read.contents[0] as { text: string };
    expect(JSON.parse(content.text)).toMatchObject({ dataset: TEACHERS, provenance: { dataset: TEACHERS } });
  });

  it('keeps get_records with a huge limit within the byte bound, and pages on with nextCursor', async () => {
    const first = await callTool(client, 'get_records', { dataset: LARGEST_DATASET, limit: 100_000 });
    const page = structured(first);
    expect(jsonBytes(first)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    const rows = page['rows'] as unknown[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(100);
    expect(page['truncated']).toBe(true);
    const second = await callTool(client, 'get_records', {
      dataset: LARGEST_DATASET,
      limit: 100_000,
      cursor: page['nextCursor'],
    });
    const next = structured(second);
    expect(jsonBytes(second)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    const { body } = await graphql(
      origin(),
      `
        query ($code: DatasetCode!, $first: Int!) {
          dataset(code: $code) {
            records(first: $first) {
              edges {
                node
              }
            }
          }
        }
      `,
      { code: LARGEST_DATASET, first: rows.length + (next['rows'] as unknown[]).length },
    );
    const edges = (body.data?.['dataset'] as { records: { edges: { node: unknown }[] } }).records.edges;
    expect([...rows, ...(next['rows'] as unknown[])]).toEqual(edges.map((edge) => edge.node));
  });

  it('names the tool to call first for an unknown field or dataset code', async () => {
    const field = await callTool(client, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHERZ' });
    expect(field.isError).toBe(true);
    expect(textOf(field)).toContain('describe_dataset');
    const code = await callTool(client, 'describe_dataset', { dataset: 'ODS_NO_SUCH_DATASET' });
    expect(code.isError).toBe(true);
    expect(textOf(code)).toContain('find_datasets');
  });
}

describe('MCP over Streamable HTTP', () => {
  const started = useListeningStack({ http: { corsOrigins: ['https://portal.example'] } });
  sharedSuite(
    () => connectHttp(started().origin),
    () => started().origin,
  );

  it('refuses a bad key with 401, as /graphql does', async () => {
    const connecting = connectHttp(started().origin, { authorization: 'Bearer teg_not-a-key' });
    await expect(connecting).rejects.toThrow(/UNAUTHENTICATED|401/);
    const response = await fetch(`${started().origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer teg_not-a-key',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a page of a foreign origin with 403, and serves an allowed one', async () => {
    const post = (origin: string) =>
      fetch(`${started().origin}/mcp`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const foreign = await post('https://evil.example');
    expect(foreign.status).toBe(403);
    const body = (await foreign.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('FORBIDDEN');
    expect((await post('https://portal.example')).status).toBe(200);
  });
});

describe('MCP over stdio (the built thai-edu-graphql-mcp)', () => {
  const started = useListeningStack();
  sharedSuite(
    async () => {
      const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [runnableEntry(transpiledCheckout(), 'src/mcp/stdio.ts')],
          env: { PATH: process.env['PATH'] ?? '', THAI_EDU_URL: `${started().origin}/graphql` },
          stderr: 'pipe',
        }),
      );
      return client;
    },
    () => started().origin,
  );

  it('answers a request with an error when the key is refused', async () => {
    const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
    const connecting = client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [runnableEntry(transpiledCheckout(), 'src/mcp/stdio.ts')],
        env: { PATH: process.env['PATH'] ?? '', THAI_EDU_URL: started().origin, THAI_EDU_API_KEY: 'teg_not-a-key' },
        stderr: 'pipe',
      }),
    );
    await expect(connecting).rejects.toThrow(/UNAUTHENTICATED|401/);
    await client.close();
  });
});

describe('MCP and GraphQL share one rate-limit bucket', () => {
  const started = useListeningStack({ rateLimit: { points: 5, windowS: 3_600 }, http: { mcpMaxResultBytes: 4_096 } });

  it('refuses the sixth call across MCP and GraphQL together', async () => {
    const { origin } = started();
    const client = await connectHttp(origin);
    const count = { query: '{ dataset(code: V10_DUPWITH) { recordCount } }' };
    expect((await graphql(origin, count.query)).status).toBe(200);
    structured(await callTool(client, 'find_datasets', { query: 'ครู' }));
    expect((await graphql(origin, count.query)).status).toBe(200);
    structured(await callTool(client, 'describe_dataset', { dataset: 'V10_DUPWITH' }));
    const fifth = await callTool(client, 'get_records', { dataset: LARGEST_DATASET, limit: 100 });
    // A smaller bound: fewer rows than asked, still within it, and the rest behind nextCursor.
    expect(jsonBytes(fifth)).toBeLessThanOrEqual(4_096);
    expect((structured(fifth)['rows'] as unknown[]).length).toBeLessThan(100);
    expect(typeof structured(fifth)['nextCursor']).toBe('string');
    const sixth = await callTool(client, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHER_COUNT' });
    expect(sixth.isError).toBe(true);
    expect(textOf(sixth)).toContain('RATE_LIMITED');
    const refused = await graphql(origin, count.query);
    expect(refused.status).toBe(429);
    await client.close();
  });
});
