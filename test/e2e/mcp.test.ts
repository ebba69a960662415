/**
 * MCP on the production build, through the SDK's own client: the built server (`node dist/main.js`, as operators run
 * it, reading a simulator over the network) over Streamable HTTP at /mcp, and over stdio through the built
 * `thai-edu-graphql-mcp` relay. Every figure is compared with the GraphQL API's own answer for the same filter, every
 * result with MCP_MAX_RESULT_BYTES.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_CODES } from '../../src/catalogue.js';
import { jsonBytes } from '../../src/mcp/bounded.js';
import { startSimulator } from '../../src/simulator/server.js';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { startLoopbackServer } from '../helpers/loopback-server.js';
import { startServerProcess } from '../helpers/server-process.js';
import { runnableEntry, transpiledCheckout } from '../helpers/transpiled-source.js';

const TEACHERS = 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER';
const CHIANG_MAI = 'เชียงใหม่';
const DEFAULT_MAX_BYTES = 32 * 1024;
/** 800 province names no record has, some 30 KB as JSON: a filter an assistant might build from a list. */
const LONG_LIST = Array.from({ length: 800 }, (_, i) => `จังหวัดที่ไม่มีในข้อมูล ${i}`);

type Structured = Record<string, unknown>;

/**
 * The production build's server (`node dist/main.js`) for the enclosing suite, with `env`, reading `upstream` (a
 * simulator over the network unless given: its figures are not the embedded simulator's, so `simulated` is false).
 */
