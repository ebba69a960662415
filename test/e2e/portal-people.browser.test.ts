import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { haveChromium } from '../helpers/chromium.js';
import { VIEWPORTS, usePortalBrowser } from '../helpers/portal-browser.js';
import { TEST_ADMIN_TOKEN, type Stack } from '../helpers/stack.js';

// The developer's and the operator's pages (issue 35): ready-to-run requests that run as pasted, usage over time, a
// remembered key that survives a failed load; usage per client, the history of decisions, confirmed revocations.
const CHROMIUM_HERE = haveChromium('portal developer and operator browser test');
/** A named operator (ADMIN_TOKENS): decisions made with this token are operator:malee's. */
const OFFICER = { name: 'malee', token: 'malee-portal-operator-token-9a8b7c6d' };
/** Where the screenshots go, on the visual tour (PORTAL_SCREENSHOTS=1); a person looks at them. */
const SHOTS = process.env['PORTAL_SHOTS_DIR'] ?? 'test-results/portal-people';
const TOUR = process.env['PORTAL_SCREENSHOTS'] === '1';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const run = promisify(execFile);

/** Every axe finding of at least moderate impact, as "rule (impact): targets". */
async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact !== 'minor')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

async function shot(page: Page, name: string): Promise<void> {
  if (!TOUR) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function gql<T>(stack: Stack, query: string, token?: string): Promise<T> {
  const response = await stack.post({ query }, token === undefined ? {} : { authorization: `Bearer ${token}` });
  const body = (await response.json()) as { data: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

async function register(stack: Stack, name: string): Promise<string> {
  const data = await gql<{ registerClient: { apiKey: string } }>(
    stack,
    `mutation { registerClient(input: { name: "${name}", contactEmail: "people@example.org" }) { apiKey } }`,
  );
  return data.registerClient.apiKey;
}

async function ask(stack: Stack, key: string, endpointId: number): Promise<string> {
  const data = await gql<{ requestEndpointUse: { useRequest: { id: string } } }>(
    stack,
    `mutation { requestEndpointUse(input: { endpointId: ${endpointId}, purpose: "รายงานประจำปี" }) { useRequest { id } } }`,
    key,
  );
  return data.requestEndpointUse.useRequest.id;
}

/** The page loaded afresh with a language and what a signed-in tab holds in its storage. */
async function openAs(
  page: Page,
  origin: string,
  path: string,
  language: 'th' | 'en',
  storage: Record<string, string>,
  remembered = false,
): Promise<void> {
  await page.goto(`${origin}/portal/`);
  await page.evaluate(
    ([lang, entries, keep]) => {
      localStorage.clear();
      sessionStorage.clear();
      localStorage.setItem('portal.language', lang);
      for (const [name, value] of Object.entries(entries)) (keep ? localStorage : sessionStorage).setItem(name, value);
    },
    [language, storage, remembered] as const,
  );
  await page.goto(`${origin}/portal${path}?load=${Date.now()}`);
  await page.locator('main h1').waitFor();
  await page.locator('main [role=status]:text-matches("กำลังโหลด|Loading")').waitFor({ state: 'detached' });
}

describe.runIf(CHROMIUM_HERE)("the developer's and the operator's pages in a real browser", () => {
  // A rate limit, so that answers state the quota (RateLimit-Policy) the developer page shows.
  const portal = usePortalBrowser({ adminTokens: [OFFICER], rateLimit: { points: 600, windowS: 60 } });

  it('a developer signs up on a phone, copies a curl command that runs as pasted, and sees their usage', async () => {
    const { stack, origin, newContext, outside, pageErrors } = portal();
    const { context, page } = await newContext('th-TH', VIEWPORTS.phone);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });

    await page.goto(`${origin}/portal/developer`);
    // The page's module is loaded on its route: axe reads the page once it has drawn its heading.
    await page.locator('main h1').waitFor();
    const signedOutFindings = await axeFindings(page);
    await page.getByLabel('ชื่อแอปพลิเคชัน').fill('แอปทดลองคำขอพร้อมใช้');
    await page.getByLabel('อีเมลติดต่อ').fill('snippet@example.org');
    await page.getByRole('button', { name: 'ลงทะเบียน' }).click();
    await page.locator('.key-once input.secret').waitFor();
    const key = await page.locator('.key-once input.secret').inputValue();

    // The first request to try is there with the new key: it runs as pasted and says who the key is.
    await page.getByRole('button', { name: 'คัดลอกโค้ด' }).click();
    await page.getByText('คัดลอกแล้ว พร้อม API key เต็ม').waitFor();
    const viewerCurl = await page.evaluate(() => navigator.clipboard.readText());
    expect(viewerCurl).toContain(key);
    // The page shows the key shortened: a screen share does not leak it.
    expect(await page.locator('.snippets pre').innerText()).not.toContain(key);
    const viewer = JSON.parse((await run('sh', ['-c', viewerCurl])).stdout) as unknown;
    expect(viewer).toEqual({ data: { viewer: { kind: 'CLIENT', name: 'แอปทดลองคำขอพร้อมใช้' } } });
    const keyOnceFindings = await axeFindings(page);
    await page.getByRole('button', { name: 'ไปต่อ' }).click();

    // Each summary card has its number and its ready-to-run request in five languages.
    const card = page.locator('[data-endpoint="ods_count_school_by_jurisdiction"]');
    await card.getByText('endpoint หมายเลข 83').waitFor();
    for (const lang of ['JavaScript', 'Python', 'Kotlin', 'Swift', 'curl']) {
      await card.getByRole('button', { name: lang, exact: true }).click();
      const code = await card.locator('pre').innerText();
      expect(code).toContain(`${origin}/graphql`);
      expect(code).toContain('summaryEndpoint(endpointId: 83)');
    }
    await card.getByLabel('วัตถุประสงค์การใช้งาน').fill('แดชบอร์ดจำนวนสถานศึกษา');
    await card.getByRole('button', { name: 'ส่งคำขอ' }).click();
    await card.locator('.badge[data-status="PENDING"]').waitFor();
    const [request] = (await gql<{ myUseRequests: { id: string }[] }>(stack, '{ myUseRequests { id } }', key))
      .myUseRequests;
    await gql(
      stack,
      `mutation { reviewUseRequest(input: { id: "${request?.id}", decision: APPROVE, note: "ok" }) { useRequest { id } } }`,
      OFFICER.token,
    );
    await card.locator('.badge[data-status="APPROVED"]').waitFor({ timeout: 10_000 });

    // The copied curl command runs as pasted: the approved summary's payload, with the whole key.
    await card.getByRole('button', { name: 'คัดลอกโค้ด' }).click();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl.startsWith(`curl -sS '${origin}/graphql'`)).toBe(true);
    const answer = JSON.parse((await run('sh', ['-c', curl])).stdout) as {
      data: { summaryEndpoint: { endpointId: number; status: string; payload: unknown } };
    };
    expect(answer.data.summaryEndpoint).toMatchObject({ endpointId: 83, status: 'APPROVED' });
    expect(answer.data.summaryEndpoint.payload).not.toBeNull();

    // After a reload the page shows the usage so far (today's column) and the quota the answers state.
    await page.reload();
    const usage = page.locator('figure.usage');
    await usage.waitFor();
    const totals = await usage.locator('.usage-totals').innerText();
    const today = Number(/วันนี้ ([\d,]+)/.exec(totals)?.[1]?.replaceAll(',', ''));
    expect(today).toBeGreaterThanOrEqual(5);
    expect(await page.locator('[data-quota]').innerText()).toBe('600 ครั้งต่อ 1 นาที (ค่าเริ่มต้นของเซิร์ฟเวอร์)');
    await page.getByText('ดูเป็นตาราง').click();
    expect(await page.locator('.usage-table tbody tr').count()).toBe(30);
    const signedInFindings = await axeFindings(page);
    await shot(page, 'developer-th-phone');

    expect({ signedOutFindings, keyOnceFindings, signedInFindings }).toEqual({
      signedOutFindings: [],
      keyOnceFindings: [],
      signedInFindings: [],
    });
    await context.close();
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('keeps a remembered key through a dropped connection and a failing server, and forgets only a refused one', async () => {
    const { stack, origin, newContext, pageErrors } = portal();
    const key = await register(stack, 'Remembered key app');
    const { context, page } = await newContext('en-GB');
    await openAs(page, origin, '/developer', 'en', { 'portal.clientKey': key }, true);
    await page.getByText('Signed in as Remembered key app').waitFor();

    // The network drops: the page says so in its own words, keeps the key, and tries again on request.
    await page.route('**/graphql', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.getByText('Could not reach the server').waitFor();
    expect(await page.content()).not.toContain('Failed to fetch');
    expect(await page.evaluate(() => localStorage.getItem('portal.clientKey'))).toBe(key);
    await page.unroute('**/graphql');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Signed in as Remembered key app').waitFor();

    // The server answers 503 with no GraphQL body: the same.
    await page.route('**/graphql', (route) => route.fulfill({ status: 503, body: 'busy', contentType: 'text/plain' }));
    await page.reload();
    await page.getByText('The server gave an unexpected answer (HTTP 503)').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('portal.clientKey'))).toBe(key);
    await page.unroute('**/graphql');

    // In Thai too, "Failed to fetch" is not what the reader sees.
    await page.evaluate(() => localStorage.setItem('portal.language', 'th'));
    await page.route('**/graphql', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.getByText('ติดต่อเซิร์ฟเวอร์ไม่ได้').waitFor();
    await page.unroute('**/graphql');

    // Only the server refusing the key (UNAUTHENTICATED: rotated away, deleted) forgets it.
    await gql(stack, 'mutation { deleteMyRegistration { deletedAt } }', key);
    await page.reload();
    await page.getByText('เซิร์ฟเวอร์ไม่รับ API key นี้แล้ว').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('portal.clientKey'))).toBeNull();
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('an operator sees usage over time and past decisions; revoke and disable ask first, with a note', async () => {
    const { stack, origin, newContext, outside, pageErrors } = portal();
    const busy = await register(stack, 'Busy dashboard');
    const quiet = await register(stack, 'Quiet app');
    const busyRequest = await ask(stack, busy, 83);
    await ask(stack, quiet, 84);
    await ask(stack, busy, 85);
    for (let i = 0; i < 6; i += 1) await gql(stack, '{ me { id } }', busy);
    await gql(
      stack,
      `mutation { reviewUseRequest(input: { id: "${busyRequest}", decision: APPROVE, note: "อนุมัติสำหรับแดชบอร์ด" }) { useRequest { id } } }`,
      TEST_ADMIN_TOKEN,
    );

    const { context, page } = await newContext('en-GB');
    await page.goto(`${origin}/portal/operator`);
    // A wrong token gets the portal's own words, not "Unknown API key" or a lesson on the Authorization header.
    await page.getByLabel('Operator token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong operator token').waitFor();
    expect(await page.content()).not.toContain('Unknown API key');
    const signInFindings = await axeFindings(page);
    await page.getByLabel('Operator token').fill(OFFICER.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as the operator malee').waitFor();

    // Usage per client over time, sorted by operations; sorting by name turns the order around.
    const usageRows = page.locator('tr[data-usage-client] th');
    await usageRows.first().waitFor();
    // Other tests' clients share the server: the two of this one, in the order shown.
    const order = async () =>
      (await usageRows.allInnerTexts()).filter((name) => name === 'Busy dashboard' || name === 'Quiet app');
    expect(await order()).toEqual(['Busy dashboard', 'Quiet app']);
    await page.locator('button[data-sort="name"]').click();
    await expect.poll(() => page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('ascending');
    expect(await order()).toEqual(['Busy dashboard', 'Quiet app']);
    await page.locator('button[data-sort="name"]').click();
    expect(await order()).toEqual(['Quiet app', 'Busy dashboard']);
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('descending');
    // Past decisions: who, what, which note.
    const decisions = page.locator('tr[data-decision]');
    await decisions.first().waitFor();
    expect(await decisions.first().innerText()).toContain('อนุมัติสำหรับแดชบอร์ด');
    expect(await decisions.first().innerText()).toContain('operator');

    // Approving from the queue keeps the focus in the queue: on the request that took the decided one's place.
    const queued = page.locator('[data-request]');
    await expect.poll(() => queued.count()).toBe(2);
    await queued.first().getByLabel('Note to the client').fill('First of two');
    await queued.first().getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => queued.count()).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-request]') !== null)).toBe(true);
    await page.locator('.notice', { hasText: 'Approved' }).waitFor();
    await page.locator('tr[data-decision]', { hasText: 'First of two' }).waitFor();

    // Revoke asks first, with a note; nothing changes until it is confirmed.
    const busyCard = page.locator('[data-client]').filter({ hasText: 'Busy dashboard' });
    await busyCard.locator(`button[data-revoke="${busyRequest}"]`).click();
    await busyCard.getByText("Revoke Busy dashboard's use of").waitFor();
    expect(await busyCard.locator('.badge[data-status="APPROVED"]').count()).toBeGreaterThan(0);
    const revokeFindings = await axeFindings(page);
    await shot(page, 'operator-revoke-confirm-en-desktop');
    await busyCard.getByLabel('Note (the client sees it; kept in the audit trail)').fill('Contract ended');
    await busyCard.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.locator('.notice', { hasText: "Busy dashboard's use of" }).waitFor();
    await page.locator('tr[data-decision]', { hasText: 'Contract ended' }).waitFor();
    const revoked = await gql<{ node: { status: string; history: { note: string | null }[] } }>(
      stack,
      `{ node(id: "${busyRequest}") { ... on UseRequest { status history { note } } } }`,
      TEST_ADMIN_TOKEN,
    );
    expect(revoked.node.status).toBe('REVOKED');
    expect(revoked.node.history.at(-1)?.note).toBe('Contract ended');

    // Disable asks first too, and its note is kept in the client's history.
    const quietCard = page.locator('[data-client]').filter({ hasText: 'Quiet app' });
    await quietCard.getByRole('button', { name: 'Disable' }).click();
    await quietCard.getByLabel('Note (the client sees it; kept in the audit trail)').fill('Abuse report 12');
    await quietCard.getByRole('button', { name: 'Yes, disable' }).click();
    await quietCard.getByText('disabled', { exact: true }).waitFor();
    await page.locator('tr[data-decision]', { hasText: 'Abuse report 12' }).waitFor();

    // Erasure says so where the operator is looking, and stays until the next action.
    await quietCard.getByRole('button', { name: 'Erase on request (PDPA)…' }).click();
    await quietCard.getByLabel('Grounds (e.g. a ticket number)').fill('PDPA letter 2569/18');
    await quietCard.getByRole('button', { name: 'Erase this client' }).click();
    const erased = page.locator('.notice', { hasText: 'Quiet app was erased at' });
    await erased.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('notice'))).toBe(true);
    const signedInFindings = await axeFindings(page);
    await shot(page, 'operator-after-erasure-en-desktop');

    // In Thai, a wrong token is said in Thai.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'ภาษาไทย' }).click();
    await page.getByLabel('โทเคนผู้ดูแล').fill('not-the-token');
    await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
    await page.getByText('โทเคนผู้ดูแลไม่ถูกต้อง').waitFor();

    expect({ signInFindings, revokeFindings, signedInFindings }).toEqual({
      signInFindings: [],
      revokeFindings: [],
      signedInFindings: [],
    });
    await context.close();
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it.runIf(TOUR)(
    'the visual tour: both pages, both widths, both languages',
    async () => {
      const { stack, origin, newContext } = portal();
      const key = await register(stack, 'แอปภาพหน้าจอ');
      const approved = await ask(stack, key, 83);
      await ask(stack, key, 84);
      for (let i = 0; i < 3; i += 1) await gql(stack, '{ me { id } }', key);
      await gql(
        stack,
        `mutation { reviewUseRequest(input: { id: "${approved}", decision: APPROVE, note: "ใช้ได้" }) { useRequest { id } } }`,
        OFFICER.token,
      );
      // A second client, busier, rejected once and then disabled with a note: several decisions to show.
      const other = await register(stack, 'Provincial dashboard');
      const rejected = await ask(stack, other, 86);
      for (let i = 0; i < 12; i += 1) await gql(stack, '{ me { id } }', other);
      await gql(
        stack,
        `mutation { reviewUseRequest(input: { id: "${rejected}", decision: REJECT, note: "Purpose unclear: say which reports" }) { useRequest { id } } }`,
        OFFICER.token,
      );
      const otherId = (await gql<{ me: { id: string } }>(stack, '{ me { id } }', other)).me.id;
      await gql(
        stack,
        `mutation { disableClient(input: { id: "${otherId}", note: "Too many requests at night" }) { client { id } } }`,
        TEST_ADMIN_TOKEN,
      );
      const findings: string[] = [];
      for (const language of ['th', 'en'] as const)
        for (const [width, viewport] of Object.entries(VIEWPORTS)) {
          const { context, page }: { context: BrowserContext; page: Page } = await newContext(
            language === 'th' ? 'th-TH' : 'en-GB',
            viewport,
          );
          await openAs(page, origin, '/developer', language, { 'portal.clientKey': key });
          await page.locator('figure.usage').waitFor();
          if (width === 'desktop')
            findings.push(...(await axeFindings(page)).map((f) => `developer ${language}: ${f}`));
          await shot(page, `developer-${language}-${width}`);
          await openAs(page, origin, '/operator', language, { 'portal.operatorToken': OFFICER.token });
          await page.locator('tr[data-decision]').first().waitFor();
          if (width === 'desktop') findings.push(...(await axeFindings(page)).map((f) => `operator ${language}: ${f}`));
          await shot(page, `operator-${language}-${width}`);
          await context.close();
        }
      expect(findings).toEqual([]);
    },
    180_000,
  );
});
