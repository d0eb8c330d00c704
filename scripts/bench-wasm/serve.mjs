// What the Chromium drivers (run.mjs, opt.mjs, step.mjs) share: Debian's headless Chromium and a browser
// context whose pages get their files from disk through Playwright's router (no server, nothing
// leaves the browser).
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { chromium } from 'playwright-core';

/** The origin the pages are served under. */
export const origin = 'http://127.0.0.1:9/';

const mime = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.data': 'application/octet-stream', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

/**
 * Chromium and a context serving `fileOf(path)` (a file on disk, or null: 404) for every path
 * under `origin`.
 * @param {(path: string) => string | null} fileOf
 */
export async function openBrowser(fileOf) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
  });
  const context = await browser.newContext();
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    const file = url.origin + '/' === origin ? fileOf(decodeURIComponent(url.pathname.slice(1))) : null;
    if (!file) return route.fulfill({ status: 404, body: 'not found' });
    try {
      await route.fulfill({ status: 200, body: readFileSync(file),
        contentType: mime[extname(file)] || 'text/plain; charset=utf-8' });
    } catch {
      await route.fulfill({ status: 404, body: 'not found' });
    }
  });
  return { browser, context };
}
