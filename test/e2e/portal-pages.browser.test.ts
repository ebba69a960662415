import { describe, expect, it } from 'vitest';
import { haveChromium } from '../helpers/chromium.js';
import { screenshot, TOUR_VIEWPORTS, usePortalBrowser } from '../helpers/portal-browser.js';
import { TEST_ADMIN_TOKEN } from '../helpers/stack.js';

// The walk through a request for use and the live updates are portal.browser.test.ts, which runs beside this one.
const CHROMIUM_HERE = haveChromium('portal pages browser test');

describe.runIf(CHROMIUM_HERE)('every page of the portal in a real browser', () => {
  const portal = usePortalBrowser();

  it('shows every page in Thai and English (and at phone width on the visual tour), with no serious axe finding', async () => {
    const { stack, origin, newContext, findingsByImpact, outside, pageErrors } = portal();
    // A client with a decided request and a pending one, so the signed-in pages show both.
    const registered = (await (
      await stack.post({
        query:
          'mutation { registerClient(input: { name: "Screenshot app", contactEmail: "shots@example.org" }) { apiKey } }',
      })
    ).json()) as { data: { registerClient: { apiKey: string } } };
    const key = registered.data.registerClient.apiKey;
    expect(key).not.toBe('');
    const ask = async (endpointId: number): Promise<string> => {
      const response = (await (
        await stack.post(
          {
            query: `mutation { requestEndpointUse(input: { endpointId: ${endpointId}, purpose: "แดชบอร์ด" }) { useRequest { id } } }`,
          },
          { authorization: `Bearer ${key}` },
        )
      ).json()) as { data: { requestEndpointUse: { useRequest: { id: string } } } };
      return response.data.requestEndpointUse.useRequest.id;
    };
    const decided = await ask(83);
    await ask(84);
    const review = await stack.post(
      { query: `mutation { reviewUseRequest(input: { id: "${decided}", decision: APPROVE }) { useRequest { id } } }` },
      { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    );
    expect(await review.json()).toEqual({ data: { reviewUseRequest: { useRequest: { id: decided } } } });

    const pages: [name: string, hash: string][] = [
      ['catalogue', '#/'],
      ['dataset-teachers-by-year', '#/datasets/ODS_COUNT_TEACHER_BY_YEAR'],
      ['dataset-schools-by-jurisdiction', '#/datasets/ODS_COUNT_SCHOOL_BY_JURISDICTION'],
      ['dataset-13-teachers-by-school', '#/datasets/ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER'],
      ['developer-signed-out', '#/developer'],
      ['developer', '#/developer'],
      ['operator-signed-out', '#/operator'],
      ['operator', '#/operator'],
    ];
    const findings: string[] = [];
    const moderate: string[] = [];
    for (const language of ['th', 'en'] as const) {
      for (const [width, viewport] of Object.entries(TOUR_VIEWPORTS)) {
        const { context, page } = await newContext(language === 'th' ? 'th-TH' : 'en-GB', viewport);
        await page.goto(`${origin}/portal/`);
        for (const [name, hash] of pages) {
          // The language as the switch remembers it and credentials as a signed-in tab holds them, then the page
          // loaded afresh with them (once: a new query string, which the portal ignores, makes it a load rather than
          // a move within the portal).
          await page.evaluate(
            ([lang, clientKey, token, pageName]) => {
              localStorage.setItem('portal.language', lang);
              sessionStorage.clear();
              if (pageName === 'developer') sessionStorage.setItem('portal.clientKey', clientKey);
              if (pageName === 'operator') sessionStorage.setItem('portal.operatorToken', token);
            },
            [language, key, TEST_ADMIN_TOKEN, name] as const,
          );
          await page.goto(`${origin}/portal/?${name}-${width}${hash}`);
          await page.locator('main h1').waitFor();
          await expect
            .poll(() => page.locator('main [role=status]:text-matches("กำลังโหลด|Loading")').count(), {
              timeout: 15_000,
            })
            .toBe(0);
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
          // Colours, names and roles do not change with the width: axe once per page and language.
          if (width === 'desktop') {
            const found = await findingsByImpact(page);
            findings.push(...found.serious.map((finding) => `${name} ${language}: ${finding}`));
            // The catalogue and dataset pages hold to moderate findings too (landmarks, headings).
            if (name === 'catalogue' || name.startsWith('dataset'))
              moderate.push(...found.moderate.map((finding) => `${name} ${language}: ${finding}`));
          }
          await screenshot(page, `${name}-${language}-${width}`);
        }
        await context.close();
      }
    }
    expect(findings).toEqual([]);
    expect(moderate).toEqual([]);
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
