// The playground in real headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core).
//   BASE_URL=http://127.0.0.1:8080/ node tests/e2e/playground.test.mjs
// Run by scripts/e2e.sh (which builds and serves playground/). Screenshots go to $ARTIFACTS
// (default target/e2e-artifacts/). Prints `ok - NAME` per check and a closing `N passed, N failed`.
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const base = process.env.BASE_URL || 'http://127.0.0.1:8080/';
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const artifacts = process.env.ARTIFACTS || join(root, 'target', 'e2e-artifacts');
mkdirSync(artifacts, { recursive: true });
const shippedGames = readdirSync(join(root, 'games')).filter((f) => f.endsWith('.sidl')).sort();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run'],
});
const consoleErrors = [];
async function newPage() {
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  p.on('pageerror', (e) => consoleErrors.push(String(e)));
  return p;
}
let page = await newPage();

const shot = (name, p = page) => p.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
const facts = () => page.locator('#facts li').allTextContents();
const label = () => page.locator('#chronon-label').textContent();
const accounts = () => page.locator('#accounts tr').allTextContents();
// The engine runs in a worker: after an input, wait until the page is idle again.
const idle = (p = page) => p.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 60000 });
const click = async (sel) => { await page.click(sel); await idle(); };
const select = async (sel, v) => { await page.selectOption(sel, v); await idle(); };
const ready = async (p = page) => { await p.waitForSelector('body[data-ready="true"]', { timeout: 30000 }); await idle(p); };
const setSource = (text) => page.evaluate((s) => {
  const ed = window.sidlEditor;
  ed.dispatch({ changes: { from: 0, to: ed.state.doc.length, insert: s } });
}, text);
async function pickGame(name) {
  await page.selectOption('#example', name);
  await page.waitForFunction((n) => document.querySelector('#status').textContent === `loaded ${n}`, name, { timeout: 30000 });
  await idle();
}
async function allSeats(kind) {
  for (const sel of await page.locator('#seats select').all()) { await sel.selectOption(kind); await idle(); }
}

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
    await shot(`failure-${passed + failed}`).catch(() => {});
    // a fresh page for the next check
    await page.close().catch(() => {});
    page = await newPage();
    await page.goto(base);
    await ready().catch(() => {});
  }
}

await check('the playground opens with nim in the editor, loaded, the engine in a worker', async () => {
  await page.goto(base);
  await ready();
  assert.match(await page.locator('.cm-content').textContent(), /game\(nim\)/);
  assert.equal(await page.inputValue('#example'), 'nim.sidl');
  assert.deepEqual(await facts(), ['[alice,10]']);
  assert.equal(await page.locator('#seats select').count(), 2);
  assert.deepEqual(await page.locator('#viewas option').allTextContents(), ['designer', '[alice]', '[bob]']);
  assert.deepEqual(await page.locator('#moves button.action').allTextContents(), ['[1]', '[2]', '[3]']);
  assert.match(await label(), /chronon 0/);
  assert.ok(page.workers().some((w) => w.url().endsWith('/worker.js')), 'the engine runs in a worker');
  // the gallery lists every game of games/
  const gallery = (await page.locator('#example option').evaluateAll((os) => os.map((o) => o.value))).filter(Boolean);
  assert.deepEqual(gallery.sort(), shippedGames);
  // SIDL highlighting: keywords are marked apart from other atoms
  const kw = await page.locator('.cm-content span').evaluateAll((ss) => ss.filter((s) => s.textContent === 'legal').map((s) => getComputedStyle(s).color));
  const other = await page.locator('.cm-content span').evaluateAll((ss) => ss.filter((s) => s.textContent === 'alice').map((s) => getComputedStyle(s).color));
  assert.ok(kw.length > 0 && other.length > 0 && kw[0] !== other[0], `keyword ${kw[0]} vs atom ${other[0]}`);
  await shot('01-loaded');
});

