// The playground's Analyse panel (playground/app/analyse.js, docs/analysis.md) in real headless
// Chromium, as playground.test.mjs: Kuhn poker's value exactly (LP) and with CFR+, the strategy
// table, the exploitability of an AI seat, the .efg download against `sidl export --efg`'s output
// (tests/e2e/fixtures/kuhn.efg; cli/tests/it/extensive.rs checks that file against the CLI), Stop on
// a long run (Leduc poker), and the errors of a tree too large and of a game without payoffs.
//   BASE_URL=http://127.0.0.1:8080/ node tests/e2e/analyse.test.mjs   (run by scripts/e2e.sh)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, checks, consoleErrors, launch, root, watch } from './support.mjs';

const base = process.env.BASE_URL || 'http://127.0.0.1:8080/';

const browser = await launch();
const newPage = async () => watch(await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true }));
let page = await newPage();
const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
const idle = () => page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 120000 });
const ready = async () => { await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 }); await idle(); };
async function pickGame(name) {
  await page.selectOption('#example', name);
  await page.waitForFunction((n) => document.querySelector('#status').textContent === `loaded ${n}`, name, { timeout: 30000 });
  await idle();
}
async function runAnalyse({ method = 'auto', iterations = '10000', maxNodes = '1000000' } = {}) {
  await page.selectOption('#analyse-method', method);
  await page.fill('#analyse-iterations', iterations);
  await page.fill('#analyse-max-nodes', maxNodes);
  await page.click('#analyse');
  await idle();
}
const text = (sel) => page.locator(sel).textContent();
const value = async (player) => Number(await page.locator(`#analyse-values tr[data-player="${player}"] td.num`).textContent());

const { check, done } = checks(async (n) => {
  await shot(`analyse-failure-${n}`).catch(() => {});
  await page.close().catch(() => {});
  page = await newPage();
});

await check('Analyse Kuhn poker: the exact LP value -1/18 for p1, 12 information sets, the strategy table', async () => {
  await page.goto(base);
  await ready();
  await pickGame('kuhn.sidl');
  // every text the progress line shows during the run (the exact solve says so while it runs)
  await page.evaluate(() => {
    const seen = /** @type {string[]} */ ((/** @type {any} */ (window)).progressSeen = []);
    new MutationObserver(() => seen.push(document.querySelector('#analyse-progress').textContent))
      .observe(document.querySelector('#analyse-progress'), { childList: true, characterData: true, subtree: true });
  });
  await runAnalyse();
  const seen = await page.evaluate(() => (/** @type {any} */ (window)).progressSeen);
  assert.ok(seen.some((t) => t.startsWith('solving exactly')), JSON.stringify(seen));
  assert.match(await text('#analyse-progress'), /^kuhn: 55 nodes \(24 decisions, 1 chance, 30 ends\), 12 information sets, zero-sum; lp \(exact\)$/);
  assert.equal(await value('[p1]'), -0.0556);
  assert.match(await text('#analyse-values tr[data-player="[p1]"]'), /exactly -1\/18/);
  assert.match(await text('#analyse-values tr[data-player="[p2]"]'), /exactly 1\/18/);
  assert.match(await text('#analyse-nashconv'), /^NashConv 0: an equilibrium/);
  const rows = page.locator('#analyse-strategies tr[data-infoset]');
  assert.equal(await rows.count(), 12);
  // p2 holding the queen, facing a bet: calls 1/3 of the time (the game's equilibrium)
  // (in kuhn's labels: games/kuhn.sidl names cards, stakes, turns and actions)
  const row = rows.filter({ hasText: 'Player 2 holds the Queen; Player 2 has 1 in the pot; Player 1 has 2 in the pot; Player 2 faces a bet' });
  assert.equal(await row.count(), 1);
  assert.deepEqual(await row.locator('.action').allTextContents(), ['33.3%Player 2 calls (1/3)', '66.7%Player 2 folds (2/3)']);
  assert.match(await text('#analyse-exploit'), /No AI seat/);
  await shot('analyse-01-kuhn-lp');
});

await check('Download .efg gives exactly sidl export --efg', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-efg')]);
  assert.equal(download.suggestedFilename(), 'kuhn.efg');
  const got = readFileSync(await download.path(), 'utf8');
  assert.equal(got, readFileSync(join(root, 'tests', 'e2e', 'fixtures', 'kuhn.efg'), 'utf8'));
  await idle();
});

await check('Kuhn poker with CFR+: the value within 1e-3 of -1/18; an AI seat\'s exploitability', async () => {
  await page.selectOption('#seats select[data-player="[p1]"]', 'minimax:3');
  await idle();
  await runAnalyse({ method: 'cfr', iterations: '3000' });
  assert.match(await text('#analyse-progress'), /cfr\+, 3000 iterations$/);
  assert.ok(Math.abs(await value('[p1]') + 1 / 18) < 1e-3, String(await value('[p1]')));
  assert.match(await text('#analyse-nashconv'), /^NashConv 0\.00\d\d: not yet an equilibrium: .*more iterations bring it down$/);
  const x = page.locator('#analyse-exploit .exploit[data-player="[p1]"]');
  assert.match(await x.textContent(), /^Player 1 played by minimax:3 gets -?\d\.\d{4} against the computed strategies; a best response gains up to \d\.\d{4}\./);
  assert.match(await x.locator('li').textContent(), /^Player 2: -?\d\.\d{4} with the computed strategy, -?\d\.\d{4} best-responding \(gain \d\.\d{4}\)$/);
  await shot('analyse-02-kuhn-cfr-exploit');
});

