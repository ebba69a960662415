import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium } from '../helpers/chromium.js';
import { usePortalBrowser, VIEWPORTS } from '../helpers/portal-browser.js';

// A dataset whose records name a province draws the current view's figure as a tile map of the 77 provinces, with a
// caption, a legend and the same figures as a table; nothing is fetched from elsewhere. The figures are the API's:
// checked against `aggregate` asked directly with the view's own filters.
const CHROMIUM_HERE = haveChromium('portal province map browser test');

const GRADUATES_BY_PROVINCE = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
const TEACHERS_BY_JURISDICTION = 'ODS_COUNT_TEACHER_BY_JURISDICTION';

interface Tile {
  code: string;
  value: number | null;
  fill: string;
}

async function tilesOf(page: Page): Promise<Tile[]> {
  return page.locator('.province-map svg rect').evaluateAll((rects) =>
    rects.map((rect) => ({
      code: rect.getAttribute('data-province') ?? '',
      value: rect.getAttribute('data-value') === '' ? null : Number(rect.getAttribute('data-value')),
      fill: rect.getAttribute('fill') ?? '',
    })),
  );
}

/** `aggregate` by province, as the page's view asks it: its measure and its filters, from the page's address. */
async function apiFigures(origin: string, pageUrl: string): Promise<Map<string, number>> {
  const url = new URL(pageUrl);
  const measure = url.searchParams.get('measure') ?? '*';
  const where = [...url.searchParams]
    .filter(([key]) => key.startsWith('where.'))
    .map(([key, value]) => ({ field: key.slice('where.'.length), eq: value }));
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    body: JSON.stringify({
      query: `query ($sum: [String!]!, $where: [RecordFilter!]) {
        dataset(code: ${GRADUATES_BY_PROVINCE}) { aggregate(groupBy: ["PROVINCE_NAME"], sum: $sum, where: $where) }
      }`,
      variables: { sum: measure === '*' ? [] : [measure], where },
    }),
  });
  const body = (await response.json()) as { data: { dataset: { aggregate: Record<string, unknown>[] } } };
  return new Map(
    body.data.dataset.aggregate.map((group) => [
      String(group['PROVINCE_NAME']),
      Number(measure === '*' ? group['count'] : group[measure]),
    ]),
  );
}

describe.runIf(CHROMIUM_HERE)('the province map', () => {
  const portal = usePortalBrowser();

  it("draws the view's figure for all 77 provinces, shaded by class, with a caption and a table alike", async () => {
    const { origin, newContext, outside, pageErrors, seriousFindings } = portal();
    const { page, context } = await newContext('th-TH', VIEWPORTS.phone);
    await page.goto(`${origin}/portal/datasets/${GRADUATES_BY_PROVINCE}`);
    await page.locator('.province-map svg rect').first().waitFor({ timeout: 30_000 });
    await page.locator('.explorer-table tbody tr').first().waitFor({ timeout: 30_000 });
    const tiles = await tilesOf(page);
    expect(tiles).toHaveLength(77);
    expect(new Set(tiles.map((tile) => tile.code)).size).toBe(77);

    // The table alternative holds one row per province with data, largest first, as the API adds them up.
    await page.getByText('แสดงเป็นตาราง').click();
    const rows = await page.locator('.map-table tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        name: tr.querySelector('th')?.textContent ?? '',
        value: Number((tr.querySelector('td')?.textContent ?? '').replace(/,/g, '')),
      })),
    );
    const withData = tiles.filter((tile) => tile.value !== null);
    expect(rows).toHaveLength(withData.length);
    expect(rows.length).toBeGreaterThan(70);
    const api = await apiFigures(origin, page.url());
    expect(new Map(rows.map((row) => [row.name, row.value]))).toEqual(api);
    expect(rows.map((row) => row.value)).toEqual([...rows.map((row) => row.value)].sort((a, b) => b - a));

    // The largest value is in the darkest shade, the smallest in the lightest used; no data is its own grey.
    const largest = withData.reduce((top, tile) => ((tile.value ?? 0) > (top.value ?? 0) ? tile : top));
    const smallest = withData.reduce((low, tile) => ((tile.value ?? 0) < (low.value ?? 0) ? tile : low));
    expect(largest.fill).toBe('#1e3a8a');
    expect(smallest.fill).toBe('#dbeafe');
    expect(await page.locator('.map-legend li').count()).toBe(6);

    // Said in words: the caption names the measure and the filter; the picture's label the highest and lowest.
    const caption = await page.locator('.province-map figcaption').innerText();
    expect(caption).toContain('รายจังหวัด');
    expect(caption).toContain('เฉพาะ');
    expect(await page.locator('.province-map svg').getAttribute('role')).toBe('img');
    expect(await page.locator('.province-map svg').getAttribute('aria-label')).toMatch(/สูงสุด .+ ต่ำสุด/);
    expect(await seriousFindings(page)).toEqual([]);

    // Another measure: the map follows the view, and the table stays open.
    await page.getByLabel('ค่าที่แสดง').selectOption('FEMALE');
    // The new measure is a new aggregate (a miss): beside the other browser suites it can take over the poll's 1 s.
    await expect
      .poll(() => page.locator('.province-map figcaption').innerText(), { timeout: 10_000 })
      .not.toBe(caption);
    await expect
      .poll(
        async () => {
          const now = (await page.locator('.map-table tbody tr').first().locator('td').textContent()) ?? '';
          return Number(now.replace(/,/g, ''));
        },
        { timeout: 10_000 },
      )
      .toBe(Math.max(...(await apiFigures(origin, page.url())).values()));

    expect(await page.locator('.map-table').getAttribute('open')).toBe('');
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 90_000);

  it('is not there for a dataset whose records name no province', async () => {
    const { origin, newContext } = portal();
    const { page, context } = await newContext('en-GB');
    await page.goto(`${origin}/portal/datasets/${TEACHERS_BY_JURISDICTION}`);
    await page.locator('.explorer-table tbody tr').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('.province-map').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Map by province' }).isVisible()).toBe(false);
    await context.close();
  }, 60_000);
});
