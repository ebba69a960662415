import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DATASETS } from '../src/catalogue.js';
import { haveChromium } from './helpers/chromium.js';
import { usePortalBrowser, VIEWPORTS } from './helpers/portal-browser.js';

// Every dataset page draws a chart and a table from what the upstream answers (Dataset.fields, aggregate,
// records), whatever its record keys. The page tour in both languages is portal-pages.browser.test.ts.
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

/** Waits for a dataset page's chart and first table page; returns how many bars and rows it drew. */
async function drawn(page: Page): Promise<{ bars: number; rows: number; width: number }> {
  await page.locator('.chart .bars li').first().waitFor({ timeout: 20_000 });
  await page.locator('.explorer-table tbody tr').first().waitFor({ timeout: 20_000 });
  return {
    bars: await page.locator('.chart .bars li').count(),
    rows: await page.locator('.explorer-table tbody tr').count(),
    width: await page.evaluate(() => document.documentElement.scrollWidth),
  };
}

describe.runIf(CHROMIUM_HERE)('the dataset pages against the simulator', () => {
  const portal = usePortalBrowser();

  it('draw a chart and a table for each of the 13 datasets, at phone and desktop widths, in Thai and English', async () => {
    const { origin, newContext, outside, pageErrors } = portal();
    if (SHOTS !== undefined) mkdirSync(SHOTS, { recursive: true });
    const contexts = await Promise.all(
      COMBINATIONS.map(async (combination) => ({
        ...combination,
        ...(await newContext(combination.locale, VIEWPORTS[combination.width])),
      })),
    );
    const problems: string[] = [];
    for (const [index, dataset] of DATASETS.entries()) {
      const combination = contexts[index % contexts.length];
      if (combination === undefined) throw new Error('no combination');
      const { page, language, width } = combination;
      await page.goto(`${origin}/portal/#/datasets/${dataset.code}`);
      const { bars, rows, width: pageWidth } = await drawn(page);
      if (bars === 0 || rows === 0) problems.push(`${dataset.code}: ${bars} bars, ${rows} rows`);
      if (pageWidth > VIEWPORTS[width].width) problems.push(`${dataset.code} ${width}: ${pageWidth} px wide`);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
      if (SHOTS !== undefined) {
        await page.screenshot({ path: `${SHOTS}/dataset-${dataset.no}-${language}-${width}.png`, fullPage: true });
      }
    }
    for (const { context } of contexts) await context.close();
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
