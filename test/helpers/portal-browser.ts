import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { startOtherStack, type OtherStack } from './other-stack.js';
import { listen, startStack, type Stack, type StackOptions } from './stack.js';

/** Every page of the portal in Thai and English, at phone and desktop widths. */
export const SCREENSHOTS = 'test-results/portal';
export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

/**
 * The visual tour, `PORTAL_SCREENSHOTS=1 npm run test:e2e`: every page at phone width as well as desktop, and a full-page
 * screenshot of each in SCREENSHOTS for a person to look at. .ci/run takes it on one Node.js line. A plain `npm test`
 * checks the pages at desktop width and takes no picture: the tour is about a tenth of the suite's CPU (Chromium
 * renders twice the pages and encodes 32 images), spent on files nobody reads on most runs.
 */
export const VISUAL_TOUR = process.env['PORTAL_SCREENSHOTS'] === '1';
export const TOUR_VIEWPORTS: Partial<Record<keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]>> =
  VISUAL_TOUR ? VIEWPORTS : { desktop: VIEWPORTS.desktop };

/** A full-page screenshot of `page` as SCREENSHOTS/`name`.png, on the visual tour. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (VISUAL_TOUR) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's findings over the page as it is now, each with its impact: one run serves every level asked. */
async function axeFindings(page: Page): Promise<{ impact: string | null; text: string }[]> {
  // Evaluated through the DevTools protocol, which the page's script-src does not govern (an inline tag would be
  // refused); once per document.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.map((violation) => ({
    impact: violation.impact,
    text: `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  }));
}

/** One axe-core run over the page: its serious and critical findings, and the moderate ones. */
async function findingsByImpact(page: Page): Promise<{ serious: string[]; moderate: string[] }> {
  const findings = await axeFindings(page);
  const of = (impacts: readonly string[]): string[] =>
    findings.filter(({ impact }) => impacts.includes(impact ?? '')).map(({ text }) => text);
  return { serious: of(['serious', 'critical']), moderate: of(['moderate']) };
}

export interface PortalBrowser {
  readonly stack: Stack;
  readonly origin: string;
  /** What any page asked of another origin, or what the browser refused by the Content-Security-Policy. */
  readonly outside: string[];
  readonly pageErrors: string[];
  /** A browser context in `locale` (desktop unless told) and a page in it, watched for the two lists above. */
  readonly newContext: (
    locale: string,
    viewport?: { width: number; height: number },
  ) => Promise<{ context: BrowserContext; page: Page }>;
  /** axe-core over the page as it is now; its serious and critical findings. */
  readonly seriousFindings: (page: Page) => Promise<string[]>;
  /** axe-core over the page as it is now, once: its serious and critical findings, and the moderate ones. */
  readonly findingsByImpact: (page: Page) => Promise<{ serious: string[]; moderate: string[] }>;
}

/**
 * A stack listening on a loopback port and headless Chromium, started in beforeAll and closed in afterAll, for the
 * portal's browser suites: each file has its own, so the suites can run side by side.
 */
export function usePortalBrowser(
  options: StackOptions = {},
  /** 'other': the server reads the second upstream (other-upstream.ts), whose records have other keys. */
  upstream: 'simulator' | 'other' = 'simulator',
): () => PortalBrowser {
  let stack: Stack | undefined;
  let other: OtherStack | undefined;
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  let browser: Browser | undefined;
  let portal: PortalBrowser | undefined;

  beforeAll(async () => {
    if (upstream === 'other') other = await startOtherStack(options);
    stack = other?.stack ?? (await startStack(options));
    server = await listen(stack.app);
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    const { origin } = server;
    const started = { stack, browser };
    const outside: string[] = [];
    const pageErrors: string[] = [];
    const watch = (page: Page): void => {
      page.on('request', (request) => {
        if (!request.url().startsWith(origin) && !/^(data|blob):/.test(request.url())) outside.push(request.url());
      });
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) outside.push(message.text());
      });
      page.on('pageerror', (error) => pageErrors.push(error.message));
    };
    portal = {
      stack: started.stack,
      origin,
      outside,
      pageErrors,
      newContext: async (locale, viewport = VIEWPORTS.desktop) => {
        const context = await started.browser.newContext({ locale, viewport });
        const page = await context.newPage();
        watch(page);
        return { context, page };
      },
      seriousFindings: async (page) => (await findingsByImpact(page)).serious,
      findingsByImpact,
    };
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await (other ?? stack)?.close();
  });

  return () => {
    if (portal === undefined) throw new Error('the portal browser starts in beforeAll: use it inside a test');
    return portal;
  };
}
