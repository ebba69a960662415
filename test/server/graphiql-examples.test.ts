import { describe, expect, it } from 'vitest';
import { GRAPHIQL_TABS } from '../../src/server/pages/graphiql-examples.js';
import { useStack } from '../helpers/stack.js';

// GraphiQL's example tabs are what a newcomer runs first: every one must run cleanly against the schema.
describe('GraphiQL example tabs', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 } });

  it.each(GRAPHIQL_TABS.map((tab) => [/query (\w+)/.exec(tab.query)?.[1] ?? 'unnamed', tab]))(
    '%s runs without errors, as it opens',
    async (_name, tab) => {
      const variables =
        tab.variables === undefined ? undefined : (JSON.parse(tab.variables) as Record<string, unknown>);
      const response = await stack().post({ query: tab.query, variables });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data?: unknown; errors?: unknown };
      expect(body.errors).toBeUndefined();
      expect(body.data).toBeDefined();
    },
  );

  it('the paging tab opens with its variables filled in, and its cursor leads to the next page', async () => {
    const tab = GRAPHIQL_TABS.find((candidate) => candidate.query.includes('query GraduatesPage'));
    const variables = JSON.parse(tab?.variables ?? '{}') as { province: string; first: number; after: null };
    expect(variables).toEqual({ province: 'เชียงใหม่', first: 20, after: null });
    type Page = {
      data: {
        dataset: {
          records: {
            totalCount: number;
            pageInfo: { hasNextPage: boolean; endCursor: string };
            edges: { node: { DISTRICT_NAME: string } }[];
          };
        };
      };
    };
    const first = (await (await stack().post({ query: tab?.query, variables })).json()) as Page;
    expect(first.data.dataset.records.edges).toHaveLength(20);
    expect(first.data.dataset.records.pageInfo.hasNextPage).toBe(true);
    const after = first.data.dataset.records.pageInfo.endCursor;
    const second = (await (
      await stack().post({ query: tab?.query, variables: { ...variables, after } })
    ).json()) as Page;
    expect(second.data.dataset.records.edges).toHaveLength(20);
    expect(second.data.dataset.records.edges[0]).not.toEqual(first.data.dataset.records.edges[0]);
  });

  it("the aggregate tab's figures are each one school year's: the jurisdictions of 2566 add up to the country's 2566", async () => {
    const tab = GRAPHIQL_TABS.find((candidate) => candidate.query.includes('aggregate('));
    type Row = { SCHOOL_COUNT: number; count: number; ACADEMIC_YEAR?: string };
    const body = (await (await stack().post({ query: tab?.query })).json()) as {
      data: { dataset: { byJurisdiction2566: Row[]; wholeCountryByYear: Row[] } };
    };
    const { byJurisdiction2566, wholeCountryByYear } = body.data.dataset;
    // One record per jurisdiction and year: a row that summed several years would count more than one.
    expect(byJurisdiction2566.every((row) => row.count === 1)).toBe(true);
    const total2566 = byJurisdiction2566.reduce((sum, row) => sum + row.SCHOOL_COUNT, 0);
    expect(wholeCountryByYear.find((row) => row.ACADEMIC_YEAR === '2566')?.SCHOOL_COUNT).toBe(total2566);
    expect(new Set(wholeCountryByYear.map((row) => row.ACADEMIC_YEAR)).size).toBe(wholeCountryByYear.length);
  });
});
