// The playground in real headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core).
//   BASE_URL=http://127.0.0.1:8080/ node tests/e2e/playground.test.mjs
// Run by scripts/e2e.sh (which builds and serves playground/). Screenshots go to $ARTIFACTS
// (default target/e2e-artifacts/). Prints `ok - NAME` per check and a closing `N passed, N failed`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, checks, consoleErrors, launch, root, watch } from './support.mjs';

const base = process.env.BASE_URL || 'http://127.0.0.1:8080/';
const here = join(root, 'tests', 'e2e');
const shippedGames = readdirSync(join(root, 'games')).filter((f) => f.endsWith('.sidl')).sort();

const browser = await launch();
// Pages show the raw terms (the checks below were written for them) unless `labels` is asked for:
// the playground keeps its labels / raw terms choice in localStorage.
async function newPage(viewport = { width: 1280, height: 900 }, { labels = false } = {}) {
  const p = watch(await browser.newPage({ viewport }));
  if (!labels) await p.addInitScript(() => { try { localStorage.setItem('sidl.labels', 'raw'); } catch (_) { /* none */ } });
  return p;
}
let page = await newPage();

const shot = (name, p = page) => p.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
const facts = () => page.locator('#facts li').allTextContents();
const label = () => page.locator('#chronon-label').textContent();
// the accounts table's player and amount cells (the third holds the row's why? button)
const accounts = (p = page) => p.locator('#accounts tr').evaluateAll((rows) => rows.map((r) => [...r.cells].slice(0, 2).map((c) => c.textContent).join('')));
// The engine runs in a worker: after an input, wait until the page is idle again.
// idle: no action under way, and the address bar written (app/share.js writes it once the page is idle)
const idle = (p = page) => p.waitForFunction(() => !document.body.dataset.busy && !document.body.dataset.urlDue, null, { timeout: 60000 });
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

const { check, done } = checks(async (n) => {
  await shot(`failure-${n}`).catch(() => {});
  // a fresh page for the next check
  await page.close().catch(() => {});
  page = await newPage();
  await page.goto(base);
  await ready().catch(() => {});
});

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
  // one engine worker: the one app/boot.js started while the page loaded, taken by the page's Engine
  assert.equal(page.workers().filter((w) => w.url().endsWith('/worker.js')).length, 1, 'the engine runs in one worker');
  assert.equal(await page.evaluate(() => 'sidlEarlyWorker' in window), false, 'the early worker was handed to the engine');
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
  assert.deepEqual(await accounts(other), want.acc);
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

await check('the event log: a step adds its chronon and keeps the lines drawn; travel, a view and a new move redraw it right', async () => {
  await pickGame('tictactoe.sidl');
  await allSeats('random');
  // what the log shows, one line per entry (class and text): the lines as a full redraw makes them
  const lines = () => page.locator('#log li').evaluateAll((ls) => ls.map((l) => `${l.className}|${l.textContent}`));
  const chronons = () => page.locator('#log li.chronon').evaluateAll((ls) => ls.map((l) => `${l.dataset.chronon}${l.classList.contains('current') ? '*' : ''}${l.classList.contains('future') ? '~' : ''}`));
  for (let i = 0; i < 3; i++) await click('#chronon');
  assert.deepEqual(await chronons(), ['3*', '2', '1', '0']);
  // the oldest chronon's line, marked: a step that only adds chronons keeps it (no redraw)
  await page.locator('#log li[data-chronon="1"]').evaluate((l) => { l.dataset.kept = 'yes'; });
  await click('#chronon'); await click('#chronon');
  assert.deepEqual(await chronons(), ['5*', '4', '3', '2', '1', '0']);
  assert.equal(await page.locator('#log li[data-chronon="1"]').getAttribute('data-kept'), 'yes', 'the drawn lines stay');
  const five = await lines();
  // travel back: the undone chronons are greyed, the shown one is marked
  await click('#back'); await click('#back');
  assert.deepEqual(await chronons(), ['5~', '4~', '3*', '2', '1', '0']);
  assert.equal(await page.locator('#log li.current').count(), 1);
  await click('#log li[data-chronon="0"]');
  assert.deepEqual(await chronons(), ['5~', '4~', '3~', '2~', '1~', '0*']);
  await click('#log li[data-chronon="5"]');
  assert.deepEqual(await lines(), five, 'back at the last chronon, the log reads as before');
  // another view and back: each redraws the log as that viewer sees it
  const viewer = (await page.locator('#viewas option').allTextContents())[1];
  await select('#viewas', viewer);
  const heads = await page.locator('#log li.chronon:not([data-chronon="0"])').allTextContents();
  assert.equal(heads.length, 5);
  assert.ok(heads.every((t) => t.endsWith(`as ${viewer}`)), `the chronon lines say whose view: ${heads}`);
  await select('#viewas', '');
  assert.deepEqual(await lines(), five);
  await page.locator('#log li[data-chronon="1"]').evaluate((l) => { l.dataset.kept = 'again'; });
  // back two and a new step: the future is dropped, the new chronon 4 is drawn anew
  await click('#back'); await click('#back');
  await click('#chronon');
  assert.deepEqual(await chronons(), ['4*', '3', '2', '1', '0']);
  assert.equal(await page.locator('#log li.future').count(), 0);
  assert.equal(await page.locator('#log li[data-chronon="1"]').getAttribute('data-kept'), 'again', 'the lines before stay');
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
    // the layout's hand (docs/reference.md "Layouts"): its own card only, from its own view
    const hands = await page.locator('#board .hand').allTextContents();
    const card = mine[0].slice(-2, -1).toUpperCase();
    // the layout follows the "labels / raw terms" toggle (raw in this page): the raw player and card
    assert.deepEqual(hands, [`hand of ${p}:${card.toLowerCase()}`], `${p}'s hand`);
  }
  await select('#viewas', '[p1]');
  assert.ok(await page.locator('#moves button[data-action="[p1,bet]"]').count() === 1, 'p1 moves in its own view');
  await shot('05-kuhn-view-as');
  await select('#viewas', '[p2]');
  assert.equal(await page.locator('#moves button.action').count(), 0, 'p2 has no move and sees none of p1\'s');
  await select('#viewas', '');
  assert.equal(await page.locator('#board .hand').count(), 2, 'the designer sees both hands');
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
  assert.ok(await page.locator('#check-result ul.history li').count() >= 2, 'the two histories are listed');
  await shot('06-hidden-counterexample');
});