await check('a click submits, Step runs it, Undo takes it back', async () => {
  await click('#moves button[data-action="[3]"]');
  assert.match(await page.textContent('#pending'), /\[alice\] \[main\] ← \[3\]/);
  await click('#chronon');
  assert.deepEqual(await facts(), ['[bob,7]']);
  assert.match(await label(), /chronon 1/);
  assert.match(await page.textContent('#log'), /\+ \[bob,7\]/);
  await click('#undo');
  assert.deepEqual(await facts(), ['[alice,10]']);
  assert.match(await label(), /chronon 0/);
  assert.ok(await page.isDisabled('#forward'), 'undo forgets the chronon');
});

await check('time travel: back and forward through the history, a new move drops the future', async () => {
  await click('#moves button[data-action="[3]"]'); await click('#chronon'); // bob 7
  await click('#moves button[data-action="[2]"]'); await click('#chronon'); // alice 5
  assert.deepEqual(await facts(), ['[alice,5]']);
  await click('#back');
  assert.deepEqual(await facts(), ['[bob,7]']);
  await click('#back');
  assert.deepEqual(await facts(), ['[alice,10]']);
  assert.match(await label(), /chronon 0 \(of 2\)/);
  assert.equal(await page.locator('#log li.chronon.future').count(), 2, 'the undone chronons stay listed');
  await click('#forward');
  assert.deepEqual(await facts(), ['[bob,7]']);
  await click('#log li[data-chronon="2"]'); // a click on a chronon of the log travels there
  assert.deepEqual(await facts(), ['[alice,5]']);
  await click('#back');
  await click('#moves button[data-action="[1]"]'); // a new move at chronon 1
  assert.ok(await page.isDisabled('#forward'), 'the future is gone');
  await click('#chronon');
  assert.deepEqual(await facts(), ['[alice,6]']);
  await shot('02-time-travel');
});

await check('interrupt mode: a submission runs its chronon at once', async () => {
  await page.check('#interrupt'); await idle();
  assert.match(await label(), /chronon 0/);
  await click('#moves button[data-action="[2]"]');
  assert.match(await label(), /chronon 1/);
  assert.deepEqual(await facts(), ['[bob,8]']);
  assert.match(page.url(), /interrupt=1/);
  await click('#random-chronon'); // a random submission runs its own chronon: one step, one chronon
  assert.match(await label(), /chronon 2/);
  assert.equal(await page.locator('#log li.chronon').count(), 3);
  await page.uncheck('#interrupt'); await idle();
  assert.match(await label(), /chronon 0/);
  await click('#moves button[data-action="[3]"]'); await click('#chronon');
  await click('#moves button[data-action="[1]"]'); await click('#chronon');
  await click('#moves button[data-action="[1]"]');
  assert.deepEqual(await facts(), ['[alice,6]']);
  assert.match(await page.textContent("#pending"), /\[alice\] \[main\] ← \[1\]/);
});

await check('a query reads the current state', async () => {
  await page.fill('#query', 'fact(F), F = [P, N]');
  await click('#run-query');
  assert.deepEqual(await page.locator('#answers li').allTextContents(), ['F = [alice,6], P = alice, N = 6.']);
  await page.fill('#query', 'player(P)');
  await click('#run-query');
  assert.deepEqual(await page.locator('#answers li').allTextContents(), ['P = [alice].', 'P = [bob].']);
  await page.fill('#query', '1 = 2');
  await click('#run-query');
  assert.deepEqual(await page.locator('#answers li').allTextContents(), ['false.']);
});

