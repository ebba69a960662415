import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { haveChromium } from '../helpers/chromium.js';
import { SCREENSHOTS, usePortalBrowser, VIEWPORTS, VISUAL_TOUR } from '../helpers/portal-browser.js';

// A chart exported from a dataset page can be cited away from the portal: its footer names the dataset, the
// publisher, the licence, the dates and the address of the view, and says when the bars are the largest few of more.
// Each line is whole: the SVG is drawn here by Chromium (with the Thai fonts Debian's fonts-thai-tlwg gives) and every
// text's box must lie inside the picture; the PNG is decoded and its footer band must hold ink.
const CHROMIUM_HERE = haveChromium('portal chart export browser test');

/** Graduates by province, district and sub-district: grouped by province, 77 groups, of which the chart shows 30. */
const BY_PROVINCE = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';

const bytesOf = async (download: Download): Promise<Buffer> =>
  Buffer.concat(await (await download.createReadStream()).toArray());

/** Every text's box in the SVG as Chromium lays it out, against the picture's size. */
async function layoutOf(page: Page, svg: string) {
  await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`);
  return page.evaluate(() => {
    const root = document.querySelector('svg');
    if (root === null) throw new Error('no svg');
    const width = Number(root.getAttribute('width'));
    const height = Number(root.getAttribute('height'));
    const boxes = [...root.querySelectorAll('text, tspan')].map((element) => {
      const box = (element as SVGGraphicsElement).getBBox();
      return {
        text: element.textContent ?? '',
        x: box.x,
        y: box.y,
        right: box.x + box.width,
        bottom: box.y + box.height,
      };
    });
    return { width, height, boxes };
  });
}

/** Whether the PNG has dark pixels in the band where the footer is, decoded by the browser. */
async function inkInBand(page: Page, png: Buffer, fromY: number, toY: number): Promise<number> {
  return page.evaluate(
    async ({ data, fromY, toY }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d');
      if (context === null) throw new Error('canvas');
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, fromY, canvas.width, toY - fromY).data;
      let dark = 0;
      for (let index = 0; index < pixels.length; index += 4) if ((pixels[index] ?? 255) < 128) dark += 1;
      return dark;
    },
    { data: png.toString('base64'), fromY, toY },
  );
}

describe.runIf(CHROMIUM_HERE)('an exported chart', () => {
  const portal = usePortalBrowser();

  const THAI = {
    source: 'ที่มา:',
    licence: 'สัญญาอนุญาต:',
    cut: 'แผนภูมินี้แสดง 30 กลุ่มที่มากที่สุดจากทั้งหมด 77 กลุ่ม',
    png: 'ดาวน์โหลดแผนภูมิ (PNG)',
    svg: 'ดาวน์โหลดแผนภูมิ (SVG)',
  } as const;
  const ENGLISH = {
    source: 'Source:',
    licence: 'Licence:',
    cut: 'This chart shows the largest 30 of 77 groups',
    png: 'Download the chart (PNG)',
    svg: 'Download the chart (SVG)',
  } as const;
  for (const [locale, width, words] of [
    ['th-TH', 'phone', THAI],
    ['en-GB', 'desktop', ENGLISH],
    ['th-TH', 'desktop', THAI],
    ['en-GB', 'phone', ENGLISH],
  ] as const) {
    it(`carries its whole source line (${locale}, ${width})`, async () => {
      const { origin, newContext, pageErrors } = portal();
      const { page, context } = await newContext(locale, VIEWPORTS[width]);
      await page.goto(`${origin}/portal/datasets/${BY_PROVINCE}?by=PROVINCE_NAME&measure=TOTAL`);
      await page.locator('.chart .bars li').first().waitFor({ timeout: 30_000 });
      const share = await page.locator('.share input').inputValue();
      const licenceName = await page.locator('.facts dd[data-fact=licence] a').innerText();
      const publisher = await page.locator('.facts dd[data-fact=source] a').innerText();

      const [svgFile] = await Promise.all([page.waitForEvent('download'), page.getByText(words.svg).click()]);
      const svg = (await bytesOf(svgFile)).toString('utf8');
      const [pngFile] = await Promise.all([page.waitForEvent('download'), page.getByText(words.png).click()]);
      const png = await bytesOf(pngFile);
      // On the visual tour, the exported picture for a person to look at.
      if (VISUAL_TOUR) writeFileSync(`${SCREENSHOTS}/chart-export-${locale}-${width}.png`, png);

      const shot = await context.newPage();
      const { width: svgWidth, height, boxes } = await layoutOf(shot, svg);
      const footer = boxes.filter((box) => box.y > height - 400 && box.text !== '').map((box) => box.text);
      const source = (/<text class="source"[^>]*>([\s\S]*?)<\/text>/.exec(svg)?.[1] ?? '')
        .replace(/<tspan[^>]*>/g, '')
        .split('</tspan>')
        .map((line) => line.trim().replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))))
        .filter((line) => line !== '');
      const joined = source.join('');
      // Whole: the address of the view (wrapped, never cut), the publisher, the licence, and what was left out.
      expect(joined).toContain(share);
      expect(source.join(' ')).toContain(publisher);
      expect(source.join(' ')).toContain(licenceName);
      expect(source[0]).toContain(words.source);
      expect(source.some((line) => line.startsWith(words.licence))).toBe(true);
      expect(source.join(' ')).toContain(words.cut);
      expect(joined).not.toContain('…');
      expect(footer.length).toBeGreaterThan(0);
      // Inside the picture, as Chromium draws it.
      const outside = boxes.filter((box) => box.x < 0 || box.right > svgWidth || box.bottom > height);
      expect(outside).toEqual([]);
      // The PNG: twice the SVG's size (IHDR), with ink where the footer's lines are.
      expect(png.readUInt32BE(16)).toBe(svgWidth * 2);
      expect(png.readUInt32BE(20)).toBe(height * 2);
      const lastLine = boxes
        .filter((box) => box.text !== '')
        .reduce((low, box) => (box.bottom > low.bottom ? box : low));
      expect(await inkInBand(shot, png, Math.floor(lastLine.y * 2), Math.ceil(lastLine.bottom * 2))).toBeGreaterThan(
        50,
      );
      await context.close();
      expect(pageErrors).toEqual([]);
    }, 90_000);
  }
});
