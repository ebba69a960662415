import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { haveChromium, launchChromium } from '../helpers/chromium.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

const CHROMIUM_HERE = haveChromium('GraphiQL browser test');
export const SCREENSHOT = 'test-results/graphiql.png';
export const TABS_SCREENSHOT = 'test-results/graphiql-tabs.png';

describe.runIf(CHROMIUM_HERE)('GraphiQL in a real browser', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;
  let origin: string;
  // One page for both tests, opened once as a Thai reader's browser opens it (Chromium's own default is en-US,
  // which gets English labels): starting GraphiQL's editors is most of the work of a test, the second test uses the
  // page as the first leaves it (the default tab, with its answer shown), and it does not need a fresh one.
  let page: Page;
  const external: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    stack = await startStack();
    server = await listen(stack.app);
    origin = server.origin;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'th-TH' });
    page.on('request', (request) => {
      if (!/^(data:|blob:)/.test(request.url()) && !request.url().startsWith(origin)) external.push(request.url());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${origin}/graphql`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stack?.close();
  });

  // A loaded machine takes seconds to start the page's editors.
  it('renders with no internet, runs the default query and shows the result', { timeout: 60_000 }, async () => {
    const answer = page.waitForResponse(
      (response) =>
        response.url() === `${origin}/graphql` &&
        response.request().method() === 'POST' &&
        response.request().postData()?.includes('CatalogueAndTeachers') === true,
    );
    await page.locator('.graphiql-execute-button').click({ timeout: 15_000 });
    const body = (await (await answer).json()) as {
      data: {
        datasets: unknown[];
        teachers2566: { payload: { data: { ACADEMIC_YEAR: string }[] } };
        summaryEndpoints: { statusLabel: string }[];
      };
      errors?: unknown;
    };
    expect(body.errors).toBeUndefined();
    expect(body.data.datasets).toHaveLength(13);
    expect(body.data.teachers2566.payload.data.map((row) => row.ACADEMIC_YEAR)).toEqual(['2566']);
    expect(body.data.summaryEndpoints[0]?.statusLabel).toBe('ยังไม่ได้ขอใช้งาน');
    // What the person sees: the result pane shows the top of the answer, Thai titles included.
    const result = page.locator('.result-window');
    await result.getByText('จำนวนครูและบุคลากรทางการศึกษา').first().waitFor({ timeout: 15_000 });
    expect(await result.innerText()).toContain('ODS_COUNT_TEACHER_BY_YEAR');
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect(external).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('opens each pre-loaded tab with one click, the paging tab with its variables, and runs them', async () => {
    const editor = page.locator('.graphiql-query-editor');
    // Monaco writes spaces as no-break spaces: compare the editor's text with them made plain.
    const shows = async (text: string): Promise<void> => {
      await expect
        .poll(async () => (await editor.innerText()).replace(/\u00a0/g, ' '), { timeout: 5_000 })
        .toContain(text);
    };
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 15_000 });
    await shows('query CatalogueAndTeachers');
    // GraphiQL works out the tab's operation name from its document a moment after the tab shows it (a debounced
    // parse): a click on run before that asks for the previous tab's operation, and GraphiQL answers that itself,
    // sending nothing. A person never clicks that fast; the test clicks again until the request leaves, a few times.
    const run = async (
      operationName: string,
    ): Promise<{ data: Record<string, unknown>; errors?: unknown; variables: unknown }> => {
      const sent = (response: { request(): { method(): string; postData(): string | null } }): boolean =>
        response.request().method() === 'POST' &&
        new RegExp(`query ${operationName}\\b`).test(response.request().postData() ?? '');
      for (let attempt = 1; ; attempt++) {
        const answer = page.waitForResponse(sent, { timeout: 3_000 });
        await page.locator('.graphiql-execute-button').click();
        try {
          const response = await answer;
          const body = JSON.parse(response.request().postData() ?? '{}') as { variables?: unknown };
          return {
            ...((await response.json()) as { data: Record<string, unknown>; errors?: unknown }),
            variables: body.variables,
          };
        } catch (error) {
          if (attempt === 5) {
            await page.screenshot({ path: 'test-results/graphiql-run-failed.png' });
            throw error;
          }
        }
      }
    };

    // One click each, in an order that is not the tabs' own.
    await page.getByRole('tab', { name: 'GraduatesPage' }).click();
    await shows('query GraduatesPage');
    expect(await page.locator('.graphiql-editor-tool').innerText()).toContain('เชียงใหม่');
    const paged = await run('GraduatesPage');
    expect(paged.errors).toBeUndefined();
    expect(paged.variables).toEqual({ province: 'เชียงใหม่', first: 20, after: null });
    expect((paged.data['dataset'] as { records: { edges: unknown[] } }).records.edges).toHaveLength(20);
    await page.screenshot({ path: 'test-results/graphiql-paging.png' });

    await page.getByRole('tab', { name: 'SchoolsByJurisdiction2566' }).click();
    await shows('query SchoolsByJurisdiction2566');
    const summed = await run('SchoolsByJurisdiction2566');
    expect(summed.errors).toBeUndefined();
    await page
      .locator('.result-window')
      .getByText('สำนักงานคณะกรรมการการศึกษาขั้นพื้นฐาน')
      .first()
      .waitFor({ timeout: 15_000 });

    await page.getByRole('tab', { name: 'TeachersByJurisdiction2566' }).click();
    await shows('query TeachersByJurisdiction2566');
    await page.getByRole('tab', { name: 'SchoolsByJurisdiction2566' }).click();
    await shows('query SchoolsByJurisdiction2566');
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: TABS_SCREENSHOT });
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