await check('nim played to the end by clicking; the accounts chart draws both players', async () => {
  await click('#restart');
  let n = 0;
  while (!/game over/.test(await label())) {
    const buttons = page.locator('#moves button.action');
    const k = await buttons.count();
    assert.ok(k > 0, 'a human seat has a move');
    await buttons.nth(k - 1).click(); await idle();
    await click('#chronon');
    n += 1;
    assert.ok(n <= 10, 'nim ends within 10 chronons');
  }
  const acc = await accounts();
  assert.equal(acc.length, 2);
  assert.ok(acc.some((r) => r.includes('-1.0')) && acc.some((r) => /\]1\.0$/.test(r)), acc.join('|'));
  assert.ok(await page.isDisabled('#chronon'));
  // the chart: a uPlot canvas with one series per player and a drawn size
  const box = await page.locator('#chart canvas').boundingBox();
  assert.ok(box && box.width > 200 && box.height > 50, `chart canvas ${JSON.stringify(box)}`);
  assert.deepEqual((await page.locator('#chart .u-legend .u-series .u-label').allTextContents()).slice(1), ['[alice]', '[bob]']);
  // the canvas is not blank: some pixels are the players' colours
  const painted = await page.locator('#chart canvas').evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && !(d[i] > 200 && d[i + 1] > 200 && d[i + 2] > 200) && d[i] !== d[i + 1]) n++;
    return n;
  });
  assert.ok(painted > 50, `coloured pixels in the chart: ${painted}`);
  await shot('03-nim-over-chart');
});

