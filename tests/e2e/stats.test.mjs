// The playground's Statistics panel and records in real headless Chromium (playwright-core), checked
// against the command line: the panel's numbers are those of `sidl stats` on the same seeds, Stop
// ends a run between steps, a record downloaded from the playground replays with `sidl trace
// --replay` to the trace of the moves played, and a bad records file names its lines.
//   SIDL=target/debug/sidl BASE_URL=http://127.0.0.1:8080/ node tests/e2e/stats.test.mjs
// Run by scripts/e2e.sh (which builds sidl and serves playground/). Screenshots go to $ARTIFACTS.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifacts, checks, consoleErrors, launch, root, watch } from './support.mjs';

const base = process.env.BASE_URL || 'http://127.0.0.1:8080/';
const sidlBin = process.env.SIDL || join(root, 'target', 'debug', 'sidl');
const tmp = mkdtempSync(join(tmpdir(), 'sidl-stats-e2e-'));
const firstprice = join(root, 'cli', 'tests', 'stats', 'firstprice.sidl');

/** `sidl ARGS…`'s stdout (it must exit 0). */
const sidl = (...args) => execFileSync(sidlBin, args, { encoding: 'utf8', maxBuffer: 1 << 26 });

const browser = await launch();
async function newPage() {
  const p = watch(await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true }));
  // raw terms in the game pane (the checks compare its facts with `sidl trace`); the report's
  // labels do not depend on it
  await p.addInitScript(() => { try { localStorage.setItem('sidl.labels', 'raw'); } catch (_) { /* none */ } });
  return p;
}
let page = await newPage();
const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
const idle = () => page.waitForFunction(() => !document.body.dataset.busy, null, { timeout: 60000 });
const ready = async () => { await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 }); await idle(); };
const statsState = (state, timeout = 180000) => page.waitForSelector(`#stats-pane[data-state="${state}"]`, { timeout });
async function pickGame(name) {
  await page.selectOption('#example', name);
  await page.waitForFunction((n) => document.querySelector('#status').textContent === `loaded ${n}`, name, { timeout: 30000 });
  await idle();
}
async function loadText(text) {
  await page.evaluate((s) => {
    const ed = window.sidlEditor;
    ed.dispatch({ changes: { from: 0, to: ed.state.doc.length, insert: s } });
  }, text);
  await page.click('#load');
  await page.waitForFunction(() => document.querySelector('#status').textContent === 'loaded the edited game', null, { timeout: 30000 });
  await idle();
}
/** Clicks `selector` and returns the text of the file it downloads. */
async function download(selector) {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), page.click(selector)]);
  return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8') };
}
/** The cells of the row `key` of the result table `cls`. */
const row = (cls, key) => page.locator(`#stats-result table.${cls} tr[data-stat="${key}"] td`).allTextContents();
// numbers as the engine's report writes them (engine/src/stats.rs fmt_num)
const fmt = (x) => { const s = x.toFixed(4).replace(/\.?0+$/, ''); return s === '-0' ? '0' : s; };
const binCounts = async (key) => JSON.parse(await page.getAttribute(`[data-plot="${key}"]`, 'data-bins'))[1];
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

const { check, done } = checks(async (n) => {
  await shot(`stats-failure-${n}`).catch(() => {});
  await page.close().catch(() => {});
  page = await newPage();
  await page.goto(base);
  await ready().catch(() => {});
});

await page.goto(base);
await ready();

