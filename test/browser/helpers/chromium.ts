import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium; the CI script installs it too), driven by playwright-core. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** One headless browser per test file (local-stack.md §11): launching costs ~1 s, a page ~0.1 s. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
