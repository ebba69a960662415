import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium } from '../helpers/chromium.js';
import { screenshot, usePortalBrowser } from '../helpers/portal-browser.js';
import { TEST_ADMIN_TOKEN } from '../helpers/stack.js';

// The tour of every page in both languages and widths is portal-pages.browser.test.ts, which runs beside this one.
const CHROMIUM_HERE = haveChromium('portal browser test');
const SCHOOLS_ENDPOINT = 'ods_count_school_by_jurisdiction';
const STUDENTS_ENDPOINT = 'ods_count_student_by_year';
/** A named operator (ADMIN_TOKENS): the audit trail records the decisions made with this token as operator:somchai. */
const OFFICER = { name: 'somchai', token: 'somchai-portal-operator-token-5e6f7a8b' };

describe.runIf(CHROMIUM_HERE)('the portal in a real browser', () => {
  const portal = usePortalBrowser({ adminTokens: [OFFICER] });

  const statusOf = (page: Page, endpoint: string) =>
    page.locator(`[data-endpoint="${endpoint}"] .badge`).first().getAttribute('data-status');

  it('walks a request for use: register, ask, approved live by an operator, rotate the key', async () => {
    const { stack, origin, newContext, seriousFindings, outside, pageErrors } = portal();
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
    await screenshot(dev, 'developer-key-once-th-desktop');
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
    await screenshot(op, 'operator-queue-en-desktop');
    await request.getByLabel('Note to the client').fill('Approved for the dashboard <i>pilot</i>');
    await request.getByRole('button', { name: 'Approve' }).click();
    await op.getByText('No request is waiting').waitFor();

    // The developer's page shows it, with the note, without a reload.
    await expect.poll(() => statusOf(dev, SCHOOLS_ENDPOINT), { timeout: 10_000 }).toBe('APPROVED');
    expect(await dev.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await card.locator('.note').innerText()).toContain('Approved for the dashboard <i>pilot</i>');
    expect(await card.locator('i').count()).toBe(0);
    expect(await seriousFindings(dev)).toEqual([]);
    await screenshot(dev, 'developer-approved-th-desktop');

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
    // Asking for another summary on the same page goes with the new key, the old one being refused by now.
    const students = dev.locator(`[data-endpoint="${STUDENTS_ENDPOINT}"]`);
    await students.getByLabel('วัตถุประสงค์การใช้งาน').fill('แดชบอร์ดนักเรียน');
    await students.getByRole('button', { name: 'ส่งคำขอ' }).click();
    await expect.poll(() => statusOf(dev, STUDENTS_ENDPOINT)).toBe('PENDING');

    // The operator sets its quota from the clients directory; the developer's page shows it after a reload.
    const client = op.locator('[data-client]').filter({ hasText: 'Portal <b>test</b> app' });
    await client.getByLabel('Quota (operations per window)').fill('1234');
    await client.getByRole('button', { name: 'Set quota' }).click();
    await expect.poll(() => op.locator('[data-client] input[type=number]').first().inputValue()).toBe('1234');
    await dev.reload();
    await dev.locator('[data-quota="1234"]').waitFor();

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
    await lostCard.getByRole('button', { name: 'Yes, disable' }).click();
    await lostCard.getByText('disabled', { exact: true }).waitFor();
    await lostCard.getByRole('button', { name: 'Erase on request (PDPA)…' }).click();
    await lostCard.getByLabel('Grounds (e.g. a ticket number)').fill('PDPA letter 2569/17');
    expect(await seriousFindings(op)).toEqual([]);
    await screenshot(op, 'operator-erase-en-desktop');
    await lostCard.getByRole('button', { name: 'Erase this client' }).click();
    await op.getByText('Clients found: 0').waitFor();
    expect(await me(lost.data.registerClient.apiKey)).toBe(401);

    await developer.context.close();
    await operator.context.close();
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("updates a dataset page's version live when the upstream publishes a revision", async () => {
    const { stack, origin, newContext } = portal();
    const { context, page } = await newContext('en-GB');
    const code = 'ODS_COUNT_TEACHER_BY_YEAR';
    await stack.live.watcher.check();
    await page.goto(`${origin}/portal/datasets/${code}`);
    await page.locator('.chart .bars li').first().waitFor();
    const version = page.locator('.facts dd[data-fact=version]');
    const before = await version.innerText();
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
    expect(await version.innerText()).not.toBe(before);
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await context.close();
  }, 60_000);
});
