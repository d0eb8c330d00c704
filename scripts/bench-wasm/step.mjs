// scripts/bench-page.sh's driver: the playground (playground/, built) in headless Chromium, one game
// played with Step from its start to its end (every seat random, a seed), and how long each Step
// takes as the page's own clock measures it: from the click until the page is idle again (the
// worker's step, the pane's queries and its drawing; the address bar is written later, when the
// page is idle: within "drawn" or the next step), and until two animation frames later (drawn).
// Printed per range of chronons, so that a page whose Step grows with the game's length shows it.
// With MODE `run`: Run at `every 0 ms` over the whole game instead, the time until the chronons at
// each quarter of it, and what the page keeps of the game at the end (the characters of its
// timeline as JSON: quadratic if an entry holds the whole history).
//   node scripts/bench-wasm/step.mjs ROOT GAME SEED RUNS [MODE]
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, origin } from './serve.mjs';

const [root, game = 'chess.sidl', seed = '1', runsArg = '1', mode = 'step'] = process.argv.slice(2);
const runs = Number(runsArg);
const dir = join(root, 'playground');
const { browser, context } = await openBrowser((p) => {
  const f = join(dir, p === '' ? 'index.html' : p);
  return existsSync(f) && statSync(f).isFile() ? f : null;
});

/** @type {number[][][]} per run, per step: [until idle, until drawn] */
const all = [];
for (let r = 0; r < runs; r++) {
  const page = await context.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const idle = () => page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 120000 });
  await page.goto(origin);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  await idle();
  await page.selectOption('#example', game);
  await page.waitForFunction((n) => document.querySelector('#status')?.textContent === `loaded ${n}`, game, { timeout: 60000 });
  await idle();
  await page.fill('#seed', seed);
  // (Enter in the field does not restart the session: Restart does)
  await page.click('#restart');
  await idle();
  for (const sel of await page.locator('#seats select').all()) { await sel.selectOption('random'); await idle(); }
  if (mode === 'run') {
    // Run at 0 ms: when the timeline reached each chronon (sampled every animation frame)
    const res = await page.evaluate(async () => {
      const S = /** @type {any} */ (window).sidlState;
      /** @type {number[]} reached[k]: ms until chronon k was in the timeline */
      const reached = [0];
      /** @type {HTMLInputElement} */ (document.getElementById('run-ms')).value = '0';
      const t0 = performance.now();
      document.getElementById('run')?.click();
      await new Promise((res) => {
        const f = () => {
          const now = performance.now() - t0;
          while (reached.length < S.timeline.length) reached.push(now);
          if (document.getElementById('run')?.textContent === 'Run' && !document.body.dataset.busy && reached.length > 1) res(null);
          else requestAnimationFrame(f);
        };
        requestAnimationFrame(f);
      });
      return { reached, kept: JSON.stringify(S.timeline).length, total: performance.now() - t0 };
    });
    process.stderr.write(`run ${r + 1}: ${res.reached.length - 1} chronons in ${res.total.toFixed(0)} ms, the timeline ${res.kept} characters\n`);
    all.push(res.reached.slice(1).map((t, k) => [t - res.reached[k], res.kept]));
    await page.close();
    continue;
  }
  const times = await page.evaluate(async () => {
    const out = [];
    const b = /** @type {HTMLButtonElement} */ (document.getElementById('chronon'));
    const notBusy = () => new Promise((res) => { const f = () => (document.body.dataset.busy ? setTimeout(f, 0) : res(null)); f(); });
    const frames = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    for (let i = 0; i < 100000 && !b.disabled; i++) {
      const t0 = performance.now();
      b.click();
      await new Promise((res) => setTimeout(res, 0));
      await notBusy();
      const t1 = performance.now();
      await frames();
      out.push([t1 - t0, performance.now() - t0]);
    }
    return out;
  });
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  process.stderr.write(`run ${r + 1}: ${times.length} steps, ${await page.locator('#chronon-label').textContent()}\n`);
  all.push(times);
  await page.close();
}
await browser.close();

const steps = Math.min(...all.map((t) => t.length));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const ranges = [];
for (let a = 0; a < steps; a += 10) ranges.push([a, Math.min(steps, a + 10)]);
const pick = ranges.length <= 6 ? ranges : [...ranges.filter((_, k) => k % Math.ceil(ranges.length / 5) === 0), ranges[ranges.length - 1]];
const mean = (a, b, k) => median(all.map((t) => t.slice(a, b).reduce((x, y) => x + y[k], 0) / (b - a)));
if (mode === 'run') {
  console.log(`${game}, seed ${seed}: Run at 0 ms, ${steps} chronons (median of ${runs} run${runs > 1 ? 's' : ''}); the timeline kept ${median(all.map((t) => t[0][1]))} characters`);
  // Run draws every 250 ms and steps in batches: the time until a chronon, not per range
  console.log('| chronon | ms until it was reached |');
  console.log('|---|---|');
  for (const q of [0.25, 0.5, 0.75, 1]) {
    const k = Math.max(1, Math.round(q * steps));
    console.log(`| ${k} | ${median(all.map((t) => t.slice(0, k).reduce((x, y) => x + y[0], 0))).toFixed(0)} |`);
  }
} else {
  console.log(`${game}, seed ${seed}: ${steps} steps (median of ${runs} run${runs > 1 ? 's' : ''}, the mean of each range of 10 steps)`);
  console.log('| chronons | until idle (ms) | until drawn (ms) |');
  console.log('|---|---|---|');
  for (const [a, b] of pick.filter((x, k, xs) => xs.indexOf(x) === k)) {
    console.log(`| ${a + 1}–${b} | ${mean(a, b, 0).toFixed(1)} | ${mean(a, b, 1).toFixed(1)} |`);
  }
}