await check('an unlimited action by its typed form (priceNegotiation)', async () => {
  await pickGame('priceNegotiation.sidl');
  await select('#viewas', '[alice]');
  const form = page.locator('#moves .switch[data-player="[alice]"] form.template').filter({ has: page.locator('input.slot') });
  assert.equal(await form.count(), 1, 'alice has one template with slots');
  const input = form.locator('input.slot');
  assert.equal(await input.getAttribute('inputmode'), 'decimal');
  await input.fill('5'); // a double slot takes 5 as 5.0 (the engine's rule): refused by switch/2
  await form.locator('button').click(); await idle();
  assert.match(await page.textContent('#status'), /rejected/); // not above the start price 10.0
  await input.fill('12.5');
  await form.locator('button').click(); await idle();
  assert.match(await page.textContent('#pending'), /\[alice\] .*12\.5/);
  await shot('07-unlimited-form');
  await click('#chronon');
  assert.ok((await facts()).some((f) => f.includes('12.5')), (await facts()).join(' '));
});

await check('the board view draws tic-tac-toe from its layout (layout/1, piece/2)', async () => {
  await pickGame('tictactoe.sidl');
  assert.equal(await page.locator('table.board td[data-x]').count(), 9);
  assert.equal(await page.locator('table.board td.piece').count(), 0);
  await click('#moves button[data-action="[mark,2,3]"]');
  await click('#chronon');
  const cell = page.locator('table.board td[data-x="3"][data-y="2"]');
  // raw terms (this page's toggle): the mark's term, not piece/2's drawing; blank cells stay empty
  assert.equal(await cell.textContent(), 'x');
  assert.equal(await cell.getAttribute('title'), '[cell,2,3,x]');
  assert.equal(await page.locator('table.board td.piece').count(), 1);
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

await check('an AI seat that thinks longer than the call limit moves; the worker is not restarted', async () => {
  await page.goto(base);
  await ready();
  // an engine of its own (its own worker): no other call of the page (the editor's check) meets
  // the short limit below
  const r = await page.evaluate(async () => {
    const { Engine } = await import('./engine.js');
    const e = new Engine({ timeoutMs: 60000 });
    try {
      await e.load(await (await fetch('games/chess.sidl')).text());
      await e.call('start', 1);
      // white's first move at depth 3 searches about 9 000 chronons (0.9 s in headless Chromium on
      // a fast VM, 3 s on a slow one): far over a 0.1 s limit for other calls; a move of an AI seat
      // has its own limit (engine.js aiTimeoutMs)
      e.timeoutMs = 100;
      const t0 = performance.now();
      const { entries, error } = await e.steps([['[white]', 'minimax:3'], ['[black]', 'human']], 1, 0, 1);
      return { ms: performance.now() - t0, chronons: entries.length, error: error && error.message, restarts: e.restarts };
    } finally {
      e.worker.terminate();
    }
  });
  assert.equal(r.error, null);
  assert.equal(r.restarts, 0);
  assert.equal(r.chronons, 1);
  assert.ok(r.ms > 100, `the move took ${r.ms} ms: not longer than the limit it tests`);
});

await check('Run says which AI seat is thinking; Pause stops its search at once and keeps the game', async () => {
  await page.goto(base);
  await ready();
  await pickGame('chess.sidl');
  // white's first move with `mcts:500` plays 500 random playouts of up to 500 chronons: seconds
  await select('#seats select[data-player="[white]"]', 'mcts:500');
  await select('#seats select[data-player="[black]"]', 'random');
  await page.fill('#run-ms', '0');
  await page.click('#run');
  // the seat is named as the page names players (raw terms here: see the top of this file)
  await page.waitForFunction(() => /^thinking: \[white\] \(mcts:500\), [0-9]+ s$/.test(document.querySelector('#status').textContent), null, { timeout: 20000 });
  const t0 = Date.now();
  await page.click('#run'); // Pause
  await idle();
  const ms = Date.now() - t0;
  assert.equal(await page.textContent('#run'), 'Run');
  assert.equal(await page.textContent('#status'), 'paused: the AI seat\'s search was stopped at chronon 0');
  assert.match(await label(), /chronon 0\b/);
  assert.ok(ms < 15000, `Pause took ${ms} ms`);
  // the reloaded worker plays on from the same position, and no error was shown for the pause
  // the worker was replaced once, and the game reloaded (its onRestart ran: searchStopped reset)
  await page.waitForFunction(() => window.sidlEngine.restarts === 1 && window.sidlState.searchStopped === false);
  assert.equal(await page.isVisible('#engine-error'), false);
  await click('#random-chronon');
  assert.match(await label(), /chronon 1\b/);
});

// --- issue 14: one behaviour everywhere ------------------------------------------------------------
const fixture = (name) => readFileSync(join(here, 'fixtures', name), 'utf8');
// Loads a source of the user's own through the editor and Load.
async function loadOwn(text) {
  await setSource(text);
  await click('#load');
}
// The 1-based line of the editor a lint marker of `kind` (error, info, ...) is level with.
async function lintMarkerLines(kind) {
  const ys = await page.locator(`.cm-gutter-lint .cm-lint-marker-${kind}`).evaluateAll((ms) => ms.map((m) => m.getBoundingClientRect().top + 2));
  const numbers = await page.locator('.cm-lineNumbers .cm-gutterElement').evaluateAll((es) => es.map((e) => [e.textContent, e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]));
  return ys.map((y) => Number((numbers.find(([, top, bottom]) => y >= top - 1 && y < bottom) || ['0'])[0]));
}
// Nothing on the page is wider than the window (no horizontal scrolling).
const fitsWidth = (p = page) => p.evaluate(() => ({
  scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
  wide: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
    .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`),
}));
async function assertFits(p = page, what = '') {
  const f = await fitsWidth(p);
  assert.ok(f.scroll <= f.inner && f.wide.length === 0, `${what}: scrollWidth ${f.scroll} > innerWidth ${f.inner}, or wider: ${f.wide.join(', ')}`);
}

await check('diagnostics: create/1 reached from payoff/2 through a helper is E0301 with its label and help, as sidl check says', async () => {
  await page.goto(base);
  await ready();
  const src = fixture('misplaced.sidl');
  await setSource(src);
  const item = page.locator('#diagnostics li[data-code="E0301"]');
  await item.waitFor({ timeout: 10000 });
  const lines = src.split('\n');
  const callLine = lines.findIndex((l) => l.startsWith('bonus :-')) + 1; // create([bonus]) is here
  const payoffLine = lines.findIndex((l) => l.startsWith('payoff(')) + 1; // bonus is called here
  assert.match(await item.locator('.diag-head').textContent(),
    new RegExp(`^line ${callLine}:10: error\\[E0301\\]: \`create/1\` cannot be used in the condition of \`payoff/2\``));
  assert.deepEqual(await item.locator('.label').allTextContents(), [`line ${payoffLine}:19: \`payoff/2\` calls \`bonus/0\` here`]);
  assert.match(await item.locator('.help').textContent(), /^help: the condition of `payoff\/2` may use /);
  // in the editor: the error at the create/1 call, an info mark at the call of the helper
  await page.locator('.cm-gutter-lint .cm-lint-marker-info').first().waitFor({ timeout: 10000 });
  assert.ok((await lintMarkerLines('error')).includes(callLine), `error marker at line ${callLine}`);
  assert.ok((await lintMarkerLines('info')).includes(payoffLine), `label marker at line ${payoffLine}`);
  // a click on the label jumps to the call of the helper
  await item.locator('.label').click();
  const sel = await page.evaluate(() => { const ed = window.sidlEditor; const r = ed.state.selection.main; return ed.state.sliceDoc(r.from, r.to); });
  assert.equal(sel, 'bonus');
  await shot('13-placement-error');
  // an error of sidl check: the game is not loaded, nor run
  await click('#load');
  assert.match(await page.textContent('#status'), /not loaded: 1 error/);
  // the static §11 analysis is there too: W0501 on the leaky kuhn
  await setSource(readFileSync(join(root, 'tests', 'analysis', 'kuhn_leaky.sidl'), 'utf8'));
  await page.locator('#diagnostics li[data-code="W0501"]').waitFor({ timeout: 10000 });
  const w = page.locator('#diagnostics li[data-code="W0501"]').first();
  assert.match(await w.locator('.diag-head').textContent(), /warning\[W0501\]/);
  assert.ok(await w.locator('.label').count() >= 1, 'W0501 has its labels');
});

await check('one action at a time: a double-click on Step gives the seeded trajectory of two single steps', async () => {
  await pickGame('tictactoe.sidl');
  await page.fill('#seed', '5');
  await click('#restart');
  await allSeats('random');
  const trajectory = () => page.evaluate(() => window.sidlState.timeline.map((e) => e.chronon && e.chronon.events.map((x) => x.text)));
  await click('#chronon');
  await click('#chronon');
  const want = { facts: await facts(), log: await page.locator('#log li').allTextContents(), t: await trajectory() };
  assert.equal(want.t.length, 3, 'two chronons');
  await click('#restart');
  assert.match(await label(), /chronon 0/);
  await page.dblclick('#chronon');
  await idle();
  assert.deepEqual(await trajectory(), want.t);
  assert.deepEqual(await facts(), want.facts);
  assert.deepEqual(await page.locator('#log li').allTextContents(), want.log);
  // three clicks at once: three steps, in order
  await click('#restart');
  await page.evaluate(() => { for (let i = 0; i < 3; i++) document.getElementById('chronon').click(); });
  await idle();
  const three = await trajectory();
  assert.equal(three.length, 4);
  assert.deepEqual(three.slice(0, 3), want.t);
});

await check('the game menu names the user\'s own source once it is loaded', async () => {
  await pickGame('nim.sidl');
  await loadOwn(`% my own game\n${readFileSync(join(root, 'games', 'nim.sidl'), 'utf8')}`);
  assert.match(await page.textContent('#status'), /loaded the edited game/);
  assert.equal(await page.inputValue('#example'), '');
  assert.equal(await page.locator('#example option:checked').textContent(), '(your source)');
  await pickGame('tictactoe.sidl');
  assert.equal(await page.locator('#example option:checked').textContent(), 'tictactoe');
  // the gallery source as shipped, loaded from the editor, is the gallery game again
  await click('#load');
  assert.equal(await page.inputValue('#example'), 'tictactoe.sidl');
});

await check('the §11 counterexample is shown once and fits its panel', async () => {
  await loadOwn(readFileSync(join(root, 'tests', 'analysis', 'kuhn_leaky.sidl'), 'utf8'));
  await click('#check-hidden');
  const text = await page.textContent('#check-result');
  assert.match(text, /inconsistent/);
  const steps = await page.locator('#check-result ul.history li').allTextContents();
  assert.ok(steps.length >= 2);
  for (const st of new Set(steps)) {
    const n = text.split(st).length - 1;
    assert.equal(n, steps.filter((x) => x === st).length, `"${st}" is shown ${n} times`);
  }
  const sees = await page.locator('#check-result .sees').textContent();
  assert.equal(text.split(sees).length - 1, 1, 'what the player sees, once');
  assert.equal(await page.locator('#check-result .counterexample').count(), 1);
  const fit = await page.evaluate(() => {
    const box = document.querySelector('#check-result');
    const pane = box.closest('section').getBoundingClientRect();
    const out = [...box.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > pane.right + 0.5);
    return { scroll: box.scrollWidth, client: box.clientWidth, out: out.length };
  });
  assert.ok(fit.scroll <= fit.client && fit.out === 0, JSON.stringify(fit));
  await page.locator('#check-result').scrollIntoViewIfNeeded();
  await shot('14-hidden-once');
});

await check('slot values: a double slot takes 12 as 12.0, an integer slot refuses 12.0, a number keeps what was written (playground form)', async () => {
  await loadOwn(fixture('slots.sidl'));
  assert.equal(await page.textContent('#check-result'), '', 'the previous game\'s §11 report is gone');
  const form = (k) => page.locator(`#moves form.template[data-template^="[${k},"]`);
  const send = async (k, v) => {
    await form(k).locator('input.slot').fill(v);
    await form(k).locator('button').click();
    await idle();
  };
  await send('d', '12');
  assert.match(await page.textContent('#pending'), /\[me\] \[s\] ← \[d,12\.0\]/);
  await click('#chronon');
  await send('i', '12.0');
  assert.match(await form('i').locator('.form-error').textContent(), /integer/);
  assert.doesNotMatch(await page.textContent('#pending'), /\[i,/);
  await send('i', '12');
  assert.match(await page.textContent('#pending'), /← \[i,12\]/);
  await click('#chronon');
  await send('n', '12');
  assert.match(await page.textContent('#pending'), /← \[n,12\]$/);
  await click('#chronon');
  await send('n', '12.0');
  assert.match(await page.textContent('#pending'), /← \[n,12\.0\]/);
  await click('#chronon');
  assert.deepEqual((await facts()).filter((f) => f.startsWith('[got')).sort(), ['[got,d,12.0]', '[got,i,12]', '[got,n,12.0]', '[got,n,12]']);
  await shot('15-slot-values');
});

await check('random and AI seats fill an unlimited switch from candidate/2 (playground, ultimatum)', async () => {
  const src = fixture('ultimatum.sidl');
  for (const kind of ['minimax:3', 'random']) {
    await loadOwn(src);
    await page.selectOption('#seats select[data-player="[proposer]"]', kind); await idle();
    await click('#chronon');
    const offered = (await facts()).find((f) => f.startsWith('[offered,'));
    assert.ok(offered, `${kind} made an offer: ${(await facts()).join(' ')}`);
    assert.match(offered, /^\[offered,(10|[0-9])\]$/);
    // the human responder answers
    await click('#moves button[data-action="[accept]"]');
    await click('#chronon');
    assert.match(await label(), /game over/);
  }
});

await check('at phone width (375 px) nothing overflows horizontally: editor, game, board, §11 report', async () => {
  const p = await newPage({ width: 375, height: 812 });
  const prev = page;
  page = p;
  try {
    await page.goto(base);
    await ready();
    await assertFits(page, 'nim loaded');
    await shot('16-phone-nim');
    await pickGame('chess.sidl');
    await click('#random-chronon');
    await click('#random-chronon');
    await assertFits(page, 'chess after two chronons');
    await page.locator('#board').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, '17-phone-chess-board.png') });
    await pickGame('priceNegotiation.sidl');
    await assertFits(page, 'the typed forms');
    await loadOwn(readFileSync(join(root, 'tests', 'analysis', 'kuhn_leaky.sidl'), 'utf8'));
    await click('#check-hidden');
    await assertFits(page, 'the §11 report');
    await page.locator('#check-result').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, '18-phone-hidden.png') });
    await setSource(fixture('misplaced.sidl'));
    await page.locator('#diagnostics li[data-code="E0301"]').waitFor({ timeout: 10000 });
    await assertFits(page, 'the diagnostics');
    await shot('19-phone-diagnostics');
  } finally {
    page = prev;
    await p.close();
  }
});