function useBuiltServer(env: Record<string, string> = {}, upstream?: RequestListener): () => { origin: string } {
  let started: { origin: string; stop(): Promise<unknown> } | undefined;
  beforeAll(async () => {
    const source =
      upstream === undefined
        ? await startSimulator({ apiKey: 'mcp-upstream-key' }).then((simulator) => ({
            origin: simulator.url,
            close: () => simulator.close(),
          }))
        : await startLoopbackServer(upstream);
    const server = await startServerProcess({
      UPSTREAM_BASE_URL: source.origin,
      UPSTREAM_API_KEY: 'mcp-upstream-key',
      ...env,
    });
    started = {
      origin: new URL(server.endpoint).origin,
      stop: async () => {
        await server.stop();
        await source.close();
      },
    };
  });
  afterAll(() => started?.stop());
  return () => {
    if (started === undefined) throw new Error('the server starts in beforeAll: use it inside a test');
    return { origin: started.origin };
  };
}

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

  it('keeps a result within the byte bound however long its filter, which the text does not repeat whole', async () => {
    const where = [{ field: 'PROVINCE_NAME', in: [CHIANG_MAI, ...LONG_LIST] }];
    const records = await callTool(client, 'get_records', { dataset: TEACHERS, where, limit: 100_000 });
    expect(jsonBytes(records)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    expect((structured(records)['rows'] as unknown[]).length).toBeGreaterThan(0);
    const statistic = await callTool(client, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHER_COUNT', where });
    expect(jsonBytes(statistic)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    const { body } = await graphql(origin(), AGGREGATE, { code: TEACHERS, where, groupBy: [] });
    const dataset = body.data?.['dataset'] as { aggregate: { TEACHER_COUNT: number }[] };
    expect(structured(statistic)['value']).toBe(dataset.aggregate[0]?.TEACHER_COUNT);
    expect(textOf(statistic)).toContain((structured(statistic)['value'] as number).toLocaleString('en-US'));
  });

  it('names the tool to call first for an unknown field or dataset code', async () => {
    const field = await callTool(client, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHERZ' });
    expect(field.isError).toBe(true);
    expect(textOf(field)).toContain('describe_dataset');
    const code = await callTool(client, 'describe_dataset', { dataset: 'ODS_NO_SUCH_DATASET' });
    expect(code.isError).toBe(true);
    expect(textOf(code)).toContain('find_datasets');
  });

  it('says what a cursor is when one is not a nextCursor, in the tool’s own words', async () => {
    const bad = await callTool(client, 'get_records', { dataset: TEACHERS, cursor: 'not-a-cursor' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('BAD_USER_INPUT');
    expect(textOf(bad)).toContain('without cursor');
    expect(textOf(bad)).not.toContain('`after`');
    expect(textOf(bad)).not.toContain('describe_dataset');
  });
}

describe('MCP over Streamable HTTP', () => {
  const started = useBuiltServer({ CORS_ORIGINS: 'https://portal.example' });
  sharedSuite(
    () => connectHttp(started().origin),
    () => started().origin,
  );

  it('sends at most MCP_MAX_RESULT_BYTES on the wire, the JSON-RPC envelope included', async () => {
    const call = async (name: string, args: Record<string, unknown>): Promise<number> => {
      const response = await fetch(`${started().origin}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      expect(response.status).toBe(200);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const body = JSON.parse(new TextDecoder().decode(bytes)) as { result: CallToolResult };
      expect(body.result.isError ?? false).toBe(false);
      return bytes.byteLength;
    };
    const where = [{ field: 'PROVINCE_NAME', in: [CHIANG_MAI, ...LONG_LIST] }];
    expect(await call('get_records', { dataset: LARGEST_DATASET, limit: 100_000 })).toBeLessThanOrEqual(
      DEFAULT_MAX_BYTES,
    );
    expect(await call('get_records', { dataset: TEACHERS, where, limit: 100 })).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    expect(await call('query_statistic', { dataset: TEACHERS, sum: 'TEACHER_COUNT', where })).toBeLessThanOrEqual(
      DEFAULT_MAX_BYTES,
    );
  });

  it('takes where as records(where:) takes it: the operators of GraphQL’s RecordFilter, no more, no fewer', async () => {
    const client = await connectHttp(started().origin);
    const { tools } = await client.listTools();
    await client.close();
    const { body } = await graphql(started().origin, '{ __type(name: "RecordFilter") { inputFields { name } } }');
    const graphqlFields = (body.data?.['__type'] as { inputFields: { name: string }[] }).inputFields.map(
      ({ name }) => name,
    );
    for (const name of ['query_statistic', 'get_records']) {
      const schema = tools.find((tool) => tool.name === name)?.inputSchema as unknown as {
        properties: { where: { items: { properties: Record<string, unknown>; required: string[] } } };
      };
      expect(Object.keys(schema.properties.where.items.properties).sort(), name).toEqual([...graphqlFields].sort());
      expect(schema.properties.where.items.required, name).toEqual(['field']);
    }
  });

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
  const started = useBuiltServer();
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
  const started = useBuiltServer({
    RATE_LIMIT_POINTS: '5',
    RATE_LIMIT_WINDOW_S: '3600',
    MCP_MAX_RESULT_BYTES: '4096',
  });

  it('refuses the sixth call across MCP and GraphQL together', async () => {
    const { origin } = started();
    const client = await connectHttp(origin);
    // Two operations, not one twice: an anonymous answer from the response cache costs an eighth of a token.
    const count = { query: '{ dataset(code: V10_DUPWITH) { recordCount } }' };
    expect((await graphql(origin, count.query)).status).toBe(200);
    structured(await callTool(client, 'find_datasets', { query: 'ครู' }));
    expect((await graphql(origin, '{ dataset(code: V10_DUPWITH) { code recordCount } }')).status).toBe(200);
    // The fourth: its text (fields, caveats, citation) counts towards the bound with its structuredContent.
    const fourth = await callTool(client, 'describe_dataset', { dataset: TEACHERS });
    expect(jsonBytes(fourth)).toBeLessThanOrEqual(4_096);
    expect((structured(fourth)['fields'] as unknown[]).length).toBeGreaterThan(0);
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

describe('MCP on records an upstream keys and values with Object.prototype’s names', () => {
  // Every name Object.prototype has, and __proto__ itself, as a key of one record, and some as the values a figure
  // is grouped by: a tool that kept rows or groups in a plain object would lose them or reach the prototype.
  const HOSTILE_KEYS = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'];
  const hostile = HOSTILE_KEYS.map((key) => `${JSON.stringify(key)}:${JSON.stringify(`own ${key}`)}`).join(',');
  const plain = [
    ['constructor', 2],
    ['toString', 3],
    ['hasOwnProperty', 4],
    ['__proto__', 1],
  ].map(([name, count], i) => JSON.stringify({ ID: `r${i}`, NAME: name, COUNT: count }));
  const body = `{"data":[{"ID":"hostile","NAME":"__proto__","COUNT":5,${hostile}},${plain.join(',')}]}`;
  const started = useBuiltServer({}, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  const CODE = 'V10_DUPWITH';
  let client: Client;
  beforeAll(async () => {
    client = await connectHttp(started().origin);
  });
  afterAll(() => client.close());

  /** GraphQL's answer for the same dataset, as JSON text (own __proto__ keys and all). */
  const graphqlJson = async (selection: string, variables: Record<string, unknown>): Promise<string> => {
    const types: Record<string, string> = { where: '[RecordFilter!]', select: '[String!]', groupBy: '[String!]!' };
    const declared = Object.keys(variables).map((name) => `, $${name}: ${types[name] ?? 'String'}`);
    const { body: answer } = await graphql(
      started().origin,
      `query ($code: DatasetCode!${declared.join('')}) { dataset(code: $code) { ${selection} } }`,
      { code: CODE, ...variables },
    );
    expect(answer.errors).toBeUndefined();
    return JSON.stringify(answer.data?.['dataset']);
  };

  it('describes, reads and filters them as GraphQL does, own keys as own keys', async () => {
    const described = structured(await callTool(client, 'describe_dataset', { dataset: CODE }));
    const keys = (described['fields'] as { key: string }[]).map(({ key }) => key);
    for (const key of HOSTILE_KEYS) expect(keys, key).toContain(key);

    const select = ['ID', '__proto__', 'constructor', 'toString'];
    const all = structured(await callTool(client, 'get_records', { dataset: CODE, select, limit: 100 }));
    expect(JSON.stringify({ rows: all['rows'] })).toBe(
      JSON.stringify({
        rows: (
          JSON.parse(await graphqlJson('records(select: $select, first: 100) { edges { node } }', { select })) as {
            records: { edges: { node: unknown }[] };
          }
        ).records.edges.map(({ node }) => node),
      }),
    );
    const first = (all['rows'] as Record<string, unknown>[])[0] ?? {};
    expect(Object.getOwnPropertyDescriptor(first, '__proto__')?.value).toBe('own __proto__');
    expect(Object.getOwnPropertyDescriptor(first, 'constructor')?.value).toBe('own constructor');

    for (const where of [
      [{ field: '__proto__', eq: 'own __proto__' }],
      [{ field: 'NAME', eq: '__proto__' }],
      [{ field: 'NAME', in: ['constructor', 'toString'] }],
    ]) {
      const page = structured(await callTool(client, 'get_records', { dataset: CODE, where, select: ['ID'] }));
      const edges = JSON.parse(
        await graphqlJson('records(where: $where, select: $select) { totalCount edges { node } }', {
          where,
          select: ['ID'],
        }),
      ) as { records: { totalCount: number; edges: { node: unknown }[] } };
      expect(page['rows'], JSON.stringify(where)).toEqual(edges.records.edges.map(({ node }) => node));
      expect(page['totalCount'], JSON.stringify(where)).toBe(edges.records.totalCount);
      expect(edges.records.totalCount, JSON.stringify(where)).toBeGreaterThan(0);
    }
  });

  it('sums and groups by them as aggregate does, and the server serves on', async () => {
    for (const groupBy of [['NAME'], ['constructor'], ['__proto__', 'NAME']]) {
      const answer = structured(await callTool(client, 'query_statistic', { dataset: CODE, sum: 'COUNT', groupBy }));
      const expected = JSON.parse(await graphqlJson('aggregate(sum: ["COUNT"], groupBy: $groupBy)', { groupBy })) as {
        aggregate: unknown[];
      };
      expect(JSON.stringify(answer['groups']), groupBy.join()).toBe(JSON.stringify(expected.aggregate));
      expect(answer['rowCount'], groupBy.join()).toBe(5);
    }
    const proto = structured(
      await callTool(client, 'query_statistic', {
        dataset: CODE,
        sum: 'COUNT',
        where: [{ field: 'NAME', eq: '__proto__' }],
      }),
    );
    expect(proto['value']).toBe(6);
    expect(proto['rowCount']).toBe(2);
    // Summing a key whose values are text: whatever the answer, a tool answer, not a crash.
    const text = await callTool(client, 'query_statistic', { dataset: CODE, sum: 'toString' });
    expect(text.content.length).toBeGreaterThan(0);
    expect((await fetch(`${started().origin}/health`)).status).toBe(200);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(4);
  });
});

describe('MCP with a client’s key', () => {
  const started = useBuiltServer({ RATE_LIMIT_POINTS: '5', RATE_LIMIT_WINDOW_S: '3600' });

  it('runs each tool’s operation as that client: its own bucket, not the address’s', async () => {
    const { origin } = started();
    const registered = await graphql(
      origin,
      'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey } }',
      { input: { name: 'mcp key test', contactEmail: 'mcp.key.test@example.org' } },
    );
    const apiKey = (registered.body.data?.['registerClient'] as { apiKey: string }).apiKey;
    // The address's bucket (anonymous callers from this address) is spent…
    let status = 200;
    // (each operation a new one: an anonymous answer from the response cache costs less)
    for (let calls = 0; status !== 429 && calls < 10; calls++)
      status = (await graphql(origin, `{ call${calls}: dataset(code: V10_DUPWITH) { recordCount } }`)).status;
    expect(status).toBe(429);
    const anonymous = await connectHttp(origin);
    const refused = await callTool(anonymous, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHER_COUNT' });
    expect(textOf(refused)).toContain('RATE_LIMITED');
    await anonymous.close();
    // …while the client's, which the tool's operation draws on when the key is passed through, is full.
    const client = await connectHttp(origin, { authorization: `Bearer ${apiKey}` });
    const answer = structured(await callTool(client, 'query_statistic', { dataset: TEACHERS, sum: 'TEACHER_COUNT' }));
    expect(answer['rowCount']).toBeGreaterThan(0);
    await client.close();
  });
});
