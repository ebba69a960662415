import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium fonts-thai-tlwg): never a downloaded one. */
const FULL_CHROMIUM = '/usr/bin/chromium';
/**
 * Debian's headless shell of the same Chromium (apt-get install chromium-headless-shell), preferred when present:
 * the same Blink and V8 without the browser's own layers, it took the browser suites from 183 s of CPU to 102 s here.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;

/** Whether the browser suites can run here; each says so once when they cannot. */
export function haveChromium(suite: string): boolean {
  const found = existsSync(CHROMIUM);
  if (!found)
    console.warn(
      `${suite} skipped: no Chromium at ${FULL_CHROMIUM} (apt-get install chromium chromium-headless-shell fonts-thai-tlwg)`,
    );
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