await check('200 games in the panel: the numbers of sidl stats on the same seeds', async () => {
  await loadText(readFileSync(firstprice, 'utf8'));
  await page.fill('#stats-games', '200');
  await page.fill('#stats-seed', '7');
  await page.selectOption('#stats-seats select[data-player="[ann]"]', 'minimax:3');
  await page.click('#stats-run');
  await statsState('done');
  const args = [firstprice, '--games', '200', '--seed', '7', '--seat', '[ann]=minimax:3'];
  const cli = JSON.parse(sidl('stats', ...args, '--format', 'json'));
  // the report as the panel's JSON download: the very numbers
  const json = await download('#stats-json');
  assert.deepEqual(JSON.parse(json.text), cli);
  // the tables show them
  assert.equal(await page.textContent('#stats-result [data-stat="games"]'), 'games 200');
  for (const [i, p] of cli.players.entries()) {
    const cells = await row('players', p.player);
    const a = p.account;
    assert.deepEqual(cells, [p.player, String(p.wins.count), `${(100 * p.wins.share).toFixed(1)} %`, fmt(a.mean), fmt(a.sd),
      `${fmt(a.ci95[0])} to ${fmt(a.ci95[1])}`, fmt(a.min), fmt(a.median), fmt(a.max), p.branching === null ? '–' : fmt(p.branching)], `player ${i}`);
  }
  const revenue = cli.metrics.find((m) => m.name === 'revenue').summary;
  const cells = await row('metrics', 'revenue');
  assert.deepEqual(cells.slice(0, 7), ['revenue', fmt(revenue.mean), fmt(revenue.sd), `${fmt(revenue.ci95[0])} to ${fmt(revenue.ci95[1])}`,
    fmt(revenue.min), fmt(revenue.median), fmt(revenue.max)]);
  assert.match((await row('metrics', 'broken'))[8], /metric broken threw/);
  const c = await row('play', 'completion');
  assert.deepEqual(c.slice(0, 2), ['completion (a winner)', `${cli.completion.count} of 200`]);
  // the table sidl stats prints (after its first line, which names the file)
  const text = sidl('stats', ...args).split('\n').slice(1).join('\n');
  assert.equal(await page.textContent('#stats-result pre.stats-text'), text);
  // the histograms count every game
  assert.equal(sum(await binCounts('length')), 200);
  assert.equal(sum(await binCounts('account [ann]')), 200);
  assert.equal(sum(await binCounts('metric revenue')), 200);
  assert.equal(await page.locator('#stats-result .stats-plot canvas').count() >= 4, true, 'the plots are drawn');
  // the simulated games' records, read by sidl stats --records: the same report
  const recs = await download('#stats-records');
  assert.equal(recs.text.trim().split('\n').length, 200);
  writeFileSync(join(tmp, 'pg-records.jsonl'), recs.text);
  assert.deepEqual(JSON.parse(sidl('stats', firstprice, '--records', join(tmp, 'pg-records.jsonl'), '--format', 'json')), cli);
  await page.locator('#stats-pane').scrollIntoViewIfNeeded();
  await shot('stats-01-firstprice');
});

await check('Stop ends a run between steps; the report counts the games done', async () => {
  await pickGame('tictactoe.sidl');
  await page.fill('#stats-games', '100000');
  await page.fill('#stats-seed', '0');
  await page.click('#stats-run');
  await page.waitForFunction(() => Number(document.querySelector('#stats-progress').value) >= 20, null, { timeout: 60000 });
  await page.click('#stats-stop');
  await statsState('stopped');
  const m = /stopped after (\d+) of 100000/.exec(await page.textContent('#stats-status'));
  assert.ok(m, await page.textContent('#stats-status'));
  const k = Number(m[1]);
  assert.ok(k >= 20 && k < 100000, `${k}`);
  assert.equal(await page.textContent('#stats-result [data-stat="games"]'), `games ${k}`);
  assert.match(await page.textContent('#stats-result .stats-what'), new RegExp(`stopped after ${k} of 100000`));
  // the games done are those of sidl stats with as many games
  const cli = JSON.parse(sidl('stats', join(root, 'games', 'tictactoe.sidl'), '--games', String(k), '--seed', '0', '--format', 'json'));
  assert.deepEqual(JSON.parse((await download('#stats-json')).text), cli);
  assert.equal(await page.isDisabled('#stats-run'), false, 'a new run can start');
  assert.equal(await page.isDisabled('#stats-stop'), true);
  await page.locator('#stats-pane').scrollIntoViewIfNeeded();
  await shot('stats-02-stopped');
});