await check('Stop on a long CFR+ run (Leduc poker) keeps the average so far; the page stays usable', async () => {
  await page.goto(base);
  await ready();
  await pickGame('leduc.sidl');
  await page.selectOption('#analyse-method', 'cfr');
  await page.fill('#analyse-iterations', '100000000');
  await page.click('#analyse');
  await page.waitForFunction(() => /^CFR\+: [1-9]\d* of 100000000 iterations$/.test(document.querySelector('#analyse-progress').textContent), null, { timeout: 120000 });
  await page.waitForTimeout(500);
  await page.click('#stop-analyse');
  await idle();
  assert.match(await text('#analyse-progress'), /^leduc: 9451 nodes .*936 information sets, zero-sum; cfr\+, \d+ iterations \(stopped\)$/);
  assert.equal(await page.locator('#analyse-strategies tr[data-infoset]').count(), 936);
  assert.equal(await page.locator('#engine-error').isHidden(), true);
  assert.equal(await page.isDisabled('#analyse'), false);
  await shot('analyse-03-leduc-stopped');
  // the game goes on
  await page.click('#random-chronon');
  await idle();
  assert.match(await text('#chronon-label'), /chronon 1/);
});

await check('Stop while the tree is built restarts the engine and the game comes back', async () => {
  // tic-tac-toe's tree (549,946 nodes) takes long enough to build that Stop lands during the build:
  // wait for the build's own progress first, so the check cannot pass by the build ending first
  await pickGame('tictactoe.sidl');
  await page.fill('#analyse-max-nodes', '1000000');
  await page.click('#analyse');
  await page.waitForFunction(() => /^building the extensive form: [1-9]\d* nodes$/.test(document.querySelector('#analyse-progress').textContent), null, { timeout: 60000 });
  await page.click('#stop-analyse');
  await idle();
  assert.match(await text('#analyse-progress'), /^stopped while building the tree; the game was reloaded$/);
  await page.click('#random-chronon');
  await idle();
  assert.match(await text('#chronon-label'), /chronon/);
});

await check('a game too large for the node budget is a clear error (E0960, with the estimate)', async () => {
  // tic-tac-toe (549,946 nodes) against a budget of 1000: the estimate stops it before the build
  await runAnalyse({ method: 'auto', maxNodes: '1000' });
  assert.equal(await text('#analyse-progress'), 'the extensive form could not be built');
  assert.match(await text('#analyse-result .error'), /^error\[E0960\]: the extensive form would have about \d(\.\d)?e\d+ nodes \(estimated from 16 random plays before building\), more than the node budget of 1000/);
  await shot('analyse-04-too-large');
});

await check('a game without payoffs is a clear error (E0962)', async () => {
  await page.evaluate((s) => {
    const ed = window.sidlEditor;
    ed.dispatch({ changes: { from: 0, to: ed.state.doc.length, insert: s } });
  }, readFileSync(join(root, 'engine', 'tests', 'extensive', 'no_payoff.sidl'), 'utf8'));
  await page.click('#load');
  await idle();
  await runAnalyse();
  assert.match(await text('#analyse-result .error'), /^error\[E0962\]: .*payoff/);
});

await check('a game whose unlimited switches candidate/2 discretises says so (trust game)', async () => {
  await page.evaluate((s) => {
    const ed = window.sidlEditor;
    ed.dispatch({ changes: { from: 0, to: ed.state.doc.length, insert: s } });
  }, readFileSync(join(root, 'games', 'econ', 'trust.sidl'), 'utf8'));
  await page.click('#load');
  await idle();
  await runAnalyse();
  assert.equal(await text('#analyse-note'), 'Note: the unlimited switches the return, the transfer take their actions from candidate/2: this is the analysis of the game so discretised.');
  // a game without unlimited switches has no note
  await pickGame('ultimatum.sidl');
  await runAnalyse();
  assert.equal(await page.locator('#analyse-note').count(), 0);
});

await check('a game with labels reads in its own words (ultimatum)', async () => {
  await pickGame('ultimatum.sidl');
  await runAnalyse();
  assert.match(await text('#analyse-values tr[data-player="[proposer]"]'), /^Proposer \[proposer\]/);
  const row = page.locator('#analyse-strategies tr[data-infoset]').filter({ hasText: 'Responder' }).first();
  assert.match(await row.textContent(), /the offer is \d of 5/);
  assert.match(await row.locator('.action').first().textContent(), /accept/);
  await shot('analyse-05-ultimatum');
});

assert.deepEqual(consoleErrors, [], 'no console errors');
await browser.close();
done();
