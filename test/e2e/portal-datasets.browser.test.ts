import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DATASETS } from '../../src/catalogue.js';
import { haveChromium } from '../helpers/chromium.js';
import { usePortalBrowser, VIEWPORTS, type PortalBrowser } from '../helpers/portal-browser.js';

// Every dataset page draws a chart and a table from what the upstream answers (Dataset.fields, aggregate,
// records), whatever its record keys: here against the simulator and against the second upstream (Thai and
// lower-case keys, counts as text, another envelope). The page tour in both languages is portal-pages.browser.test.ts.
const CHROMIUM_HERE = haveChromium('portal dataset pages browser test');

/** Screenshots of every dataset page for a person to look at, with PORTAL_SHOTS=<directory>. */
const SHOTS = process.env['PORTAL_SHOTS'];

/** Each dataset in one of the four combinations, so every combination is seen on several pages. */
const COMBINATIONS = [
  { locale: 'th-TH', language: 'th', width: 'phone' },
  { locale: 'en-GB', language: 'en', width: 'desktop' },
  { locale: 'th-TH', language: 'th', width: 'desktop' },
  { locale: 'en-GB', language: 'en', width: 'phone' },
] as const;

/** The graduates by province, district and sub-district: a province's rows are a few of many. */
const BY_PROVINCE = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
const PROVINCE = 'เชียงใหม่';

/** Waits for a dataset page's chart and first table page; returns how many bars and rows it drew. */
async function drawn(page: Page): Promise<{ bars: number; rows: number; width: number }> {
  await page.locator('.chart .bars li').first().waitFor({ timeout: 30_000 });
  await page.locator('.explorer-table tbody tr').first().waitFor({ timeout: 30_000 });
  return {
    bars: await page.locator('.chart .bars li').count(),
    rows: await page.locator('.explorer-table tbody tr').count(),
    width: await page.evaluate(() => document.documentElement.scrollWidth),
  };
}

/** The last number in a text, as the page formats it ("ระเบียนที่ 1–20 จาก 1,234" → 1234). */
const lastNumber = (text: string): number => Number((text.match(/[\d,]+(?=\D*$)/)?.[0] ?? '').replace(/,/g, ''));

