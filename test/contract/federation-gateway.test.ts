import { createServer } from 'node:http';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { composeServices } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBGRAPH_PATH, SUBGRAPH_TOKEN_HEADER } from '../../src/federation/subgraph-yoga.js';
import { SCHOOLS_SUBGRAPH } from '../helpers/federation.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { OPERATOR } from '../helpers/callers.js';
import { useListeningStack } from '../helpers/stack.js';

const TOKEN = 'router-token-2b8d4f6a0c1e3a5c7e9f';

/** The second subgraph, served by a plain @apollo/subgraph schema on its own loopback port. */
function schoolsSubgraph() {
  const province = (code: string) => ({
    code,
    schoolCount: Number(code) * 10,
    busiestDataset: { code: 'MV_DWH_SCHOOL1' },
  });
  const schema = buildSubgraphSchema({
    typeDefs: parse(SCHOOLS_SUBGRAPH),
    resolvers: {
      Query: { largestProvince: () => province('30') },
      Province: { __resolveReference: ({ code }: { code: string }) => province(code) },
    },
  });
  const yoga = createYoga({ schema, graphqlEndpoint: '/graphql', logging: false });
  return createServer((request, response) => void yoga(request, response));
}

interface Answer {
  data?: unknown;
  errors?: unknown[];
}

describe('a Hive Gateway in front of /subgraph and a second subgraph', () => {
  const listening = useListeningStack({ http: { subgraphToken: TOKEN } });
  let schools: LoopbackServer;
  let gateway: ReturnType<typeof createGatewayRuntime>;

  beforeAll(async () => {
    schools = await listenOnLoopback(schoolsSubgraph());
    const { origin } = listening();
    const sdl = await fetch(`${origin}${SUBGRAPH_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SUBGRAPH_TOKEN_HEADER]: TOKEN },
      body: JSON.stringify({ query: '{ _service { sdl } }' }),
    }).then(async (response) => ((await response.json()) as { data: { _service: { sdl: string } } }).data._service.sdl);
    const composed = composeServices([
      { name: 'statistics', url: `${origin}${SUBGRAPH_PATH}`, typeDefs: parse(sdl) },
      { name: 'schools', url: `${schools.origin}/graphql`, typeDefs: parse(SCHOOLS_SUBGRAPH) },
    ]);
    if (composed.errors !== undefined) throw new Error(composed.errors.map(String).join('\n'));
    gateway = createGatewayRuntime({
      supergraph: composed.supergraphSdl,
      logging: false,
      // The router's secret to every subgraph, and the caller's own key passed on.
      propagateHeaders: {
        fromClientToSubgraphs: ({ request }) => ({
          [SUBGRAPH_TOKEN_HEADER]: TOKEN,
          authorization: request.headers.get('authorization') ?? undefined,
        }),
      },
    });
  });

  afterAll(async () => {
    await gateway?.dispose();
    await schools?.close();
  });

  async function viaGateway(query: string, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await gateway.fetch('http://gateway/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as Answer;
  }

  async function direct(query: string, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${listening().origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as Answer;
  }

  const CATALOGUE = '{ datasets { code title } }';
  const AGGREGATE =
    '{ dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) { code aggregate(groupBy: ["JURISDICTION_NAME"], sum: ["SCHOOL_COUNT"], where: [{ field: "ACADEMIC_YEAR", eq: "2566" }]) } }';

  it('answers the catalogue and an aggregate as /graphql does', async () => {
    for (const query of [CATALOGUE, AGGREGATE]) {
      const [gatewayAnswer, directAnswer] = [await viaGateway(query), await direct(query)];
      expect(directAnswer.errors).toBeUndefined();
      expect(gatewayAnswer).toEqual(directAnswer);
    }
  });

  it('joins across the subgraphs: a province with its schools, the datasets for it, and back', async () => {
    const answer = await viaGateway(
      '{ province(code: "50") { nameEn schoolCount datasets { code } busiestDataset { title } } largestProvince { nameTh } }',
    );
    expect(answer).toEqual({
      data: {
        province: {
          nameEn: 'Chiang Mai',
          schoolCount: 500,
          datasets: [
            { code: 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST' },
            { code: 'MV_DWH_SCHOOL1' },
            { code: 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER' },
          ],
          busiestDataset: { title: 'สถิติข้อมูลโรงเรียน' },
        },
        largestProvince: { nameTh: 'นครราชสีมา' },
      },
    });
  });

  it('is the only caller /subgraph answers over HTTP: without the token, or with another, 403', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { [SUBGRAPH_TOKEN_HEADER]: 'not-the-router-token-0000000000' },
      OPERATOR,
    ];
    for (const headers of attempts) {
      const response = await fetch(`${listening().origin}${SUBGRAPH_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ _service { sdl } }' }),
      });
      expect(response.status).toBe(403);
      expect(
        ((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
      ).toBe('FORBIDDEN');
    }
  });

  it('passes the caller’s key through: operator fields answer the operator only', async () => {
    expect(await viaGateway('{ useRequests { id } }', OPERATOR)).toEqual({ data: { useRequests: [] } });
    const anonymous = JSON.stringify(await viaGateway('{ useRequests { id } }'));
    expect(anonymous).toContain('UNAUTHENTICATED');
  });

  it('costs a hop: measured, printed for docs/operators/federation.md, not asserted', async () => {
    const rounds = 30;
    const time = async (ask: () => Promise<Answer>): Promise<number> => {
      await ask();
      const started = performance.now();
      for (let round = 0; round < rounds; round += 1) await ask();
      return (performance.now() - started) / rounds;
    };
    const directMs = await time(() => direct(CATALOGUE));
    const gatewayMs = await time(() => viaGateway(CATALOGUE));
    console.log(
      `gateway hop, { datasets { code title } }: direct ${directMs.toFixed(2)} ms, through the gateway ${gatewayMs.toFixed(2)} ms (+${(gatewayMs - directMs).toFixed(2)} ms)`,
    );
    expect(gatewayMs).toBeGreaterThan(0);
  });
});
