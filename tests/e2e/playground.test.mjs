// The playground in real headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core).
//   BASE_URL=http://127.0.0.1:8080/ node tests/e2e/playground.test.mjs
// Screenshots go to $ARTIFACTS (default target/e2e-artifacts/).
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const base = process.env.BASE_URL || 'http://127.0.0.1:8080/';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = process.env.ARTIFACTS || join(root, 'target', 'e2e-artifacts');
mkdirSync(artifacts, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const consoleErrors = [];
page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
page.on('pageerror', (e) => consoleErrors.push(String(e)));

const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
const facts = () => page.locator('#facts li').allTextContents();
const label = () => page.locator('#chronon-label').textContent();
// The engine runs in a worker: after an input, wait until the page is idle again.
const idle = () => page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 30000 });
const click = async (sel) => { await page.click(sel); await idle(); };
const select = async (sel, v) => { await page.selectOption(sel, v); await idle(); };
let step = 'start';
const check = async (name, f) => { step = name; await f(); console.log(`ok - ${name}`); };

try {
  await check('the playground opens with nim loaded', async () => {
    await page.goto(base);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    assert.match(await page.inputValue('#source'), /game\(nim\)/);
    assert.equal(await page.inputValue('#example'), 'nim.sidl');
    assert.deepEqual(await facts(), ['[alice,10]']);
    assert.equal(await page.locator('#seats select').count(), 2);
    assert.deepEqual(await page.locator('#viewas option').allTextContents(), ['designer', '[alice]', '[bob]']);
    assert.deepEqual(await page.locator('#moves button.action').allTextContents(), ['[1]', '[2]', '[3]']);
    assert.match(await label(), /chronon 0/);
    const workers = page.workers().map((w) => w.url());
    assert.ok(workers.some((u) => u.endsWith('/worker.js')), `the engine runs in a worker: ${workers}`);
    await shot('01-loaded');
  });

  await check('a click submits, Chronon runs it, Undo takes it back', async () => {
    await click('#moves button[data-action="[3]"]');
    assert.match(await page.textContent('#pending'), /\[alice\] \[main\] ← \[3\]/);
    await click('#chronon');
    assert.deepEqual(await facts(), ['[bob,7]']);
    assert.match(await label(), /chronon 1/);
    assert.match(await page.textContent('#log'), /\+ \[bob,7\]/);
    await click('#undo');
    assert.deepEqual(await facts(), ['[alice,10]']);
    assert.match(await label(), /chronon 0/);
  });

  await check('"view as" switches between the designer and each player', async () => {
    await select('#viewas', '[bob]');
    assert.deepEqual(await facts(), ['[alice,10]']); // nim hides nothing
    await select('#viewas', '[alice]');
    assert.deepEqual(await facts(), ['[alice,10]']);
    await select('#viewas', '');
  });

  await check('a query reads the current state', async () => {
    await page.fill('#query', 'fact(F), F = [P, N]');
    await click('#run-query');
    assert.deepEqual(await page.locator('#answers li').allTextContents(), ['F = [alice,10], P = alice, N = 10.']);
    await page.fill('#query', 'player(P)');
    await click('#run-query');
    assert.deepEqual(await page.locator('#answers li').allTextContents(), ['P = [alice].', 'P = [bob].']);
    await page.fill('#query', '1 = 2');
    await click('#run-query');
    assert.deepEqual(await page.locator('#answers li').allTextContents(), ['false.']);
  });

  await check('nim played to the end by clicking', async () => {
    let n = 0;
    while (!/game over/.test(await label())) {
      const buttons = page.locator('#moves button.action');
      const k = await buttons.count();
      assert.ok(k > 0, 'a human seat has a move');
      await buttons.nth(k - 1).click(); await idle(); // take as many as allowed
      await click('#chronon');
      n += 1;
      assert.ok(n <= 10, 'nim ends within 10 chronons');
    }
    const acc = await page.locator('#accounts tr').allTextContents();
    assert.equal(acc.length, 2);
    assert.ok(acc.some((r) => r.includes('1.0')) && acc.some((r) => r.includes('-1.0')), acc.join('|'));
    assert.ok(await page.isDisabled('#chronon'));
    await shot('02-game-over');
  });

  await check('random seats play a game after a restart', async () => {
    await page.fill('#seed', '7');
    await click('#restart');
    assert.match(await label(), /chronon 0/);
    for (const sel of await page.locator('#seats select').all()) { await sel.selectOption('random'); await idle(); }
    assert.equal(await page.locator('#moves button.action').count(), 0);
    let n = 0;
    while (!/game over/.test(await label())) {
      await click('#chronon');
      n += 1;
      assert.ok(n <= 10, 'nim ends within 10 chronons');
    }
    assert.equal(await page.locator('#accounts tr').count(), 2);
    await select('#viewas', '[bob]');
    await shot('03-random-seats');
  });

  await check('a syntax error shows its diagnostic at the right line', async () => {
    const src = await page.inputValue('#source');
    const lines = src.split('\n');
    const i = lines.findIndex((l) => l.startsWith('legal([main])'));
    assert.ok(i >= 0);
    lines[i] = 'legal([main]) :- fact([_, I]), I > .';
    await page.fill('#source', lines.join('\n'));
    await click('#load');
    const first = page.locator('#diagnostics li.error').first();
    const text = await first.textContent();
    assert.match(text, new RegExp(`^line ${i + 1}:\\d+: error\\[`), text);
    assert.match(await page.textContent('#status'), /not loaded: 1 error/);
    await shot('04-syntax-error');
    // fixing it loads again
    lines[i] = 'legal([main]) :- fact([_, I]), I > 0.';
    await page.fill('#source', lines.join('\n'));
    await click('#load');
    assert.equal(await page.locator('#diagnostics li.error').count(), 0);
    assert.deepEqual(await facts(), ['[alice,10]']);
  });

  await check('another example game loads from the menu', async () => {
    await select('#example', 'tictactoe.sidl');
    await page.waitForFunction(() => document.querySelector('#source').value.includes('tictactoe'));
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'loaded');
    assert.ok((await page.locator('#seats select').count()) >= 2);
    await click('#random-chronon');
    assert.match(await label(), /chronon 1/);
  });

  await check('"view as" a player hides the opponent\'s card (kuhn)', async () => {
    await select('#example', 'kuhn.sidl');
    await page.waitForFunction(() => document.querySelector('#source').value.includes('game(kuhn)'));
    await page.waitForFunction(() => document.querySelector('#status').textContent === 'loaded');
    await click('#chronon'); // the deal (a chance switch)
    const cards = async () => (await facts()).filter((f) => f.startsWith('[card,')).length;
    assert.equal(await cards(), 2);
    const players = (await page.locator('#viewas option').allTextContents()).slice(1);
    assert.equal(players.length, 2);
    for (const p of players) {
      await select('#viewas', p);
      assert.equal(await cards(), 1, `${p} sees only its own card`);
      const log = await page.locator('#log li').allTextContents();
      assert.equal(log.filter((l) => l.startsWith('+ [card,')).length, 1, `${p}'s events: ${log}`);
    }
    await shot('05-kuhn-view-as');
  });

  assert.deepEqual(consoleErrors, [], 'no console errors');
  console.log(`all playground checks passed; screenshots in ${artifacts}`);
} catch (e) {
  console.error(`FAILED at: ${step}`);
  console.error(e);
  await shot('failure').catch(() => {});
  process.exitCode = 1;
} finally {
  await browser.close();
}