await check('a shared URL reloads the same session (seed, seats, moves)', async () => {
  await page.fill('#seed', '7');
  await click('#restart');
  await allSeats('random');
  assert.equal(await page.locator('#moves button.action').count(), 0);
  for (let i = 0; i < 12 && !/game over/.test(await label()); i++) await click('#chronon');
  assert.match(await label(), /game over/);
  const chartData = (p) => p.evaluate(() => window.sidlState.timeline.map((e) => e.accounts.map((a) => a.value)));
  const want = { facts: await facts(), label: await label(), acc: await accounts(), log: await page.locator('#log li').allTextContents(), chart: await chartData(page) };
  const url = page.url();
  assert.match(url, /#game=nim\.sidl&seed=7&.*seats=random%2Crandom.*&session=/);
  const other = await newPage();
  await other.goto(url);
  await ready(other);
  assert.deepEqual(await other.locator('#facts li').allTextContents(), want.facts);
  assert.equal(await other.locator('#chronon-label').textContent(), want.label);
  assert.deepEqual(await other.locator('#accounts tr').allTextContents(), want.acc);
  assert.deepEqual(await other.locator('#log li').allTextContents(), want.log);
  assert.deepEqual(await chartData(other), want.chart, 'the accounts over time are rebuilt');
  // time travel over the replayed chronons
  await other.click('#back'); await idle(other);
  await page.click('#back'); await idle();
  assert.deepEqual(await other.locator('#facts li').allTextContents(), await facts());
  assert.equal(await other.inputValue('#seed'), '7');
  // an edited source travels in the link too
  await page.evaluate(() => window.sidlEditor.dispatch({ changes: { from: 0, insert: '% edited\n' } }));
  await click('#load');
  await click('#chronon');
  const url2 = page.url();
  assert.match(url2, /#src=/);
  await other.goto('about:blank');
  await other.goto(url2);
  await ready(other);
  assert.match(await other.locator('.cm-content').textContent(), /^% edited/);
  assert.deepEqual(await other.locator('#facts li').allTextContents(), await facts());
  await other.close();
});

await check('a syntax error typed in the editor shows in the lint gutter at its line', async () => {
  await pickGame('nim.sidl');
  const lines = (await page.locator('.cm-line').allTextContents());
  const i = lines.findIndex((l) => l.startsWith('legal([main])'));
  assert.ok(i >= 0);
  await page.locator('.cm-line').nth(i).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('.'); // legal([main]) :- fact([_, I]), I > .
  const marker = page.locator('.cm-gutter-lint .cm-lint-marker-error');
  await marker.first().waitFor({ timeout: 10000 });
  // the gutter element holding the marker is level with line i + 1 of the line-number gutter
  const y = (await marker.first().boundingBox()).y;
  const numbers = await page.locator('.cm-lineNumbers .cm-gutterElement').evaluateAll((es) => es.map((e) => [e.textContent, e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]));
  const at = numbers.find(([, top, bottom]) => y >= top - 1 && y < bottom);
  assert.ok(at, `a line number at y=${y}`);
  assert.equal(at[0], String(i + 1));
  assert.match(await page.locator('#diagnostics li.error').first().textContent(), new RegExp(`^line ${i + 1}:\\d+: error\\[`));
  // hovering the marker shows the message
  await marker.first().hover();
  await page.locator('.cm-tooltip-lint').waitFor({ timeout: 5000 });
  assert.ok((await page.locator('.cm-tooltip-lint').textContent()).length > 5);
  await shot('04-syntax-error');
  await click('#load');
  assert.match(await page.textContent('#status'), /not loaded: 1 error/);
  // keyword completion offers the SIDL keywords
  await page.locator('.cm-line').nth(i).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('toc');
  await page.locator('.cm-tooltip-autocomplete').waitFor({ timeout: 5000 });
  assert.match(await page.locator('.cm-tooltip-autocomplete').textContent(), /tocreate/);
  await page.keyboard.press('Escape');
});

await check('"view as" a player hides the opponent\'s card from its facts, events and moves (kuhn)', async () => {
  await pickGame('kuhn.sidl');
  await click('#chronon'); // the deal (a chance switch)
  const cardsOf = (xs) => xs.filter((f) => f.includes('[card,'));
  const all = cardsOf(await facts());
  assert.equal(all.length, 2);
  const players = (await page.locator('#viewas option').allTextContents()).slice(1);
  assert.deepEqual(players, ['[p1]', '[p2]']);
  for (const p of players) {
    await select('#viewas', p);
    const mine = cardsOf(await facts());
    assert.equal(mine.length, 1, `${p} sees only its own card`);
    assert.ok(mine[0].startsWith(`[card,${p.slice(1, -1)},`), mine[0]);
    const theirs = all.find((f) => f !== mine[0]);
    const log = await page.locator('#log li').allTextContents();
    assert.equal(log.filter((l) => l.includes('[card,')).length, 1, `${p}'s events: ${log}`);
    assert.ok(!log.some((l) => l.includes(theirs)), `${p}'s events do not show ${theirs}`);
    const moves = await page.textContent('#moves');
    assert.ok(!moves.includes(theirs), `${p}'s moves do not show ${theirs}`);
    const other = players.find((q) => q !== p);
    assert.equal(await page.locator(`#moves .switch[data-player="${other}"]`).count(), 0, `${p} does not see ${other}'s moves`);
    assert.ok(!(await page.textContent('#pending')).includes(other));
  }
  await select('#viewas', '[p1]');
  assert.ok(await page.locator('#moves button[data-action="[p1,bet]"]').count() === 1, 'p1 moves in its own view');
  await shot('05-kuhn-view-as');
  await select('#viewas', '[p2]');
  assert.equal(await page.locator('#moves button.action').count(), 0, 'p2 has no move and sees none of p1\'s');
  await select('#viewas', '');
});

await check('the §11 check runs with progress and reports kuhn consistent', async () => {
  await pickGame('kuhn.sidl');
  await page.fill('#max-states', '2000');
  await click('#check-hidden');
  const text = await page.textContent('#check-result');
  assert.match(text, /consistent/);
  assert.doesNotMatch(text, /inconsistent/);
  assert.match(await page.textContent('#check-progress'), /\d+ states explored/);
});

await check('the §11 check finds the leak of tests/analysis/kuhn_leaky.sidl with a counterexample', async () => {
  await setSource(readFileSync(join(root, 'tests', 'analysis', 'kuhn_leaky.sidl'), 'utf8'));
  await click('#load');
  await click('#check-hidden');
  const text = await page.textContent('#check-result');
  assert.match(text, /inconsistent/);
  assert.match(text, /counterexample for \[p\d\]/);
  assert.ok(await page.locator('#check-result ol li').count() >= 2, 'the two histories are listed');
  await shot('06-hidden-counterexample');
});

await check('an unlimited action by its typed form (priceNegotiation)', async () => {
  await pickGame('priceNegotiation.sidl');
  await select('#viewas', '[alice]');
  const form = page.locator('#moves .switch[data-player="[alice]"] form.template').filter({ has: page.locator('input.slot') });
  assert.equal(await form.count(), 1, 'alice has one template with slots');
  const input = form.locator('input.slot');
  assert.equal(await input.getAttribute('type'), 'number');
  await input.fill('5');
  await form.locator('button').click(); await idle();
  assert.match(await page.textContent('#status'), /rejected/); // not above the start price 10.0
  await input.fill('12.5');
  await form.locator('button').click(); await idle();
  assert.match(await page.textContent('#pending'), /\[alice\] .*12\.5/);
  await shot('07-unlimited-form');
  await click('#chronon');
  assert.ok((await facts()).some((f) => f.includes('12.5')), (await facts()).join(' '));
});

await check('the board view draws tic-tac-toe from its header hint', async () => {
  await pickGame('tictactoe.sidl');
  assert.equal(await page.locator('table.board td[data-x]').count(), 9);
  assert.equal(await page.locator('table.board td.piece').count(), 0);
  await click('#moves button[data-action="[mark,2,3]"]');
  await click('#chronon');
  const cell = page.locator('table.board td[data-x="3"][data-y="2"]');
  assert.equal(await cell.textContent(), 'x');
  await shot('08-board-tictactoe');
});

await check('a runaway rule: the page stays responsive, the budget error points at its clause', async () => {
  await page.goto(base);
  await ready();
  await setSource(readFileSync(join(here, 'fixtures', 'runaway.sidl'), 'utf8'));
  await page.click('#load');
  // while the engine spins, the page answers: the view menu and the editor react
  const t0 = Date.now();
  await page.selectOption('#viewas', '[a]');
  assert.equal(await page.inputValue('#viewas'), '[a]');
  await page.evaluate(() => window.sidlEditor.dispatch({ selection: { anchor: 0 } }));
  assert.ok(Date.now() - t0 < 2000, 'the page answered at once');
  await idle();
  const box = page.locator('#engine-error');
  await box.waitFor({ state: 'visible', timeout: 20000 });
  const text = await box.textContent();
  assert.match(text, /budget|did not answer/, text);
  if (/budget/.test(text)) {
    const link = box.locator('a.goto');
    const line = Number(await link.getAttribute('data-line'));
    const src = readFileSync(join(here, 'fixtures', 'runaway.sidl'), 'utf8').split('\n');
    assert.match(src[line - 1], /^spin\(N\)/, `the error points at line ${line}`);
    await link.click();
    const selLine = await page.evaluate(() => { const ed = window.sidlEditor; return ed.state.doc.lineAt(ed.state.selection.main.head).number; });
    assert.equal(selLine, line);
  }
  await shot('09-runaway');
});

await check('a hung engine call is stopped: the worker restarts and the game comes back', async () => {
  await page.goto(base);
  await ready();
  await pickGame('chess.sidl');
  await click('#random-chronon');
  const before = await facts();
  await page.fill('#max-states', '100000000');
  await page.click('#check-hidden');
  await page.waitForTimeout(300);
  const w0 = page.workers().length;
  await page.click('#stop-check');
  await idle();
  await page.waitForFunction(() => /restarted|stopped/.test(document.querySelector('#engine-error').textContent), null, { timeout: 10000 });
  assert.ok(page.workers().length >= 1 && w0 >= 1);
  // the engine answers again, with the same state
  await select('#viewas', '[white]');
  await select('#viewas', '');
  assert.deepEqual(await facts(), before);
  await click('#random-chronon');
  assert.match(await label(), /chronon 2/);
});

// Every shipped game played with random seats until it ends (bounded).
const bound = { 'chess.sidl': 400 };
for (const name of shippedGames) {
  await check(`${name}: played with random seats to the end`, async () => {
    await pickGame(name);
    await allSeats('random');
    await page.fill('#run-ms', '0');
    const max = bound[name] || 120;
    await page.click('#run');
    await page.waitForFunction((m) => /game over/.test(document.querySelector('#chronon-label').textContent)
      || Number(/chronon (\d+)/.exec(document.querySelector('#chronon-label').textContent)?.[1] || 0) >= m, max, { timeout: 150000 });
    if ((await page.textContent('#run')) === 'Pause') await page.click('#run');
    await idle();
    await page.waitForFunction(() => document.querySelector('#run').textContent === 'Run');
    const l = await label();
    const n = Number(/chronon (\d+)/.exec(l)[1]);
    assert.ok(n > 0, `${name} made progress: ${l}`);
    if (/game over/.test(l)) console.log(`#   ${name}: ended after ${n} chronons`);
    else console.log(`#   ${name}: not over after ${n} chronons (bound ${max}); progress checked`);
    assert.ok(/game over/.test(l) || n >= max, l);
    assert.equal(await page.locator('#log li.chronon').count(), n + 1);
    if (name === 'chess.sidl') await shot('10-chess-random');
  });
}

await check('an AI seat (minimax) plays tic-tac-toe against a random seat to the end and does not lose', async () => {
  await pickGame('tictactoe.sidl');
  const kinds = await page.locator('#seats select[data-player="[xplayer]"] option').allTextContents();
  assert.ok(kinds.includes('minimax:3') && kinds.includes('mcts:500'), `AI kinds offered: ${kinds}`);
  await page.selectOption('#seats select[data-player="[xplayer]"]', 'minimax:3'); await idle();
  await page.selectOption('#seats select[data-player="[oplayer]"]', 'random'); await idle();
  await page.fill('#run-ms', '0');
  await page.click('#run');
  await page.waitForFunction(() => /game over/.test(document.querySelector('#chronon-label').textContent), null, { timeout: 120000 });
  await idle();
  await page.waitForFunction(() => document.querySelector('#run').textContent === 'Run');
  const rows = Object.fromEntries((await page.locator('#accounts tr').evaluateAll(
    (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))));
  assert.ok(Number(rows['[xplayer]']) >= Number(rows['[oplayer]']), `accounts ${JSON.stringify(rows)}`);
  // the AI's moves are in the event log as submitted moves of xplayer
  assert.match((await page.locator('#log').textContent()), /xplayer/);
  await shot('12-ai-seat');
});

await check('the embed example page plays nim in a <sidl-game> element', async () => {
  const p = await newPage();
  await p.goto(new URL('embed/example.html', base).href);
  const game = p.locator('sidl-game');
  await p.waitForFunction(() => document.querySelector('sidl-game')?.dataset.state === 'ready'
    && document.querySelector('sidl-game').shadowRoot.querySelector('button.action'), null, { timeout: 30000 });
  assert.match(await game.locator('.chronon').textContent(), /chronon 0/);
  let n = 0;
  while (!/game over/.test(await game.locator('.chronon').textContent())) {
    const buttons = game.locator('button.action');
    await buttons.first().click();
    await p.waitForFunction(() => document.querySelector('sidl-game').dataset.state === 'ready');
    n += 1;
    assert.ok(n <= 12, 'nim ends');
  }
  assert.equal(await game.locator('.accounts tr').count(), 2);
  assert.ok(n >= 2, `the human moved ${n} times, the random seat answered`);
  await shot('11-embed', p);
  await p.close();
});

assert.deepEqual(consoleErrors, [], 'no console errors');
await browser.close();
console.log(`screenshots in ${artifacts}`);
console.log(`${passed} passed, ${failed} failed`);
if (failed) process.exitCode = 1;
