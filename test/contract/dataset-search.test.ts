/**
 * The catalogue's one search through every door, on the production build over a socket: GraphQL's
 * `datasets(search:)`, MCP's find_datasets (through the SDK's own client), and CKAN's package_search `q`. A
 * province, in Thai or English, finds the datasets that hold rows for it (Nos. 7, 9 and 13) in all three.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { useListeningStack } from '../helpers/stack.js';

type Json = Record<string, unknown>;

const HOLDING_CHIANG_MAI = [
  'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST',
  'MV_DWH_SCHOOL1',
  'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
];

async function graphql(origin: string, query: string, variables: Json = {}): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

const SEARCH = 'query ($search: String, $group: DataGroup) { datasets(search: $search, group: $group) { code } }';

async function searched(origin: string, search: string, group?: string): Promise<string[]> {
  const { status, body } = await graphql(origin, SEARCH, { search, group });
  expect(status, JSON.stringify(body)).toBe(200);
  return ((body['data'] as { datasets: { code: string }[] }).datasets ?? []).map(({ code }) => code);
}

describe('one search of the catalogue, through GraphQL, MCP and CKAN', () => {
  const listening = useListeningStack();

  it('GraphQL datasets(search:): a province in Thai or English, the teachers, every word, group and bounds', async () => {
    const { origin } = listening();
    expect(await searched(origin, 'เชียงใหม่')).toEqual(HOLDING_CHIANG_MAI);
    expect(await searched(origin, 'Chiang Mai')).toEqual(HOLDING_CHIANG_MAI);
    expect(await searched(origin, 'chiang mai')).toEqual(HOLDING_CHIANG_MAI);
    // ครู finds Nos. 9 and 10 by their teacher fields, and No. 13 (filed under students), in catalogue order.
    const teachers = await searched(origin, 'ครู');
    expect(teachers).toEqual(
      expect.arrayContaining(['ODS_COUNT_TEACHER_BY_YEAR', 'MV_DWH_SCHOOL1', 'ZVIEW_CPS_SUMMARY_DATA']),
    );
    expect(teachers).toContain('ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER');
    const order = DATASETS.map((entry) => entry.code);
    expect([...teachers].sort((a, b) => order.indexOf(a as never) - order.indexOf(b as never))).toEqual(teachers);
    // Every word must be held: the teachers of Chiang Mai are in Nos. 9 and 13 only.
    expect(await searched(origin, 'ครู เชียงใหม่')).toEqual([
      'MV_DWH_SCHOOL1',
      'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
    ]);
    expect(await searched(origin, 'เชียงใหม่', 'SCHOOLS')).toEqual(['MV_DWH_SCHOOL1']);
    expect(await searched(origin, 'nothing-like-this')).toEqual([]);
    expect(await searched(origin, '')).toHaveLength(13);

    const long = await graphql(origin, SEARCH, { search: 'ครู'.repeat(200) });
    const [error] = long.body['errors'] as { extensions?: { code?: string } }[];
    expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('MCP find_datasets calls the same search', async () => {
    const { origin } = listening();
    const client = new Client({ name: 'search-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
    try {
      const find = async (query: string): Promise<{ matched: boolean; codes: string[] }> => {
        const result = (await client.callTool({ name: 'find_datasets', arguments: { query } })) as CallToolResult;
        expect(result.isError ?? false).toBe(false);
        const found = result.structuredContent as { matched: boolean; datasets: { code: string }[] };
        return { matched: found.matched, codes: found.datasets.map(({ code }) => code) };
      };
      expect(await find('เชียงใหม่')).toEqual({ matched: true, codes: HOLDING_CHIANG_MAI });
      expect(await find('Chiang Mai')).toEqual({ matched: true, codes: HOLDING_CHIANG_MAI });
      expect(await find('how many teachers in Chiang Mai?')).toEqual({
        matched: true,
        codes: ['MV_DWH_SCHOOL1', 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER'],
      });
      // No dataset names a year: the datasets holding the other words, those holding more first.
      const withYear = await find('teachers in เชียงใหม่ 2566');
      expect(withYear.matched).toBe(true);
      expect(withYear.codes.slice(0, 2)).toEqual([
        'MV_DWH_SCHOOL1',
        'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
      ]);
      const nothing = await find('zzzz qqqq');
      expect(nothing).toMatchObject({ matched: false });
      expect(nothing.codes).toHaveLength(13);
    } finally {
      await client.close();
    }
  });

  it('CKAN package_search q finds the same datasets', async () => {
    const { origin } = listening();
    for (const q of ['เชียงใหม่', 'Chiang Mai']) {
      const response = await fetch(`${origin}/api/3/action/package_search?q=${encodeURIComponent(q)}&rows=100`);
      const { result } = (await response.json()) as { result: { results: { name: string }[] } };
      expect(result.results.map(({ name }) => name.toUpperCase()).sort()).toEqual([...HOLDING_CHIANG_MAI].sort());
    }
  });
});
