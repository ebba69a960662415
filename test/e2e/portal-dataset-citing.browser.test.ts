import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium } from '../helpers/chromium.js';
import { usePortalBrowser } from '../helpers/portal-browser.js';

// A dataset page a reader can cite and a keyboard user can work: its "cite this" box (the JSON-LD's citation, in
// Thai, and as BibTeX, each copied as shown), its own title, description and canonical link when reached without a
// load, and the focus on the new rows' caption after a sort or a page turn, said aloud.
const CHROMIUM_HERE = haveChromium('portal dataset citing browser test');

const TEACHERS_BY_YEAR = 'ODS_COUNT_TEACHER_BY_YEAR';
const GRADUATES_BY_PROVINCE = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';

/** The page's head as the browser has it now. */
async function headOf(page: Page) {
  return page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    descriptions: document.querySelectorAll('meta[name="description"]').length,
    canonicals: document.querySelectorAll('link[rel="canonical"]').length,
  }));
}

/** What has the focus: its tag and text. */
async function focused(page: Page) {
  return page.evaluate(() => ({
    tag: document.activeElement?.tagName.toLowerCase() ?? '',
    text: document.activeElement?.textContent ?? '',
  }));
}

describe.runIf(CHROMIUM_HERE)('a dataset page to cite and to work by keyboard', () => {
  const portal = usePortalBrowser();

  it("offers the JSON-LD's citation, in Thai, and as BibTeX, each with a copy button that copies it", async () => {
    const { origin, newContext, pageErrors, seriousFindings } = portal();
    const { page, context } = await newContext('th-TH');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    // The page as a search engine reads it (the server's HTML): its JSON-LD citation. Its year is the dataset's
    // first-seen date, known once anything has downloaded the dataset (the browser below does): downloaded first,
    // so that the HTML and the box cite the same year.
    const citationOfPage = async (): Promise<Record<string, unknown>> => {
      const html = await (await fetch(`${origin}/portal/datasets/${TEACHERS_BY_YEAR}`)).text();
      return JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1] ?? '{}') as Record<
        string,
        unknown
      >;
    };
    await fetch(`${origin}/datasets/${TEACHERS_BY_YEAR}.csv`).then((response) => response.arrayBuffer());
    await expect.poll(async () => (await citationOfPage())['citation'], { timeout: 10_000 }).toMatch(/\(\d{4}\)/);
    const jsonLd = await citationOfPage();
    // Reached from the catalogue without a load: the page has no JSON-LD of its own, the box still cites.
    await page.goto(`${origin}/portal/`);
    await page.locator(`a[href="/portal/datasets/${TEACHERS_BY_YEAR}"]`).first().click();
    const box = page.locator('.cite-box');
    await box.locator('.citation-text').first().waitFor({ timeout: 30_000 });
    const texts = await box.locator('.citation-text').allInnerTexts();
    expect(texts[0]).toMatch(/^กระทรวงศึกษาธิการ\. \(\d{4}|ม\.ป\.ป\.\)/);
    expect(texts[0]).toContain('[ODS_COUNT_TEACHER_BY_YEAR; ชุดข้อมูล]');
    expect(texts[1]).toBe(jsonLd['citation']);
    const bibtex = await box.locator('pre').innerText();
    expect(bibtex).toMatch(/^@misc\{ods_count_teacher_by_year\d*,/);
    expect(bibtex).toContain(`url          = {${origin}/portal/datasets/${TEACHERS_BY_YEAR}}`);

    await box.getByRole('button', { name: /BibTeX/ }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(bibtex);
    await box.getByRole('button', { name: /ข้อความอ้างอิงภาษาอังกฤษ/ }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(jsonLd['citation']);
    expect(await seriousFindings(page)).toEqual([]);
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('gives each page its own title, description and canonical link as the reader moves without a load', async () => {
    const { origin, newContext } = portal();
    const { page, context } = await newContext('en-GB');
    await page.goto(`${origin}/portal/`);
    await page.locator(`a[href="/portal/datasets/${TEACHERS_BY_YEAR}"]`).first().waitFor();
    const catalogue = await headOf(page);
    expect(catalogue).toMatchObject({ canonical: `${origin}/portal/`, descriptions: 1, canonicals: 1 });
    expect(catalogue.title).toContain('13 education statistics datasets');

    await page.locator(`a[href="/portal/datasets/${TEACHERS_BY_YEAR}"]`).first().click();
    await expect.poll(async () => (await headOf(page)).title).toContain(TEACHERS_BY_YEAR);
    const dataset = await headOf(page);
    expect(dataset).toMatchObject({
      title: `Number of teachers and education personnel (${TEACHERS_BY_YEAR}) · Education statistics portal`,
      canonical: `${origin}/portal/datasets/${TEACHERS_BY_YEAR}`,
      descriptions: 1,
      canonicals: 1,
    });
    expect(dataset.description).toContain('Number of teachers and education personnel');

    await page.getByRole('link', { name: 'Developers' }).first().click();
    await expect.poll(async () => (await headOf(page)).canonical).toBe(`${origin}/portal/developer`);
    const developer = await headOf(page);
    expect(new Set([catalogue.title, dataset.title, developer.title]).size).toBe(3);
    expect(new Set([catalogue.description, dataset.description, developer.description]).size).toBe(3);

    // The server's head for a page loaded afresh is the same the browser sets.
    const fresh = await context.newPage();
    await fresh.goto(`${origin}/portal/developer`);
    const served = await fresh.evaluate(() => document.title);
    expect(served).toBe(developer.title);
    await context.close();
  }, 60_000);

  it('puts the focus on the new rows after a sort or a page turn, and says them aloud', async () => {
    const { origin, newContext } = portal();
    const { page, context } = await newContext('en-GB');
    await page.goto(`${origin}/portal/datasets/${GRADUATES_BY_PROVINCE}`);
    await page.locator('.explorer-table tbody tr').first().waitFor({ timeout: 30_000 });
    const firstCaption = await page.locator('.explorer-table caption').innerText();

    // By keyboard: a sort button, Enter.
    const sortButton = page.locator('.explorer-table th button.sort').first();
    await sortButton.focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).tag, { timeout: 10_000 }).toBe('caption');
    expect((await focused(page)).text).toBe(firstCaption);
    await expect
      .poll(() => page.locator('body > [aria-live="polite"]').textContent())
      .toMatch(new RegExp(`^${firstCaption.replace(/[()]/g, '.')}, by .+, sorted (ascending|descending)$`));
    expect(await page.locator('.explorer-table th[aria-sort]').count()).toBe(1);

    // The next page: the focus on the caption of rows 21 to 40, which is said.
    await page.getByRole('button', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).text, { timeout: 10_000 }).toMatch(/^Records 21–40 of /);
    expect((await focused(page)).tag).toBe('caption');
    await expect.poll(() => page.locator('body > [aria-live="polite"]').textContent()).toMatch(/^Records 21–40 of /);
    // And back.
    await page.getByRole('button', { name: 'Previous page' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).text, { timeout: 10_000 }).toMatch(/^Records 1–20 of /);
    await context.close();
  }, 60_000);
});