async function everyDatasetDraws(portal: PortalBrowser, upstream: string): Promise<void> {
  const { origin, newContext, outside, pageErrors } = portal;
  if (SHOTS !== undefined) mkdirSync(SHOTS, { recursive: true });
  const contexts = await Promise.all(
    COMBINATIONS.map(async (combination) => ({
      ...combination,
      ...(await newContext(combination.locale, VIEWPORTS[combination.width])),
    })),
  );
  const problems: string[] = [];
  for (const [index, dataset] of DATASETS.entries()) {
    const combination = contexts[(index + (upstream === 'other' ? 1 : 0)) % contexts.length];
    if (combination === undefined) throw new Error('no combination');
    const { page, language, width } = combination;
    const path = `/portal/datasets/${dataset.code}`;
    // Each context's first page is loaded as a link from outside opens it; the next ones as a reader moves within
    // the portal (the way back and forward do), which draws them without loading the portal's modules again.
    if (page.url() === 'about:blank') await page.goto(`${origin}${path}`);
    else
      await page.evaluate((next) => {
        history.pushState(null, '', next);
        dispatchEvent(new PopStateEvent('popstate'));
      }, path);
    await page.locator(`a[data-format=csv][href*="/datasets/${dataset.code}."]`).waitFor({ timeout: 30_000 });
    const { bars, rows, width: pageWidth } = await drawn(page);
    if (bars === 0 || rows === 0) problems.push(`${dataset.code}: ${bars} bars, ${rows} rows`);
    if (pageWidth > VIEWPORTS[width].width) problems.push(`${dataset.code} ${width}: ${pageWidth} px wide`);
    if (await page.locator('main .alert').count())
      problems.push(`${dataset.code}: ${await page.locator('main .alert').first().innerText()}`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
    if (SHOTS !== undefined) {
      await page.screenshot({
        path: `${SHOTS}/dataset-${dataset.no}-${upstream}-${language}-${width}.png`,
        fullPage: true,
      });
    }
  }
  for (const { context } of contexts) await context.close();
  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
  expect(pageErrors).toEqual([]);
}

/**
 * A reader picks her province from the table's province list: the table, the chart and the download links follow;
 * the CSV holds that province's records, as many as the API counts, in Thai.
 */
async function oneProvinceAsCsv(portal: PortalBrowser, locale: string, viewport: { width: number; height: number }) {
  const { origin, newContext, stack, pageErrors } = portal;
  const { page, context } = await newContext(locale, viewport);
  await page.goto(`${origin}/portal/datasets/${BY_PROVINCE}`);
  await drawn(page);
  const province = page.locator('select[name^="quick-"]').filter({ has: page.locator(`option[value="${PROVINCE}"]`) });
  const column = (await province.getAttribute('name'))?.slice('quick-'.length) ?? '';
  expect(column).not.toBe('');
  await province.selectOption(PROVINCE);
  await page.locator('.chip', { hasText: PROVINCE }).waitFor();
  // The chart follows the filter: its caption names it, and every table row is the province's.
  await page.locator('.chart figcaption', { hasText: PROVINCE }).waitFor();
  await expect
    .poll(async () =>
      (await page.locator('.explorer-table tbody tr').allInnerTexts()).every((row) => row.includes(PROVINCE)),
    )
    .toBe(true);

  const csvLink = page.locator('a[data-format=csv]');
  const href = (await csvLink.getAttribute('href')) ?? '';
  const url = new URL(href, origin);
  expect(url.pathname).toBe(`/datasets/${BY_PROVINCE}.csv`);
  expect(url.searchParams.getAll(`where.${column}`)).toEqual([PROVINCE]);
  for (const format of ['json', 'xlsx']) {
    const other = new URL((await page.locator(`a[data-format=${format}]`).getAttribute('href')) ?? '', origin);
    expect(other.pathname).toBe(`/datasets/${BY_PROVINCE}.${format}`);
    expect(other.search).toBe(url.search);
  }

  // What the API says those filters hold.
  const where = [...url.searchParams]
    .filter(([key]) => key.startsWith('where.'))
    .map(([key, value]) => ({ field: key.slice('where.'.length), eq: value }));
  const answer = (await (
    await stack.post({
      query: `query Count($where: [RecordFilter!]) { dataset(code: ${BY_PROVINCE}) { recordCount(where: $where) } }`,
      variables: { where },
    })
  ).json()) as { data: { dataset: { recordCount: number } } };
  const expected = answer.data.dataset.recordCount;
  expect(expected).toBeGreaterThan(0);
  expect(lastNumber(await page.locator('.explorer-table caption').innerText())).toBe(expected);

  // The file, as a reader's browser downloads it.
  const download = await page.request.get(url.href);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-type']).toMatch(/^text\/csv/);
  const bytes = await download.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).trimEnd().split(/\r?\n/);
  expect(lines.length - 1).toBe(expected);
  expect(lines.slice(1).every((line) => line.includes(PROVINCE))).toBe(true);
  await context.close();
  expect(pageErrors).toEqual([]);
}

describe.runIf(CHROMIUM_HERE)('the dataset pages against the simulator', () => {
  const portal = usePortalBrowser();

  it('draw a chart and a table for each of the 13 datasets, at phone and desktop widths, in Thai and English', async () => {
    await everyDatasetDraws(portal(), 'simulator');
  }, 240_000);

  it('let a reader filter to one province and download it as CSV (phone, Thai)', async () => {
    await oneProvinceAsCsv(portal(), 'th-TH', VIEWPORTS.phone);
  }, 60_000);
});

describe.runIf(CHROMIUM_HERE)('the dataset pages against an upstream with other record keys', () => {
  const portal = usePortalBrowser({}, 'other');

  it('draw a chart and a table for each of the 13 datasets, at phone and desktop widths, in Thai and English', async () => {
    await everyDatasetDraws(portal(), 'other');
  }, 240_000);

  it('let a reader filter to one province and download it as CSV (desktop, English)', async () => {
    await oneProvinceAsCsv(portal(), 'en-GB', VIEWPORTS.desktop);
  }, 60_000);
});
