import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { haveChromium, launchChromium } from './helpers/chromium.js';
import { listen, startStack, TEST_ADMIN_TOKEN, type Stack } from './helpers/stack.js';

const CHROMIUM_HERE = haveChromium('portal browser test');
/** Every page of the portal in Thai and English, at phone and desktop widths. */
export const SCREENSHOTS = 'test-results/portal';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
const SCHOOLS_ENDPOINT = 'ods_count_school_by_jurisdiction';
/** A named operator (ADMIN_TOKENS): the audit trail records the decisions made with this token as operator:somchai. */
const OFFICER = { name: 'somchai', token: 'somchai-portal-operator-token-5e6f7a8b' };

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe.runIf(CHROMIUM_HERE)('the portal in a real browser', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;
  let origin: string;
  /** What any page asked of another origin, or what the browser refused by the Content-Security-Policy. */
  const outside: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    stack = await startStack({ adminTokens: [OFFICER] });
    server = await listen(stack.app);
    origin = server.origin;
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stack?.close();
  });

  const newContext = async (
    locale: string,
    viewport: { width: number; height: number } = VIEWPORTS.desktop,
  ): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ locale, viewport });
    const page = await context.newPage();
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !/^(data|blob):/.test(request.url())) outside.push(request.url());
    });
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) outside.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return { context, page };
  };

  /** axe-core over the page as it is now; its serious and critical findings. */
  const seriousFindings = async (page: Page): Promise<string[]> => {
    // Evaluated through the DevTools protocol, which the page's script-src does not govern (an inline tag would be refused).
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await axe.run()).violations;
    });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
      );
  };

  const statusOf = (page: Page, endpoint: string) =>
    page.locator(`[data-endpoint="${endpoint}"] .badge`).first().getAttribute('data-status');

  it('walks a request for use: register, ask, approved live by an operator, rotate the key', async () => {
    const developer = await newContext('th-TH');
    const operator = await newContext('en-US');
    const dev = developer.page;
    const op = operator.page;

    // A developer registers; the name is untrusted text and must stay text on every page that shows it.
    await dev.goto(`${origin}/portal/#/developer`);
    await dev.getByLabel('ชื่อแอปพลิเคชัน').fill('Portal <b>test</b> app');
    await dev.getByLabel('อีเมลติดต่อ').fill('dev@example.org');
    await dev.getByRole('button', { name: 'ลงทะเบียน' }).click();
    const shownKey = dev.locator('.key-once input.secret');
    await shownKey.waitFor();
    const firstKey = await shownKey.inputValue();
    expect(firstKey.length).toBeGreaterThan(20);
    expect(await seriousFindings(dev)).toEqual([]);
    await dev.screenshot({ path: `${SCREENSHOTS}/developer-key-once-th-desktop.png`, fullPage: true });
    await dev.getByRole('button', { name: 'ไปต่อ' }).click();

    // The key is in this tab's session only: not in the URL, not in persistent storage.
    expect(dev.url()).not.toContain(firstKey);
    const stored = await dev.evaluate(() => ({
      session: Object.values(sessionStorage),
      local: Object.values(localStorage),
    }));
    expect(stored.session).toContain(firstKey);
    expect(stored.local).not.toContain(firstKey);

    // It asks for use of the schools summary with a purpose.
    const card = dev.locator(`[data-endpoint="${SCHOOLS_ENDPOINT}"]`);
    await card.getByLabel('วัตถุประสงค์การใช้งาน').fill('แดชบอร์ดสถานศึกษา <script>alert(1)</script>');
    await card.getByRole('button', { name: 'ส่งคำขอ' }).click();
    await expect.poll(() => statusOf(dev, SCHOOLS_ENDPOINT)).toBe('PENDING');
    await dev.locator('text=สถานะปรับให้อัตโนมัติ').waitFor();
    // A marker that a reload would lose: the APPROVED below must arrive without one.
    await dev.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));

    // An operator, in another browser context, finds it in the queue and approves it with a note.
    await op.goto(`${origin}/portal/#/operator`);
    expect(await seriousFindings(op)).toEqual([]);
    await op.getByLabel('Operator token').fill(OFFICER.token);
    await op.getByRole('button', { name: 'Sign in' }).click();
    await op.getByText('Signed in as the operator somchai').waitFor();
    const request = op.locator('[data-request]').filter({ hasText: 'Portal <b>test</b> app' });
    await request.waitFor();
    expect(await request.locator('b').count()).toBe(0);
    expect(await request.innerText()).toContain('<script>alert(1)</script>');
    expect(await seriousFindings(op)).toEqual([]);
    await op.screenshot({ path: `${SCREENSHOTS}/operator-queue-en-desktop.png`, fullPage: true });
    await request.getByLabel('Note to the client').fill('Approved for the dashboard <i>pilot</i>');
    await request.getByRole('button', { name: 'Approve' }).click();
    await op.getByText('No request is waiting').waitFor();

    // The developer's page shows it, with the note, without a reload.
    await expect.poll(() => statusOf(dev, SCHOOLS_ENDPOINT), { timeout: 10_000 }).toBe('APPROVED');
    expect(await dev.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await card.locator('.note').innerText()).toContain('Approved for the dashboard <i>pilot</i>');
    expect(await card.locator('i').count()).toBe(0);
    expect(await seriousFindings(dev)).toEqual([]);
    await dev.screenshot({ path: `${SCREENSHOTS}/developer-approved-th-desktop.png`, fullPage: true });

    // It rotates its key with no grace: the new key works, the old one is refused at once.
    await dev.getByLabel('ระยะผ่อนผันของ key เดิม').selectOption('0');
    await dev.getByRole('button', { name: 'เปลี่ยน key' }).click();
    await expect.poll(async () => dev.locator('.key-once input.secret').inputValue()).not.toBe('');
    const secondKey = await dev.locator('.key-once input.secret').inputValue();
    expect(secondKey).not.toBe(firstKey);
    const me = (key: string) =>
      stack.post({ query: '{ me { name } }' }, { authorization: `Bearer ${key}` }).then((response) => response.status);
    expect(await me(secondKey)).toBe(200);
    expect(await me(firstKey)).toBe(401);
    expect(await dev.evaluate(() => Object.values(sessionStorage) as string[])).toContain(secondKey);

    // The operator sets its quota from the clients directory; the developer's page shows it after a reload.
    const client = op.locator('[data-client]').filter({ hasText: 'Portal <b>test</b> app' });
    await client.getByLabel('Quota (operations per window)').fill('1234');
    await client.getByRole('button', { name: 'Set quota' }).click();
    await expect.poll(() => op.locator('[data-client] input[type=number]').first().inputValue()).toBe('1234');
    await dev.reload();
    await dev.getByText('1234', { exact: true }).waitFor();

    // The decision is the named operator's in the audit trail.
    const history = (await (
      await stack.post(
        { query: '{ useRequestsPage(status: APPROVED) { edges { node { history { actor } } } } }' },
        { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      )
    ).json()) as { data: { useRequestsPage: { edges: { node: { history: { actor: string }[] } }[] } } };
    expect(history.data.useRequestsPage.edges[0]?.node.history.at(-1)?.actor).toBe('operator:somchai');

    // It deletes its registration (PDPA): the page signs it out and the key stops at once.
    await dev.getByRole('button', { name: 'ลบการลงทะเบียน…' }).click();
    await dev.getByRole('button', { name: 'ยืนยันการลบถาวร' }).click();
    await dev.getByText('ลบการลงทะเบียนแล้ว').waitFor();
    expect(await me(secondKey)).toBe(401);
    expect(await dev.evaluate(() => Object.values(sessionStorage) as string[])).not.toContain(secondKey);

    // Another developer lost its key and asks, by letter, to be erased: the operator finds it in the directory,
    // disables it, then erases it (a disabled client, and no key needed).
    const lost = (await (
      await stack.post({
        query:
          'mutation { registerClient(input: { name: "Lost key app", contactEmail: "lost@example.org" }) { apiKey } }',
      })
    ).json()) as { data: { registerClient: { apiKey: string } } };
    await op.getByLabel('Search by name or e-mail').fill('LOST@example');
    await op.getByRole('button', { name: 'Search', exact: true }).click();
    await op.getByText('Clients found: 1').waitFor();
    const lostCard = op.locator('[data-client]').filter({ hasText: 'Lost key app' });
    await lostCard.getByRole('button', { name: 'Disable' }).click();
    await lostCard.getByText('disabled', { exact: true }).waitFor();
    await lostCard.getByRole('button', { name: 'Erase on request (PDPA)…' }).click();
    await lostCard.getByLabel('Grounds (e.g. a ticket number)').fill('PDPA letter 2569/17');
    expect(await seriousFindings(op)).toEqual([]);
    await op.screenshot({ path: `${SCREENSHOTS}/operator-erase-en-desktop.png`, fullPage: true });
    await lostCard.getByRole('button', { name: 'Erase this client' }).click();
    await op.getByText('Clients found: 0').waitFor();
    expect(await me(lost.data.registerClient.apiKey)).toBe(401);

    await developer.context.close();
    await operator.context.close();
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("updates a dataset page's version live when the upstream publishes a revision", async () => {
    const { context, page } = await newContext('en-GB');
    const code = 'ODS_COUNT_TEACHER_BY_YEAR';
    await stack.live.watcher.check();
    await page.goto(`${origin}/portal/#/datasets/${code}`);
    await page.getByText('Total by academic year').waitFor();
    const before = await page.locator('.facts dd').nth(5).innerText();
    expect(before).not.toBe('not checked yet');
    // A marker that a reload would lose.
    await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));
    await page.locator('text=The version updates by itself').waitFor();
    const revision = await fetch(`${stack.simulator.url}/__simulator/datasets/${code}/revisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ step: 1 }),
    });
    expect(revision.status).toBe(201);
    await stack.live.watcher.check();
    await page.locator('.notice', { hasText: 'This dataset changed' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('.facts dd').nth(5).innerText()).not.toBe(before);
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await context.close();
  }, 60_000);

  it('shows every page in Thai and English at phone and desktop widths, with no serious axe finding', async () => {
    // A client with a decided request and a pending one, so the signed-in pages show both.
    const registered = (await (
      await stack.post({
        query:
          'mutation { registerClient(input: { name: "Screenshot app", contactEmail: "shots@example.org" }) { apiKey } }',
      })
    ).json()) as { data: { registerClient: { apiKey: string } } };
    const key = registered.data.registerClient.apiKey;
    expect(key).not.toBe('');
    const pages: [name: string, hash: string][] = [
      ['catalogue', '#/'],
      ['dataset-teachers-by-year', '#/datasets/ODS_COUNT_TEACHER_BY_YEAR'],
      ['dataset-schools-by-jurisdiction', '#/datasets/ODS_COUNT_SCHOOL_BY_JURISDICTION'],
      ['developer-signed-out', '#/developer'],
      ['developer', '#/developer'],
      ['operator-signed-out', '#/operator'],
      ['operator', '#/operator'],
    ];
    const findings: string[] = [];
    for (const language of ['th', 'en'] as const) {
      for (const [width, viewport] of Object.entries(VIEWPORTS)) {
        const { context, page } = await newContext(language === 'th' ? 'th-TH' : 'en-GB', viewport);
        for (const [name, hash] of pages) {
          // The language as the switch remembers it; credentials as a signed-in tab holds them.
          await page.goto(`${origin}/portal/`);
          await page.evaluate(
            ([lang, clientKey, token, pageName]) => {
              localStorage.setItem('portal.language', lang);
              sessionStorage.clear();
              if (pageName === 'developer') sessionStorage.setItem('portal.clientKey', clientKey);
              if (pageName === 'operator') sessionStorage.setItem('portal.operatorToken', token);
            },
            [language, key, TEST_ADMIN_TOKEN, name] as const,
          );
          await page.goto(`${origin}/portal/${hash}`);
          await page.reload();
          await page.locator('main h1').waitFor();
          await page.locator('main [role=status]:text-matches("กำลังโหลด|Loading")').waitFor({ state: 'detached' });
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
          // Colours, names and roles do not change with the width: axe once per page and language.
          if (width === 'desktop')
            findings.push(...(await seriousFindings(page)).map((finding) => `${name} ${language}: ${finding}`));
          await page.screenshot({ path: `${SCREENSHOTS}/${name}-${language}-${width}.png`, fullPage: true });
        }
        await context.close();
      }
    }
    expect(findings).toEqual([]);
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 240_000);
});