// Run with `every 0 ms` makes its steps in the worker, many in one message (engine.steps), and draws
// the pane now and then: the timeline is the one Step gives, chronon by chronon, each entry with its
// part of the snapshot and its accounts (an MCTS seat, whose moves depend on each step's seed,
// against a random seat; its decisions make several messages of a run), and travelling back
// restores the position: the engine's snapshot there is the parts up to it, byte for byte.
await check('Run at full speed gives the chronons, snapshots and accounts that Step gives', async () => {
  await pickGame('connect4.sidl');
  await select('#seats select[data-player="[red]"]', 'mcts:500');
  await select('#seats select[data-player="[yellow]"]', 'random');
  await page.fill('#seed', '3');
  await click('#restart');
  const timeline = () => page.evaluate(() => window.sidlState.timeline.map((e) => ({
    chronon: JSON.stringify(e.chronon), part: e.part, accounts: JSON.stringify(e.accounts) })));
  await page.fill('#run-ms', '0');
  await page.click('#run');
  await page.waitForFunction(() => document.querySelector('#run').textContent === 'Run', null, { timeout: 120000 });
  await idle();
  const ran = await timeline();
  assert.ok(ran.length > 4, `Run made ${ran.length - 1} chronons`);
  assert.equal(JSON.parse(ran[ran.length - 1].chronon).terminal, true, 'Run went on to the end');
  assert.match(await label(), /game over/);
  await click('#restart');
  for (let i = 1; i < ran.length && !/game over/.test(await label()); i++) await click('#chronon');
  const stepped = await timeline();
  for (let i = 0; i < Math.min(ran.length, stepped.length); i++) assert.deepEqual(stepped[i], ran[i], `timeline entry ${i}`);
  assert.equal(stepped.length, ran.length, 'as many chronons');
  // back to the middle of the game: the Step timeline's entry there
  const mid = Math.floor(ran.length / 2);
  for (let i = ran.length - 1; i > mid; i--) await click('#back');
  assert.match(await label(), new RegExp(`chronon ${mid}\\b`));
  const head = await page.evaluate(() => window.sidlState.snapHead);
  const at = (/** @type {number} */ k) => `${head}${ran.slice(1, k + 1).map((e) => e.part).join(',')}],"pending":[]}`;
  assert.equal(await page.evaluate(() => window.sidlEngine.call('snapshot')), at(mid));
  // each entry holds only its own chronon: no entry's data grows with the game
  assert.ok(ran.every((e, i) => i === 0 || e.part.length < 200), 'parts of one chronon');
  // forward to the end again, and back to the start
  for (let i = mid; i < ran.length - 1; i++) await click('#forward');
  assert.equal(await page.evaluate(() => window.sidlEngine.call('snapshot')), at(ran.length - 1));
  await page.click('#log li[data-chronon="0"]'); await idle();
  assert.equal(await page.evaluate(() => window.sidlEngine.call('snapshot')), at(0));
});

