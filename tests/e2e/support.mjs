// What the browser tests share: the repository's root, where screenshots go, Debian's headless
// Chromium (playwright-core never downloads a browser), the console errors of the pages, and
// `check(name, f)` with its tally (`ok - …` / `not ok - …`, then `N passed, N failed`).
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const artifacts = process.env.ARTIFACTS || join(root, 'target', 'e2e-artifacts');
mkdirSync(artifacts, { recursive: true });

/** Debian's Chromium, headless (`CHROMIUM` overrides the path). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run'],
  });
}

/** The console errors and uncaught exceptions of every page given to `watch`. */
export const consoleErrors = [];
export function watch(page) {
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  return page;
}

/**
 * A tally of checks. `onFailure(n)` runs after the n-th check failed (a screenshot, a fresh page);
 * its own failure is ignored. `done({ exit })` prints the tally and sets the exit code (`exit`:
 * ends the process, for tests that leave servers or sockets open).
 */
export function checks(onFailure = async () => {}) {
  let passed = 0;
  let failed = 0;
  async function check(name, f) {
    try {
      await f();
      passed += 1;
      console.log(`ok - ${name}`);
    } catch (e) {
      failed += 1;
      console.log(`not ok - ${name}`);
      console.error(e);
      await onFailure(passed + failed).catch(() => {});
    }
  }
  function done({ exit = false } = {}) {
    console.log(`${passed} passed, ${failed} failed`);
    if (exit) process.exit(failed ? 1 : 0);
    if (failed) process.exitCode = 1;
  }
  return { check, done };
}

/**
 * What the `sidl serve` tests do with a server at `base` (its admin token `token`): `api(path,
 * body?)` (admin REST, JSON), `participant(link)` (a browser context of its own, no shared cookies or
 * storage; every WebSocket frame it receives is kept in `frames`, its page errors in `errors`) and
 * `monitor(id)` (the experimenter's monitor page in a context of its own).
 */
export function served(browser, base, token) {
  async function api(path, body) {
    const r = await fetch(base + path, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, body: await r.json() };
  }
  async function participant(link) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const seat = { page, frames: [], errors: [] };
    page.on('websocket', (ws) => ws.on('framereceived', (f) => seat.frames.push(String(f.payload))));
    page.on('pageerror', (e) => seat.errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') seat.errors.push(m.text()); });
    await page.goto(link);
    return seat;
  }
  async function monitor(id) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/admin/monitor#token=${token}&session=${id}`);
    await page.waitForSelector('section.group .designer-view');
    return { page, errors };
  }
  return { api, participant, monitor };
}
