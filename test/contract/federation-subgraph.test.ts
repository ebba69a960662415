import { composeSchemaContract, composeServices } from '@theguild/federation-composition';
import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { SUBGRAPH_PATH, SUBGRAPH_TOKEN_HEADER } from '../../src/federation/subgraph-yoga.js';
import { approvedClientKey, bearer, OPERATOR } from '../helpers/callers.js';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { SCHOOLS_SUBGRAPH } from '../helpers/federation.js';
import { useStack, type Stack } from '../helpers/stack.js';

const TOKEN = 'router-token-7f3a9c1e5b2d4f6a8c0e';

async function subgraph(
  stack: Stack,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { data?: Record<string, unknown> | null; errors?: Record<string, unknown>[] } }> {
  const response = await stack.app.fetch(`http://localhost${SUBGRAPH_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

const SDL = '{ _service { sdl } }';

describe('the subgraph at /subgraph', () => {
  const stack = useStack();

  it('serves its SDL with the federation directives, and /graphql has no federation fields', async () => {
    const { body } = await subgraph(stack(), SDL);
    const sdl = (body.data?.['_service'] as { sdl: string }).sdl;
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.6"');
    expect(sdl).toMatch(/type Dataset implements Node\s+@key\(fields: "code"\)\s+@key\(fields: "id"\)/);
    expect(sdl).toMatch(/type SummaryEndpoint implements Node\s+@key\(fields: "endpointId"\)/);
    expect(sdl).toMatch(/type Province implements Node\s+@key\(fields: "code"\)/);
    expect(sdl).toMatch(/type PageInfo\s+@shareable/);
    expect(sdl).toMatch(/type Licence\s+@shareable/);
    expect(sdl).toContain('): ClientConnection! @tag(name: "operator")');

    const publicAnswer = await stack().post({
      query: '{ __schema { queryType { fields { name } } directives { name } } }',
    });
    const introspection = JSON.stringify(await publicAnswer.json());
    expect(introspection).not.toMatch(/_entities|_service|"key"|"shareable"|"tag"/);
    expect(introspection).toContain('"provinces"');
  });

  it('composes alone, with a second subgraph, and as a contract without the operator fields', async () => {
    const { body } = await subgraph(stack(), SDL);
    const ours = {
      name: 'statistics',
      url: 'http://statistics/subgraph',
      typeDefs: parse((body.data?.['_service'] as { sdl: string }).sdl),
    };
    const schools = { name: 'schools', url: 'http://schools/graphql', typeDefs: parse(SCHOOLS_SUBGRAPH) };

    const alone = composeServices([ours]);
    expect(alone.errors).toBeUndefined();
    const both = composeServices([ours, schools]);
    expect(both.errors).toBeUndefined();
    expect(both.publicSdl).toMatch(/type Province implements Node \{[^}]*schoolCount: Int!/s);
    expect(both.publicSdl).toContain('clients(');

    const contract = composeSchemaContract(
      [ours, schools],
      { include: new Set(), exclude: new Set(['operator']) },
      true,
    );
    expect(contract.errors).toBeUndefined();
    // The contract leaves out the operator's root fields (docs/operators/federation.md lists them), and only those.
    const rootFields = (sdl: string | undefined): Set<string> => {
      const composed = buildSchema(sdl ?? '');
      const roots = [composed.getQueryType(), composed.getMutationType(), composed.getSubscriptionType()];
      return new Set(roots.flatMap((root) => Object.keys(root?.getFields() ?? {})));
    };
    const kept = rootFields(contract.publicSdl);
    expect([...rootFields(both.publicSdl)].filter((field) => !kept.has(field)).sort()).toEqual([
      'clients',
      'disableClient',
      'enableClient',
      'eraseClient',
      'reviewUseRequest',
      'revokeUseRequest',
      'setClientQuota',
      'useRequests',
      'useRequestsPage',
    ]);
    expect(kept).toContain('datasets');
  });

  it('answers _entities in order: a dataset payload fetched once however many representations ask for it', async () => {
    const codes = DATASETS.map(({ code }) => code);
    const representations = [
      ...codes.map((code) => ({ __typename: 'Dataset', code })),
      ...codes.map((code) => ({ __typename: 'Dataset', id: `ds_${code}` })),
      { __typename: 'Province', code: '50' },
      { __typename: 'SummaryEndpoint', endpointId: 84 },
      { __typename: 'Province', code: '99' },
      { __typename: 'Dataset', code: 'NO_SUCH_DATASET' },
      { __typename: 'Province' },
    ];
    stack().simulator.resetRequests();
    // The subgraph's own schema, not /graphql's: no GraphQL magic comment, so codegen does not type it against /graphql.
    const { status, body } = await subgraph(
      stack(),
      `
        query Entities($representations: [_Any!]!) {
          _entities(representations: $representations) {
            __typename
            ... on Dataset {
              code
              payload
            }
            ... on Province {
              provinceCode: code
              nameEn
              datasets {
                code
              }
            }
            ... on SummaryEndpoint {
              endpointId
              status
            }
          }
        }
      `,
      { representations },
    );
    expect(body.errors?.filter(({ path }) => JSON.stringify(path) !== '["_entities",30]')).toEqual([]);
    expect(status).toBe(200);
    const entities = body.data?.['_entities'] as (Record<string, unknown> | null)[];
    expect(entities.slice(0, 26).map((entity) => entity?.['code'])).toEqual([...codes, ...codes]);
    expect(entities.slice(0, 26).every((entity) => entity?.['payload'] !== null)).toBe(true);
    expect(entities[26]).toMatchObject({ __typename: 'Province', provinceCode: '50', nameEn: 'Chiang Mai' });
    expect(entities[27]).toEqual({ __typename: 'SummaryEndpoint', endpointId: 84, status: 'NOT_REQUESTED' });
    expect(entities.slice(28, 30)).toEqual([null, null]);
    expect(entities[30]).toBeNull();
    expect(
      body.errors?.map(({ path, extensions }) => ({ path, code: (extensions as Record<string, unknown>)['code'] })),
    ).toEqual([{ path: ['_entities', 30], code: 'BAD_USER_INPUT' }]);
    // 26 representations of 13 datasets: 13 upstream fetches, one per distinct dataset.
    // Every request the upstream saw during the call, not only the datasets' paths.
    const upstreamCalls = stack().simulator.requests;
    expect(upstreamCalls).toHaveLength(13);
    expect(new Set(upstreamCalls.map(({ path }) => path)).size).toBe(13);
    expect(upstreamCalls.every(({ path }) => path.includes('/services/v1/api/'))).toBe(true);
  });

  it('authorizes _entities fields as /graphql does: the caller’s own status, operator fields refused', async () => {
    const ENDPOINT =
      '{ _entities(representations: [{ __typename: "SummaryEndpoint", endpointId: 83 }]) { ... on SummaryEndpoint { status payload } } }';
    const codes = (body: { errors?: Record<string, unknown>[] }) =>
      body.errors?.map(({ path, extensions }) => ({ path, code: (extensions as Record<string, unknown>)['code'] }));
    // Anonymous: the gated payload refused alone, as summaryEndpoint(endpointId: 83) { payload } is on /graphql.
    const anonymous = await subgraph(stack(), ENDPOINT);
    expect(anonymous.body.data).toEqual({ _entities: [{ status: 'NOT_REQUESTED', payload: null }] });
    expect(codes(anonymous.body)).toEqual([{ path: ['_entities', 0, 'payload'], code: 'USE_NOT_APPROVED' }]);
    const viaGraphql = (await (
      await stack().post({ query: '{ summaryEndpoint(endpointId: 83) { payload } }' })
    ).json()) as { errors?: Record<string, unknown>[] };
    expect(codes(viaGraphql)).toEqual([{ path: ['summaryEndpoint', 'payload'], code: 'USE_NOT_APPROVED' }]);
    // A client whose use the operator approved reads it through the subgraph with its own key.
    const apiKey = await approvedClientKey(stack().access, 'federated reader');
    const approved = await subgraph(stack(), ENDPOINT, {}, bearer(apiKey));
    expect(approved.body.errors).toBeUndefined();
    const [entity] = approved.body.data?.['_entities'] as { status: string; payload: unknown }[];
    expect(entity?.status).toBe('APPROVED');
    expect(entity?.payload).not.toBeNull();
    // Root fields only the operator may use.
    const operatorField = await subgraph(stack(), '{ useRequests { id } }');
    expect(codes(operatorField.body)).toEqual([{ path: ['useRequests'], code: 'UNAUTHENTICATED' }]);
  });
});

describe('the subgraph behind SUBGRAPH_TOKEN', () => {
  const stack = useStack({ http: { subgraphToken: TOKEN } });

  it('answers 403 with a coded error without the router’s token, or with another one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { [SUBGRAPH_TOKEN_HEADER]: `${TOKEN}x` },
      { [SUBGRAPH_TOKEN_HEADER]: '' },
    ];
    for (const headers of attempts) {
      const { status, body } = await subgraph(stack(), SDL, {}, headers);
      expect(status).toBe(403);
      expect(body.errors?.[0]?.['extensions']).toMatchObject({ code: 'FORBIDDEN' });
      expect(body.data).toBeUndefined();
    }
  });

  it('lets the router in, and the caller’s own Authorization still decides what it may read', async () => {
    const anonymous = await subgraph(stack(), '{ useRequests { id } }', {}, { [SUBGRAPH_TOKEN_HEADER]: TOKEN });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.errors?.[0]?.['extensions']).toMatchObject({ code: 'UNAUTHENTICATED' });
    const operator = await subgraph(
      stack(),
      '{ useRequests { id } }',
      {},
      { [SUBGRAPH_TOKEN_HEADER]: TOKEN, ...OPERATOR },
    );
    expect(operator.body).toEqual({ data: { useRequests: [] } });
  });

  it('leaves /graphql to anyone', async () => {
    const response = await stack().post({ query: '{ province(code: "50") { nameTh } }' });
    expect(await response.json()).toEqual({ data: { province: { nameTh: 'เชียงใหม่' } } });
  });
});

describe('the subgraph keeps the limits of /graphql', () => {
  const stack = useStack({ limits: { maxDepth: 3 } });

  it('refuses an _entities operation deeper than LIMIT_MAX_DEPTH as /graphql refuses it', async () => {
    const deep =
      '{ _entities(representations: [{ __typename: "Province", code: "50" }]) { ... on Province { datasets { records { totalCount } } } } }';
    const { body } = await subgraph(stack(), deep);
    const viaGraphql = await stack().post(
      { query: '{ province(code: "50") { datasets { records { totalCount } } } }' },
      { 'accept-language': 'en' },
    );
    const graphqlBody = (await viaGraphql.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.['extensions']).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'depth' });
    expect(graphqlBody.errors[0]?.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'depth' });
  });
});

/** The cost the cost limit found for `query`, from its refusal (every operation here is over LIMIT_MAX_COST). */
async function costOf(answer: Promise<{ body: { errors?: Record<string, unknown>[] } }>): Promise<number> {
  const { body } = await answer;
  const extensions = body.errors?.[0]?.['extensions'] as { limit?: string; cost?: number } | undefined;
  expect(extensions?.limit).toBe('cost');
  return extensions?.cost ?? Number.NaN;
}

describe('the subgraph prices _entities as /graphql prices the same fields', () => {
  // Admits one payload (50 points and its body's size), so the next ones are priced with the body known.
  const stack = useStack({ limits: { maxCost: 60 } });
  const SCHOOLS = 'MV_DWH_SCHOOL1';
  const ENTITIES =
    'query Entities($representations: [_Any!]!) { _entities(representations: $representations) { ... on Dataset { payload } } }';
  const representations = (count: number): Record<string, string>[] =>
    Array.from({ length: count }, (_, i): Record<string, string> =>
      i % 2 === 0 ? { __typename: 'Dataset', code: SCHOOLS } : { __typename: 'Dataset', id: `ds_${SCHOOLS}` },
    );

  it('charges every representation what its fields cost, its payload by its body, however the router sends them', async () => {
    const read = await stack().post({ query: `{ dataset(code: ${SCHOOLS}) { payload } }` });
    expect(((await read.json()) as { errors?: unknown }).errors).toBeUndefined();
    const viaGraphql = (query: string) =>
      stack()
        .post({ query })
        .then(async (response) => ({ body: (await response.json()) as { errors?: Record<string, unknown>[] } }));
    // Two payloads on /graphql: two `dataset` fields, 50 points each and the bodies' surcharge (rounded up once).
    const twoPayloads = await costOf(
      viaGraphql(`{ a: dataset(code: ${SCHOOLS}) { payload } b: dataset(code: ${SCHOOLS}) { payload } }`),
    );
    const payload = twoPayloads / 2 - 1;
    expect(payload).toBeGreaterThan(60);
    // Two representations (one by code, one by id) cost the same minus one: `_entities` is one field, not two.
    expect(await costOf(subgraph(stack(), ENTITIES, { representations: representations(2) }))).toBe(twoPayloads - 1);
    // Twenty are twenty payloads, whether sent as a variable or in the text (within the surcharge's rounding),
    // and the same document costs by the representations of each request, not those it was first priced with.
    const twenty = 1 + 20 * payload;
    expect(await costOf(subgraph(stack(), ENTITIES, { representations: representations(20) }))).toBeCloseTo(twenty, -1);
    const literal = JSON.stringify(representations(20)).replace(/"(__typename|code|id)":/g, '$1:');
    expect(
      await costOf(subgraph(stack(), `{ _entities(representations: ${literal}) { ... on Dataset { payload } } }`)),
    ).toBeCloseTo(twenty, -1);
    expect(await costOf(subgraph(stack(), ENTITIES, { representations: representations(2) }))).toBe(twoPayloads - 1);
  });
});

describe('the subgraph shares the rate limit of /graphql', () => {
  const stack = useStack({ rateLimit: { points: 3, windowS: 3_600 } });

  it('counts /subgraph operations in the caller’s bucket and refuses them with RATE_LIMITED', async () => {
    const fromIp = (path: string) =>
      stack().app.fetch(
        `http://localhost${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ provinces { code } }' }),
        },
        { req: { socket: { remoteAddress: '10.0.4.5' } } },
      );
    expect((await fromIp('/graphql')).status).toBe(200);
    expect((await fromIp('/graphql')).status).toBe(200);
    expect((await fromIp(SUBGRAPH_PATH)).status).toBe(200);
    const refused = await fromIp(SUBGRAPH_PATH);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'RATE_LIMITED',
    );
  });
});

describe('the subgraph keeps the answer budget of /graphql', () => {
  const BUDGET = 2 * 1_048_576;
  const stack = useStack({ limits: { maxResponseBytes: BUDGET, maxCost: 1_000_000 } });
  const entities = (count: number) =>
    `{ _entities(representations: [${Array.from({ length: count }, () => `{ __typename: "Dataset", code: "${LARGEST_DATASET}" }`).join(', ')}]) { ... on Dataset { records(first: 500) { edges { node } } } } }`;

  it('answers two pages of 500 records, and refuses forty alone at the budget, RESPONSE_TOO_LARGE once', async () => {
    const two = await subgraph(stack(), entities(2));
    expect(two.body.errors).toBeUndefined();
    const response = await stack().app.fetch(`http://localhost${SUBGRAPH_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: entities(40) }),
    });
    const text = await response.text();
    expect(text.length).toBeLessThan(BUDGET + 16 * 1024);
    const codes = ((JSON.parse(text) as { errors?: { extensions: { code: string } }[] }).errors ?? []).map(
      (error) => error.extensions.code,
    );
    expect(codes.filter((code) => code === 'RESPONSE_TOO_LARGE')).toHaveLength(1);
  });
});
