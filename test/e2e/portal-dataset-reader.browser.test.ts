import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../helpers/chromium.js';
import { usePortalBrowser, VIEWPORTS } from '../helpers/portal-browser.js';

// What a reader does on a dataset page beyond seeing it (portal-datasets.browser.test.ts): steer the chart and
// share the view, save the chart, run the request as pasted, and keep reading when the network or a part fails.
const CHROMIUM_HERE = haveChromium('portal dataset reader browser test');
const run = promisify(execFile);

const TEACHERS_BY_JURISDICTION = 'ODS_COUNT_TEACHER_BY_JURISDICTION';

describe.runIf(CHROMIUM_HERE)('a reader on a dataset page', () => {
  const portal = usePortalBrowser();

  it('steers the chart (measure, grouping, a comparison of years), and the share link restores that view', async () => {
    const { origin, newContext, pageErrors } = portal();
    const { page, context } = await newContext('en-GB');
    await page.goto(`${origin}/portal/datasets/${TEACHERS_BY_JURISDICTION}`);
    await page.locator('.chart .bars li').first().waitFor();
    // Its coverage and period, in the page's language, among the facts.
    expect(await page.locator('.facts dd[data-fact=coverage]').innerText()).toBe(
      'Whole country: national totals, not divided by area',
    );
    expect(await page.locator('.facts dd[data-fact=referencePeriod]').innerText()).toMatch(
      /^Academic years 25\d\d–25\d\d B\.E\. \(20\d\d–20\d\d C\.E\.\)$/,
    );
    // The default: the total by jurisdiction, for the latest year only (a filter the reader sees and can remove).
    await expect.poll(() => page.getByLabel('Measure').inputValue()).toBe('TOTAL');
    expect(await page.getByLabel('Group by').inputValue()).toBe('JURISDICTION_NAME');
    await page.locator('.chip', { hasText: 'Academic year' }).click();
    await page.getByLabel('Measure').selectOption('FEMALE');
    await page.getByLabel('Compare').selectOption('ACADEMIC_YEAR');
    await page.locator('.chart.compare .legend li').first().waitFor();
    expect(await page.locator('.chart figcaption').innerText()).toBe('Female by Jurisdiction, comparing Academic year');
    const legend = await page.locator('.chart.compare .legend li').allInnerTexts();
    expect(legend.length).toBeGreaterThan(1);

    const share = await page.getByLabel('Link to this view').inputValue();
    const url = new URL(share);
    expect(url.pathname).toBe(`/portal/datasets/${TEACHERS_BY_JURISDICTION}`);
    expect(url.searchParams.get('measure')).toBe('FEMALE');
    expect(url.searchParams.get('compare')).toBe('ACADEMIC_YEAR');
    // The same view from the link, opened afresh.
    const again = await context.newPage();
    await again.goto(share);
    await again.locator('.chart.compare .legend li').first().waitFor();
    expect(await again.getByLabel('Measure').inputValue()).toBe('FEMALE');
    expect(await again.locator('.chart.compare .legend li').allInnerTexts()).toEqual(legend);

    // The chart as files, drawn in the browser: an SVG with the caption, a PNG.
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      page.getByText('Download the chart (SVG)').click(),
    ]);
    expect(svg.suggestedFilename()).toBe('ods_count_teacher_by_jurisdiction-chart.svg');
    const svgText = await (await svg.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
    expect(svgText).toContain('<title>Female by Jurisdiction, comparing Academic year</title>');
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByText('Download the chart (PNG)').click(),
    ]);
    const pngBytes = await (await png.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks));
    expect([...pngBytes.subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join('')).toBe('PNG');
    // The embed snippet is that SVG, linking back to this view.
    expect(await page.locator('.embed textarea').inputValue()).toContain(`<a href="${share.replace(/&/g, '&#38;')}">`);
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('copies a curl command that works as pasted, with the page filters', async () => {
    const { origin, newContext } = portal();
    const { page, context } = await newContext('th-TH');
    await page.goto(`${origin}/portal/datasets/${TEACHERS_BY_JURISDICTION}`);
    await page.locator('.explorer-table tbody tr').first().waitFor();
    const curl = await page.locator('.code-panel pre').innerText();
    expect(curl).toContain(`${origin}/graphql`);
    const { stdout } = await run('sh', ['-c', curl]);
    const answer = JSON.parse(stdout) as {
      data: { dataset: { records: { totalCount: number; edges: { node: Record<string, unknown> }[] } } };
    };
    const caption = await page.locator('.explorer-table caption').innerText();
    expect(caption).toContain(String(answer.data.dataset.records.totalCount));
    // The page's default filter (the latest year) is in the request.
    const years = new Set(answer.data.dataset.records.edges.map((edge) => edge.node['ACADEMIC_YEAR']));
    expect(years.size).toBe(1);
    for (const language of ['JavaScript', 'Python', 'Kotlin', 'Swift']) {
      await page.getByLabel('ภาษา').selectOption(language);
      expect(await page.locator('.code-panel pre').innerText()).toContain(`${origin}/graphql`);
    }
    await context.close();
  }, 60_000);

  it('keeps the metadata when the records fail, and says in its language when the network is down', async () => {
    const { origin, newContext } = portal();
    const { page, context } = await newContext('th-TH');
    // The records engine's part fails (the upstream cannot be read); the catalogue's facts do not need it.
    await page.route('**/graphql', async (route) => {
      const body = route.request().postData() ?? '';
      if (body.includes('DatasetColumns')) {
        await route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({
            data: { dataset: { recordCount: null, fields: null } },
            errors: [
              { message: 'ต้นทางไม่ตอบ', path: ['dataset', 'fields'], extensions: { code: 'UPSTREAM_UNAVAILABLE' } },
            ],
          }),
        });
      } else await route.continue();
    });
    await page.goto(`${origin}/portal/datasets/${TEACHERS_BY_JURISDICTION}`);
    await page.locator('main .alert', { hasText: 'ต้นทางไม่ตอบ' }).first().waitFor();
    expect(await page.locator('.facts dd[data-fact=code]').innerText()).toBe(TEACHERS_BY_JURISDICTION);
    expect(await page.locator('main h1').innerText()).toBe('จำนวนครูจำแนกตามสังกัด');
    // The catalogue's facts stay, the licence and the caveats among them (the API's metadata).
    const licence = page.locator('.facts dd[data-fact=licence] a');
    expect(await licence.innerText()).toBe('Open Government License - Thailand');
    expect(await licence.getAttribute('href')).toBe('https://data.go.th/pages/open-government-licence');
    expect(await page.locator('.facts dd[data-fact=source] a').getAttribute('href')).toMatch(/^https:\/\//);
    expect(await page.locator('[data-fact=caveats] li').count()).toBeGreaterThan(0);

    // No network at all: the browser's "Failed to fetch" is said in Thai.
    await page.unroute('**/graphql');
    await page.route('**/graphql', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'ลองอีกครั้ง' }).first().click();
    await page.locator('main .alert', { hasText: 'ติดต่อเซิร์ฟเวอร์ไม่ได้' }).first().waitFor();
    expect(await page.locator('main').innerText()).not.toContain('Failed to fetch');
    await context.close();
  }, 60_000);

  it('finds a dataset in the catalogue by search and by group', async () => {
    const { origin, newContext } = portal();
    const { page, context } = await newContext('th-TH', VIEWPORTS.phone);
    await page.goto(`${origin}/portal/`);
    const rows = page.locator('main table').first().locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(13);
    // The server's search (GraphQL datasets(search:)): ครู finds Nos. 9 and 10 by their teacher fields and No. 13.
    const search = page.getByLabel('ค้นหาชุดข้อมูล');
    await search.fill('ครู');
    await expect.poll(() => rows.count()).toBe(5);
    // A province finds the datasets holding its rows, in Thai or English: Nos. 7, 9 and 13.
    const numbers = () => rows.locator('td:first-child').allInnerTexts();
    await search.fill('เชียงใหม่');
    await expect.poll(numbers).toEqual(['7', '9', '13']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('เชียงใหม่');
    await search.fill('Chiang Mai');
    await expect.poll(numbers).toEqual(['7', '9', '13']);
    // A shared address opens with its search asked.
    await page.reload();
    await expect.poll(numbers).toEqual(['7', '9', '13']);
    await page.getByLabel('ค้นหาชุดข้อมูล').fill('');
    // The teachers group holds No. 13 as well, which the upstream files under students.
    const teachers = page.getByLabel('ครู', { exact: true });
    await teachers.check();
    await expect.poll(numbers).toEqual(['1', '4', '13']);
    // Each dataset's coverage and period: No. 13 college by college, as of the day its records were read.
    const thirteen = rows.filter({
      has: page.locator('[data-period=ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER]'),
    });
    expect(await thirteen.innerText()).toContain('รายสถานศึกษา');
    await expect
      .poll(() => page.locator('[data-period=ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER]').innerText())
      .toMatch(/^ณ \d{4}-\d{2}-\d{2}$/);
    await expect.poll(() => page.locator('[data-period=ODS_COUNT_TEACHER_BY_YEAR]').innerText()).toBe('พ.ศ. 2560–2567');
    await teachers.uncheck();
    await page.getByLabel('สถานศึกษา').check();
    await expect.poll(() => rows.count()).toBe(4);
    // The search lives in the address, and a dataset is one click away.
    expect(new URL(page.url()).searchParams.getAll('group')).toEqual(['SCHOOLS']);
    await rows.first().getByRole('link').click();
    await page.locator('.chart .bars li').first().waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/portal\/datasets\/[A-Z0-9_]+$/);
    await context.close();
  }, 60_000);
});