// The labels' event lines: a drawing asks the engine only for the lines of the chronons the page
// does not have (chess's label rules read no state), all of them again after another view or a
// travel back and a new move; the log is the one a page that replays the session draws.
await check('the labels\' event lines: a step gets only its chronon\'s lines; the log is the replayed session\'s', async () => {
  // a page that shows the labels
  const rawPage = page;
  page = await newPage(undefined, { labels: true });
  await page.goto(base);
  await ready();
  await pickGame('chess.sidl');
  await allSeats('random');
  await page.evaluate(() => {
    const e = window.sidlEngine;
    const frame = e.frame.bind(e);
    /** @type {unknown[]} */
    const asked = [];
    Object.assign(window, { asked });
    e.frame = async (...a) => {
      const r = await frame(...a);
      asked.push([a[4], r.labels && r.labels.eventsFrom, r.labels && r.labels.events.length]);
      return r;
    };
  });
  const last = () => page.evaluate(() => /** @type {any} */ (window).asked.at(-1));
  for (let i = 0; i < 6; i++) await click('#chronon');
  assert.deepEqual(await last(), [5, 5, 1], 'the sixth step: from chronon 5, one chronon\'s lines');
  await click('#back'); await click('#back');
  assert.deepEqual(await last(), [5, 4, 0], 'back: the history is shorter');
  await click('#chronon');
  assert.deepEqual(await last(), [4, 4, 1], 'a new move: its lines');
  await select('#viewas', '[white]');
  assert.deepEqual((await last()).slice(1), [0, 5], 'another viewer: every line');
  await select('#viewas', '');
  const log = await page.locator('#log li').allTextContents();
  assert.ok(log.some((t) => /White/.test(t)), 'labelled lines');
  const other = await newPage(undefined, { labels: true });
  await other.goto(page.url());
  await ready(other);
  assert.deepEqual(await other.locator('#log li').allTextContents(), log);
  await other.close();
  await page.close();
  page = rawPage;
});