await check('a record downloaded from the playground replays with sidl trace --replay to the trace of its moves', async () => {
  await pickGame('kuhn.sidl');
  assert.equal(await page.locator('#stats-result table').count(), 0, 'the report of the previous game is gone');
  assert.equal(await page.getAttribute('#stats-pane', 'data-state'), 'idle');
  await page.fill('#seed', '5');
  await page.click('#restart'); await idle();
  // both seats are human: click a move of each player shown, then Step (nature deals in chronon 1)
  for (let i = 0; i < 10 && !/game over/.test(await page.textContent('#chronon-label')); i++) {
    const buttons = page.locator('#moves button.action');
    if (await buttons.count()) { await buttons.last().click(); await idle(); }
    await page.click('#chronon'); await idle();
  }
  assert.match(await page.textContent('#chronon-label'), /game over/);
  const rec = await download('#download-record');
  assert.equal(rec.name, 'kuhn-seed5.jsonl');
  const file = join(tmp, 'kuhn-pg.jsonl');
  writeFileSync(file, rec.text);
  const r = JSON.parse(rec.text);
  assert.equal(r.format, 'sidl-record/1');
  assert.equal(r.seed, 5);
  assert.deepEqual(r.seats.map((s) => s.kind), ['human', 'human']);
  const game = join(root, 'games', 'kuhn.sidl');
  const replayed = sidl('trace', game, '--replay', file);
  // the same moves as a trace script, from the session's history
  const history = await page.evaluate(() => window.sidlEngine.call('history'));
  const script = history.map((c) => c.submissions.map(([p, s, a]) => `submit(${p}, ${s}, ${a}).\n`).join('') + 'chronon.\n').join('');
  writeFileSync(join(tmp, 'kuhn.script'), script);
  assert.equal(replayed, sidl('trace', game, '--seed', '5', '--script', join(tmp, 'kuhn.script')));
  const lines = replayed.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, history.length + 1);
  // the last state is the one the page shows
  assert.deepEqual(lines[lines.length - 1].facts.slice().sort(), (await page.locator('#facts li').allTextContents()).sort());
  // the panel reads it back with simulated games: the people's game and the random ones side by side
  const mixed = join(tmp, 'kuhn-mixed.jsonl');
  writeFileSync(mixed, rec.text);
  sidl('stats', game, '--games', '20', '--record', mixed);
  await page.setInputFiles('#stats-file', mixed);
  await statsState('done');
  assert.equal(await page.textContent('#stats-result [data-stat="games"]'), 'games 21');
  const cli = JSON.parse(sidl('stats', game, '--records', mixed, '--format', 'json'));
  assert.deepEqual(cli.groups.map(([g, r]) => [g, r.games]), [['[p1]=human [p2]=human', 1], ['[p1]=random [p2]=random', 20]]);
  assert.deepEqual(await page.locator('#stats-result table.groups th').allTextContents(), ['by group', '[p1]=human [p2]=human', '[p1]=random [p2]=random']);
  assert.deepEqual(await row('groups', 'games'), ['games', '1', '20']);
  assert.deepEqual(JSON.parse((await download('#stats-json')).text), cli);
  await page.locator('#stats-pane').scrollIntoViewIfNeeded();
  await shot('stats-03-record');
});

await check('a bad records file: the errors name their lines, the good records are reported', async () => {
  await loadText(readFileSync(firstprice, 'utf8'));
  const file = join(tmp, 'bad.jsonl');
  writeFileSync(file, '');
  sidl('stats', firstprice, '--games', '3', '--seed', '1', '--record', file);
  const good = readFileSync(file, 'utf8').trim().split('\n');
  const changed = join(tmp, 'firstprice.sidl');
  writeFileSync(changed, `${readFileSync(firstprice, 'utf8')}% changed\n`);
  const other = join(tmp, 'other.jsonl');
  writeFileSync(other, '');
  sidl('stats', changed, '--games', '1', '--record', other);
  writeFileSync(file, [good[0], good[1].slice(0, 40), good[1], readFileSync(other, 'utf8').trim(), good[2]].join('\n') + '\n');
  appendFileSync(file, '\n');
  await page.setInputFiles('#stats-file', file);
  await statsState('done');
  const problems = await page.locator('#stats-problems li').allTextContents();
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(problems[0], /^record on line 2: not a record/);
  assert.match(problems[1], /^record on line 4: the record was made with another version of the game/);
  assert.equal(await page.textContent('#stats-result [data-stat="games"]'), 'games 3');
  // the report of the good ones is sidl stats --records' report
  const cli = JSON.parse(sidl('stats', firstprice, '--records', file, '--format', 'json'));
  assert.deepEqual(JSON.parse((await download('#stats-json')).text), cli);
  assert.equal(await page.locator('#stats-records').count(), 0, 'no records to download for a file read');
  await page.locator('#stats-pane').scrollIntoViewIfNeeded();
  await shot('stats-04-bad-records');
});

assert.deepEqual(consoleErrors, [], 'no console errors');
await browser.close();
console.log(`screenshots in ${artifacts}`);
done();
