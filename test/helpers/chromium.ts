import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium fonts-thai-tlwg): never a downloaded one. */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser suites can run here; each says so once when they cannot. */
export function haveChromium(suite: string): boolean {
  const found = existsSync(CHROMIUM);
  if (!found) console.warn(`${suite} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium fonts-thai-tlwg)`);
  return found;
}

/** Headless Chromium as the browser suites run it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without these, Chromium tries Google's services at start-up, which this closed network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