// After Run stops, the address bar holds the session (it is not written while Run runs); travel
// back after a Run and a new move there; "Copy link" writes the address at once (without waiting
// for the page to be idle), and it is the session of now.
await check('the address after Run, travel back after Run, a new move there, and Copy link', async () => {
  await pickGame('tictactoe.sidl');
  await allSeats('random');
  await page.fill('#seed', '5');
  await click('#restart');
  await page.fill('#run-ms', '0');
  await page.click('#run');
  await page.waitForFunction(() => document.querySelector('#run').textContent === 'Run', null, { timeout: 60000 });
  await idle();
  assert.match(await label(), /game over/);
  const n = await page.evaluate(() => window.sidlState.timeline.length - 1);
  const session = () => page.evaluate(async () => (await import('./url.js')).readHash().then((h) => h.session));
  assert.equal(await session(), await page.evaluate(() => window.sidlEngine.call('snapshot')), 'the address is the session after Run');
  const want = { facts: await facts(), log: await page.locator('#log li').allTextContents() };
  const other = await newPage();
  await other.goto(page.url());
  await ready(other);
  assert.deepEqual(await other.locator('#facts li').allTextContents(), want.facts);
  assert.deepEqual(await other.locator('#log li').allTextContents(), want.log);
  await other.close();
  // back two chronons and a move there: the future goes, the log and the address follow
  await click('#back');
  await click('#back');
  assert.match(await label(), new RegExp(`chronon ${n - 2} \\(of ${n}\\)`));
  await click('#chronon');
  assert.equal(await page.evaluate(() => window.sidlState.timeline.length - 1), n - 1);
  assert.equal(await page.locator('#log li.future').count(), 0);
  assert.equal(await session(), await page.evaluate(() => window.sidlEngine.call('snapshot')));
  assert.equal(await page.evaluate(() => window.sidlEngine.call('snapshot')),
    await page.evaluate(() => `${window.sidlState.snapHead}${window.sidlState.timeline.slice(1).map((e) => e.part).join(',')}],"pending":[]}`));
  // travel asks for the address to be written, and Copy link writes it at once
  await page.click('#back');
  await page.waitForFunction(() => !document.body.dataset.busy);
  await page.evaluate(() => document.getElementById('share').click());
  await page.waitForFunction(() => /link copied|address bar/.test(document.querySelector('#status').textContent));
  assert.equal(await session(), await page.evaluate(() => window.sidlEngine.call('snapshot')), 'Copy link: the session of now');
  await idle();
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

// why?: the explanation of the engine (docs/why.md) for what the page shows
const whyHolds = () => page.getAttribute('#why-result', 'data-holds');
const whyGoals = (outcome) => page.locator(`#why-result .why-node.${outcome} > .goal`).allTextContents();
const editorLineOfSelection = () => page.evaluate(() => {
  const ed = window.sidlEditor;
  const line = ed.state.doc.lineAt(ed.state.selection.main.from);
  return { number: line.number, text: line.text };
});

await check('why?: an occupied cell is not an action because fact([cell,I,J,blank]) failed; the clause link selects it', async () => {
  await pickGame('tictactoe.sidl');
  await click('#moves button[data-action="[mark,1,1]"]');
  await click('#chronon');
  const sw = await page.locator('#moves .switch').first().getAttribute('data-switch');
  await page.selectOption('#why-kind', 'action');
  await page.fill('#why-switch', sw);
  await page.fill('#why-action', '[mark,1,1]');
  await click('#ask-why');
  assert.equal(await whyHolds(), 'false');
  const failed = await whyGoals('failed');
  assert.ok(failed.some((g) => g.replace(/\s/g, '').includes('fact([cell,1,1,blank])')), failed.join(' | '));
  // the failing goal's clause link selects switch/2's clause in the editor
  const link = page.locator('#why-result .why-node.failed:has(> .goal:text-matches("blank")) > a.goto').first();
  const line = Number(await link.getAttribute('data-line'));
  await link.click();
  const sel = await editorLineOfSelection();
  assert.equal(sel.number, line);
  assert.match(sel.text, /^switch\(/);
  await shot('09-why-not-an-action');
  // the ? next to an offered action: it is one, with its proof
  const q = page.locator('#moves .action-pair button.why').first();
  const action = await page.locator('#moves .action-pair button.action').first().getAttribute('data-action');
  await q.click(); await idle();
  assert.equal(await whyHolds(), 'true');
  assert.equal(await page.inputValue('#why-action'), action);
  assert.ok((await whyGoals('proved')).length > 0);
  // the why? of the switch: legal, and who owns it
  await click('#moves .switch > button.why');
  assert.equal(await whyHolds(), 'true');
  assert.match(await page.textContent('#why-result'), /legal/);
});

await check('why?: a rejected bid names the failing comparison of switch/2 (priceNegotiation)', async () => {
  await pickGame('priceNegotiation.sidl');
  await select('#viewas', '[alice]');
  const form = page.locator('#moves .switch[data-player="[alice]"] form.template').filter({ has: page.locator('input.slot') });
  await form.locator('input.slot').fill('5');
  await form.locator('button').click(); await idle();
  assert.ok(await page.isVisible('#rejected'), 'the rejection stays under the moves');
  await click('#rejected button.why');
  assert.equal(await whyHolds(), 'false');
  const failed = (await whyGoals('failed')).map((g) => g.replace(/\s/g, ''));
  assert.ok(failed.some((g) => g.includes('>')), `a comparison failed: ${failed.join(' | ')}`);
  assert.match(await page.textContent('#why-result'), /as \[alice\] sees it/);
  await shot('10-why-rejected-bid');
});

await check('why?: the payments at the end of nim, from the account table and the event log', async () => {
  await pickGame('nim.sidl');
  for (let k = 0; k < 20 && !(await page.isDisabled('#random-chronon')); k++) await click('#random-chronon');
  assert.ok(await page.isDisabled('#chronon'), 'nim ended');
  await click('#accounts tr[data-player="[alice]"] button.why');
  assert.match(await page.textContent('#why-result .summary'), /\[alice\]/);
  assert.ok((await page.locator('#why-result .why-node').count()) > 0);
  assert.ok((await page.locator('#why-result .why-node > .goal').allTextContents()).some((g) => g.startsWith('payoff(')));
  // an account event of the log asks the same question
  await click('#log li.account button.why >> nth=0');
  assert.equal(await page.inputValue('#why-kind'), 'payoff');
});

await check('why? in a player\'s view never shows the other player\'s card (kuhn)', async () => {
  await pickGame('kuhn.sidl');
  await click('#chronon'); // the deal
  const cards = (await facts()).filter((f) => f.includes('[card,'));
  for (const p of ['[p1]', '[p2]']) {
    await select('#viewas', p);
    const theirs = cards.find((f) => !f.startsWith(`[card,${p.slice(1, -1)},`));
    const buttons = page.locator('#log button.why, #moves button.why');
    const n = await buttons.count();
    assert.ok(n > 0, `${p} has why? buttons`);
    for (let k = 0; k < n; k++) {
      await buttons.nth(k).click(); await idle();
      const text = await page.textContent('#why-result');
      assert.ok(!text.includes(theirs), `${p}'s explanation ${k} shows ${theirs}: ${text}`);
    }
    // asking by hand about the other's card: the answer is the same for the card it holds and
    // for a card it does not hold, so it tells nothing
    const answer = async (fact) => {
      await page.selectOption('#why-kind', 'fact');
      await page.fill('#why-fact', fact);
      await page.fill('#why-chronon', '1');
      await click('#ask-why');
      return (await page.textContent('#why-result')).split(fact).join('FACT');
    };
    const rank = theirs.slice(0, -1).split(',').pop();
    const other = ['j', 'q', 'k'].find((r) => r !== rank);
    const fake = theirs.replace(new RegExp(`,${rank}\\]$`), `,${other}]`);
    assert.notEqual(fake, theirs);
    assert.equal(await answer(theirs), await answer(fake), `${p} learns nothing about ${theirs}`);
  }
});

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

await check('a seat menu takes another AI typed under "other…"; a seat that is not one is refused', async () => {
  await pickGame('tictactoe.sidl');
  const x = '#seats select[data-player="[xplayer]"]';
  const input = page.locator('#seats input.seat-spec[data-player="[xplayer]"]');
  await page.selectOption(x, 'other…');
  await input.waitFor();
  await input.fill('mcts:zz'); await input.press('Enter'); await idle();
  assert.match(await page.textContent('#status'), /unsupported seat "mcts:zz": a seat is human, random, minimax:DEPTH/);
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  assert.equal(await input.count(), 1, 'the field stays to be corrected');
  await input.fill(' mcts : 40 '); await input.press('Enter'); await idle();
  assert.equal(await page.locator(x).inputValue(), 'mcts:40');
  assert.equal(await page.locator('#seats input.seat-spec').count(), 0);
  assert.match(decodeURIComponent(page.url()), /seats=mcts:40,/);
  // it plays: Step lets the new seat move and runs the chronon
  await select('#seats select[data-player="[oplayer]"]', 'random');
  await click('#chronon');
  assert.match(await label(), /chronon 1/);
  assert.match(await page.textContent('#log'), /xplayer/);
  // Escape puts the menu back on the seat it had; the new seat stays in the other menus
  const o = '#seats select[data-player="[oplayer]"]';
  await page.selectOption(o, 'other…');
  await page.locator('#seats input.seat-spec[data-player="[oplayer]"]').press('Escape');
  assert.equal(await page.locator(o).inputValue(), 'random');
  assert.ok((await page.locator(`${o} option`).allTextContents()).includes('mcts:40'));
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

// A page with one <sidl-game ATTRS> element; its src is a fixture of tests/e2e/fixtures/ (served by
// the test itself under /e2e/). Waits until the element is ready.
async function embedPage(attrs, viewport) {
  const p = await newPage(viewport);
  await p.route('**/e2e/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.endsWith('/page.html')) {
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><script type="module" src="../embed/sidl-game.js"></script></head><body><sidl-game ${attrs}></sidl-game></body></html>`,
      });
    }
    const svg = path.endsWith('.svg');
    return route.fulfill({ contentType: svg ? 'image/svg+xml' : 'text/plain', body: fixture(path.split('/').pop()) });
  });
  await p.goto(new URL('e2e/page.html', base).href);
  await embedIdle(p);
  return p;
}
const embedIdle = (p) => p.waitForFunction(() => document.querySelector('sidl-game')?.dataset.state === 'ready', null, { timeout: 60000 });
const embedFacts = (p) => p.locator('sidl-game .facts li').allTextContents();
const embedAccounts = async (p) => Object.fromEntries(await p.locator('sidl-game .accounts tr').evaluateAll(
  (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))));

await check('<sidl-game>: an unlimited switch has the typed form; a human proposer\'s offer is answered by an AI seat', async () => {
  const p = await embedPage('src="ultimatum.sidl" seats="human,minimax:2" seed="3" view="designer"');
  const game = p.locator('sidl-game');
  const form = game.locator('form.template');
  assert.equal(await form.count(), 1, 'the proposer\'s offer form');
  assert.match(await form.textContent(), /\[offer,‹share: integer›\]/);
  const input = form.locator('input.slot[data-slot="share"]');
  await input.fill('4.5');
  await form.locator('button').click(); await embedIdle(p);
  assert.match(await form.locator('.form-error').textContent(), /integer/, 'a float is refused for an integer slot');
  await input.fill('4');
  await form.locator('button').click(); await embedIdle(p);
  // the offer ran, then the AI responder answered (it sees the offer: its own move, submitted, not a
  // default) and the game ended
  assert.match(await game.locator('.chronon').textContent(), /game over/);
  const events = await game.locator('.events').textContent();
  assert.match(events, /\[offer\] ← \[offer,4\] \(submitted\)/);
  const answer = /\[answer\] ← \[(accept|reject)\] \(submitted\)/.exec(events);
  assert.ok(answer, events);
  assert.deepEqual(await embedFacts(p), [answer[1] === 'accept' ? '[accepted,4]' : '[rejected,4]']);
  assert.deepEqual(await embedAccounts(p), answer[1] === 'accept' ? { '[proposer]': '6', '[responder]': '4' } : { '[proposer]': '0', '[responder]': '0' });
  await shot('20-embed-ultimatum', p);
  await p.close();
});

await check('<sidl-game>: mcts and random seats fill the offer from candidate/2; the human responder accepts', async () => {
  for (const kind of ['mcts:50', 'random']) {
    const p = await embedPage(`src="ultimatum.sidl" seats="${kind},human" seed="2"`);
    const game = p.locator('sidl-game');
    assert.equal(await game.locator('button.action').count(), 0, 'the responder has nothing to answer yet');
    await game.locator('button.step').click(); await embedIdle(p);
    const offered = (await embedFacts(p)).find((f) => f.startsWith('[offered,'));
    assert.ok(offered, `${kind} offered: ${(await embedFacts(p)).join(' ')} / ${await game.locator('.status').textContent()}`);
    await game.locator('button.action[data-action="[accept]"]').click(); await embedIdle(p);
    assert.match(await game.locator('.chronon').textContent(), /game over/);
    const x = Number(/\[offered,(\d+)\]/.exec(offered)[1]);
    assert.deepEqual(await embedAccounts(p), { '[proposer]': String(10 - x), '[responder]': String(x) });
    await p.close();
  }
});

await check('<sidl-game>: an unsupported seat is a visible error, not a human seat', async () => {
  for (const [seats, want] of [['human,alphazero', /seat 2 \(\[responder\]\): unsupported seat "alphazero"/], ['mcts:0,human', /unsupported seat "mcts:0"/], ['human,human,random', /3 seats; the game has 2 players/]]) {
    const p = await embedPage(`src="ultimatum.sidl" seats="${seats}"`);
    const box = p.locator('sidl-game .error-box');
    assert.ok(await box.isVisible(), `${seats}: the error is shown`);
    assert.match(await box.textContent(), want);
    assert.match(await p.locator('sidl-game .status').textContent(), /^error: /);
    assert.equal(await p.locator('sidl-game button.action, sidl-game form.template').count(), 0, 'nothing to play');
    if (seats.includes('alphazero')) await shot('21-embed-bad-seat', p);
    await p.close();
  }
});

await check('<sidl-game>: the diagnostics of sidl check; a game with an error is not played', async () => {
  const p = await embedPage('src="misplaced.sidl"');
  const d = p.locator('sidl-game details.diagnostics');
  assert.ok(await d.isVisible());
  const item = d.locator('li[data-code="E0301"]');
  assert.equal(await item.count(), 1);
  assert.match(await item.textContent(), /`payoff\/2` calls `bonus\/0` here/);
  assert.match(await item.textContent(), /help: the condition of `payoff\/2` may use/);
  assert.match(await p.locator('sidl-game .error-box').textContent(), /1 error .*not played/);
  await shot('22-embed-diagnostics', p);
  await p.close();
});

await check('<sidl-game>: slot values by the engine\'s rule (12 for a double is 12.0; 12.0 for an integer is refused)', async () => {
  const p = await embedPage('src="slots.sidl" seats="human"');
  const game = p.locator('sidl-game');
  const form = (k) => game.locator(`form.template[data-template^="[${k},"]`);
  const send = async (k, v) => {
    await form(k).locator('input.slot').fill(v);
    await form(k).locator('button').click();
    await embedIdle(p);
  };
  await send('d', '12');
  await send('i', '12.0');
  assert.match(await form('i').locator('.form-error').textContent(), /integer/);
  await send('i', '12');
  await send('n', '12');
  await send('n', '12.0');
  assert.deepEqual((await embedFacts(p)).filter((f) => f.startsWith('[got')).sort(), ['[got,d,12.0]', '[got,i,12]', '[got,n,12.0]', '[got,n,12]']);
  await p.close();
});

await check('<sidl-game>: a double-click on Step runs two steps, in order; fits a phone', async () => {
  const p = await embedPage('src="../games/tictactoe.sidl" seats="random,random" seed="4"', { width: 375, height: 700 });
  await assertFits(p, 'the embed at 375 px');
  const game = p.locator('sidl-game');
  await game.locator('button.step').click(); await embedIdle(p);
  await game.locator('button.step').click(); await embedIdle(p);
  const want = await embedFacts(p);
  await game.locator('button.restart').click(); await embedIdle(p);
  await game.locator('button.step').dblclick(); await embedIdle(p);
  assert.deepEqual(await embedFacts(p), want);
  assert.match(await game.locator('.chronon').textContent(), /chronon 2/);
  await assertFits(p, 'the embed after two steps');
  await shot('23-embed-phone', p);
  await p.close();
});

await check('<sidl-game>: the layout of the viewed player only: its hidden scout (an image next to the game) and its hand', async () => {
  const p = await embedPage('src="layout.sidl" seats="human,human" view="[bob]"');
  const game = p.locator('sidl-game');
  const squares = game.locator('table.board td.piece');
  // bob's own scout is an image next to the game file; ann's scout is not on bob's board
  const img = game.locator('table.board td[data-x="3"][data-y="2"] img');
  assert.equal(await img.getAttribute('alt'), 'B');
  assert.match(await img.getAttribute('src'), /\/e2e\/img\/bob\.svg$/);
  assert.ok(!(await game.locator('table.board').first().textContent()).includes('A'));
  assert.deepEqual(await game.locator('.hand').allTextContents(), ['hand of [bob]:two']);
  assert.deepEqual(await game.locator('table.layout-table td').allTextContents(), ['Ann', '3']);
  await shot('24-embed-layout-bob', p);
  await game.locator('select').selectOption('[ann]'); await embedIdle(p);
  assert.equal(await game.locator('table.board img').count(), 0, 'ann does not see bob\'s scout');
  assert.equal(await game.locator('table.board').first().locator('td[data-x="1"][data-y="1"]').textContent(), 'A');
  assert.deepEqual(await game.locator('.hand').allTextContents(), ['hand of Ann:ace of ann']);
  await p.close();
});

// --- labels (docs/playground.md "Labels"): the game's texts for the viewed seat, in its language
await check('labels: kuhn in English and German as the designer and as a player; the toggle shows raw terms', async () => {
  await page.close();
  page = await newPage(undefined, { labels: true });
  await page.goto(base);
  await ready();
  await pickGame('kuhn.sidl');
  assert.match(await page.textContent('#about'), /Kuhn poker: three cards/);
  assert.deepEqual(await facts(), ['the cards are about to be dealt']);
  assert.deepEqual(await page.locator('#labels-lang option').evaluateAll((os) => os.map((o) => o.value)), ['', 'de']);
  await select('#labels-lang', 'de');
  assert.deepEqual(await facts(), ['gleich werden die Karten gegeben']);
  assert.match(await page.textContent('#about'), /Kuhn-Poker/);
  await click('#chronon'); // the deal (a chance switch)
  await select('#viewas', '[p1]');
  const f1 = await facts();
  assert.ok(f1.some((f) => f.startsWith('Spieler 1 hat: ')), f1.join(' | '));
  assert.ok(!f1.some((f) => f.startsWith('Spieler 2 hat: ')), f1.join(' | '));
  assert.match(await page.textContent('#moves'), /Spieler 1 setzt 1/);
  assert.match(await page.textContent('#about'), /Du beginnst/);
  // no text of p2's hidden card anywhere in the page as p1 sees it (labels, raw terms, titles)
  const html = await page.evaluate(() => document.querySelector('#game-pane').innerHTML);
  assert.ok(!html.includes('Spieler 2 hat: ') && !html.includes('[card,p2,'), 'p2\'s card in p1\'s page');
  await shot('30-labels-kuhn-de-p1');
  // the layout in the chosen language too: p1's hand, its card drawn by piece/2
  const hand = await page.locator('#board .hand').allTextContents();
  assert.equal(hand.length, 1);
  assert.match(hand[0], /^hand of Spieler 1:[JQK]$/);
  await select('#labels-lang', '');
  const en = await facts();
  assert.ok(en.some((f) => f.startsWith('Player 1 holds the ')), en.join(' | '));
  assert.deepEqual(await page.locator('#board .hand').allTextContents(), [hand[0].replace('Spieler 1', 'Player 1')]);
  await page.locator('#board').scrollIntoViewIfNeeded();
  await shot('30b-labels-kuhn-layout-en');
  await click('#labels-on'); // off: the raw terms
  assert.ok((await facts()).some((f) => f.startsWith('[card,p1,')));
  assert.equal(await page.locator('#about').isVisible(), false);
  // the layout in raw terms as well: the raw player and card term
  assert.deepEqual(await page.locator('#board .hand').allTextContents(), [`hand of [p1]:${hand[0].slice(-1).toLowerCase()}`]);
  await shot('30c-labels-kuhn-layout-raw');
  await pickGame('chess.sidl');
  const sq = page.locator('table.board td[data-x="d"][data-y="1"]');
  assert.equal(await sq.textContent(), 'white queen', 'raw terms: the man, not its glyph');
  assert.equal(await sq.getAttribute('title'), '[white,queen,d,1]');
  await shot('30d-labels-chess-raw');
  await click('#labels-on');
  assert.equal(await sq.textContent(), '♕');
  assert.equal(await sq.getAttribute('title'), 'White queen on d1');
  await shot('30e-labels-chess-labels');
  await pickGame('kuhn.sidl');
  await click('#chronon');
  await select('#viewas', '[p1]');
  await select('#viewas', '');
  for (let i = 0; i < 6 && !/game over/.test(await label()); i++) await click('#random-chronon');
  assert.match(await label(), /game over/);
  assert.match(await page.textContent('#result'), /wins the showdown|takes the pot/);
  assert.match(await page.textContent('#log'), /Player [12] (checks|bets 1|calls|folds)/);
  await shot('31-labels-kuhn-end');
});

await check('labels: a label rule that throws leaves the raw term and the game plays; labels are text, never markup', async () => {
  await page.close();
  page = await newPage(undefined, { labels: true });
  await page.goto(base);
  await ready();
  await setSource(`game(bad).
init([pile, 2]).
init([p], 0).
legal([main]) :- fact([pile, N]), N > 0.
owned([main], [p]).
switch([main], [take]).
do([take]) :- fact([pile, N]), M is N - 1, delete([pile, N]), create([pile, M]).
label(game, '<img src=x onerror="window.pwned = 1">').
label(player(P), ['<script>window.pwned = 2</script>', P]).
label(fact(F), X) :- X is 1 / 0, atom(F).
label(action(_, [take]), '<b>take</b> one').
label(result, '<img src=y onerror="window.pwned = 3"> done') :- fact([pile, 0]).
`);
  await click('#load');
  assert.deepEqual(await facts(), ['[pile,2]'], 'the throwing fact label falls back to the raw term');
  assert.equal(await page.textContent('#about'), '<img src=x onerror="window.pwned = 1">');
  assert.match(await page.textContent('#moves'), /<b>take<\/b> one/);
  assert.match(await page.textContent('#accounts'), /<script>window\.pwned = 2<\/script>p/);
  await page.click('#moves button.action'); await idle();
  await click('#chronon');
  await page.click('#moves button.action'); await idle();
  await click('#chronon');
  assert.match(await label(), /game over/);
  assert.equal(await page.textContent('#result'), '<img src=y onerror="window.pwned = 3"> done');
  assert.equal(await page.locator('#game-pane img, #game-pane script, #game-pane b').count(), 0);
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).pwned), undefined);
  await shot('32-labels-markup-as-text');
});

await check('<sidl-game>: labels in the element\'s language (lang), from the viewed seat\'s view only', async () => {
  for (const [lang, mine, theirs, about] of [['de', 'Spieler 1 hat: ', 'Spieler 2 hat: ', /Kuhn-Poker/], ['', 'Player 1 holds the ', 'Player 2 holds', /Kuhn poker/]]) {
    const p = await embedPage(`src="../games/kuhn.sidl" seats="human,random" seed="5" lang="${lang}"`);
    const game = p.locator('sidl-game');
    assert.match(await game.locator('.about').textContent(), about);
    await game.locator('button.step').click(); await embedIdle(p);
    const f = await embedFacts(p);
    assert.ok(f.some((x) => x.startsWith(mine)), f.join(' | '));
    // the layout in the element's language: p1's hand with its label
    assert.match((await game.locator('.hand').allTextContents()).join('|'), new RegExp(`^hand of ${mine.split(' ').slice(0, 2).join(' ')}:[JQK]$`));
    const text = await p.evaluate(() => document.querySelector('sidl-game').shadowRoot.innerHTML);
    assert.ok(!text.includes(theirs) && !text.includes('[card,p2,'), 'p2\'s card in p1\'s element');
    await shot(`33-embed-labels-${lang || 'en'}`, p);
    await p.close();
  }
  const raw = await embedPage('src="../games/kuhn.sidl" seats="human,random" seed="5" labels="raw"');
  assert.deepEqual(await embedFacts(raw), ['[start]']);
  // labels="raw": the layout in raw terms too (the hand of [p1], its card term)
  await raw.locator('sidl-game button.step').click(); await embedIdle(raw);
  assert.match((await raw.locator('sidl-game .hand').allTextContents()).join('|'), /^hand of \[p1\]:[jqk]$/);
  await shot('34-embed-layout-raw', raw);
  await raw.close();
});

assert.deepEqual(consoleErrors, [], 'no console errors');
await browser.close();
console.log(`screenshots in ${artifacts}`);
done();
