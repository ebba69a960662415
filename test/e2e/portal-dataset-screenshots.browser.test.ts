import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../helpers/chromium.js';
import { usePortalBrowser, VIEWPORTS, VISUAL_TOUR } from '../helpers/portal-browser.js';

// A province dataset's page (chart, province map, "cite this") in Thai and English at phone and desktop widths: it
// fits the width (nothing runs off the side), and on the visual tour (PORTAL_SCREENSHOTS=1) its picture, from the top
// to the end of the cite box, is written to docs/screenshots/ for a person to look at.
const CHROMIUM_HERE = haveChromium('portal dataset screenshots browser test');

const GRADUATES_BY_PROVINCE = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
const DOCS_SCREENSHOTS = 'docs/screenshots';

describe.runIf(CHROMIUM_HERE)('a province dataset page, as it looks', () => {
  const portal = usePortalBrowser();

  for (const locale of ['th-TH', 'en-GB'] as const) {
    for (const width of ['phone', 'desktop'] as const) {
      it(`fits ${width} width in ${locale}, map and cite box drawn`, async () => {
        const { origin, newContext, pageErrors } = portal();
        const { page, context } = await newContext(locale, VIEWPORTS[width]);
        await page.goto(`${origin}/portal/datasets/${GRADUATES_BY_PROVINCE}`);
        await page.locator('.province-map svg rect').first().waitFor({ timeout: 30_000 });
        await page.locator('.cite-box pre').waitFor({ timeout: 30_000 });
        await page.locator('.explorer-table tbody tr').first().waitFor({ timeout: 30_000 });
        // Nothing wider than the window: no sideways scrolling, no text cut at the edge.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        const wide: string[] = await page
          .locator('.province-map, .cite-box, .chart-panel')
          .evaluateAll((parts: HTMLElement[]) =>
            parts.filter((part) => part.scrollWidth > part.clientWidth + 1).map((part) => part.className),
          );
        expect(wide).toEqual([]);
        if (VISUAL_TOUR) {
          mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
          // From the top of the page to the end of the cite box: the parts this page is about.
          const bottom = await page
            .locator('.cite-box')
            .evaluate((box) => box.getBoundingClientRect().bottom + window.scrollY + 16);
          await page.screenshot({
            path: `${DOCS_SCREENSHOTS}/dataset-${locale.slice(0, 2)}-${width}.png`,
            fullPage: true,
            clip: { x: 0, y: 0, width: VIEWPORTS[width].width, height: Math.ceil(bottom) },
          });
        }
        await context.close();
        expect(pageErrors).toEqual([]);
      }, 60_000);
    }
  }
});
