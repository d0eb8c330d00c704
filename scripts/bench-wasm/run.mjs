// scripts/bench-wasm.sh's driver: times every game in every setting, prints chronons per second and
// the ratios. Usage (the shell script passes these):
//   node run.mjs ROOT SIDL_BIN NODE_PKG WEB_PKG CHRONONS RUNS GAME...   (GAME relative to games/)
// Then AI decisions (the AI_CASES below whose game is among GAME...): `aiMoves` in Node and in
// Chromium against native `sidl bench GAME --ai SPEC --decisions K --seed 1`, same positions.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser, origin } from './serve.mjs';
import SWIPL from 'swipl-wasm';
import { aiLoop, apiLoop, benchCall, swiplBench } from './loops.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [root, sidlBin, nodePkg, webPkg, nArg, runsArg, ...games] = process.argv.slice(2);
const chronons = Number(nArg);
const runs = Number(runsArg);
const seed = 1;
const { SidlGame } = createRequire(import.meta.url)(join(nodePkg, 'sidl_wasm.js'));
const gm = readFileSync(join(root, 'tests/reference/gm.pl'), 'utf8');
const log = (s) => process.stderr.write(`${s}\n`);

// the page's files, served from disk by Playwright's router (no server, nothing leaves the browser)
function fileOf(path) {
  if (path === 'page.html' || path === 'loops.mjs') return join(here, path);
  if (path === 'gm.pl') return join(root, 'tests/reference/gm.pl');
  if (path.startsWith('sidl/')) return join(webPkg, path.slice(5));
  if (path.startsWith('swipl/')) return join(here, 'node_modules/swipl-wasm/dist/swipl', path.slice(6));
  if (path.startsWith('games/')) return join(root, path);
  return null;
}
const { browser, context } = await openBrowser(fileOf);
const page = await context.newPage();
page.on('pageerror', (e) => log(`page error: ${e}`));
await page.goto(`${origin}page.html`);
await page.waitForFunction(() => document.title === 'ready', null, { timeout: 120000 });
const browserVersion = browser.version();

function native(game, views = false) {
  const p = spawnSync(sidlBin, ['bench', join(root, 'games', game), '--chronons', String(chronons), '--seed', String(seed), ...(views ? ['--views'] : [])], { encoding: 'utf8' });
  // chronons_per_sec is computed from the full-precision time (seconds= is printed to 1 ms)
  const m = /chronons=(\d+) .*chronons_per_sec=([0-9.]+)/.exec(p.stdout);
  if (p.status !== 0 || !m) throw new Error(`sidl bench: ${p.stderr || p.stdout}`);
  return { chronons: Number(m[1]), seconds: Number(m[1]) / Number(m[2]) };
}
const settings = {
  native: async (g) => native(g),
  // the API loop's work natively: random moves with candidate/2, records, every player's view
  nativeViews: async (g) => native(g, true),
  nodeApi: async (g, src) => apiLoop(SidlGame, src, chronons, seed),
  nodeBench: async (g, src) => benchCall(SidlGame, src, chronons, seed),
  nodeSwipl: async (g, src) => swiplBench(SWIPL, {}, gm, src, chronons, seed),
  chromeApi: (g) => page.evaluate((a) => window.runBench(a), { kind: 'api', game: g, chronons, seed }),
  chromeBench: (g) => page.evaluate((a) => window.runBench(a), { kind: 'bench', game: g, chronons, seed }),
  chromeSwipl: (g) => page.evaluate((a) => window.runBench(a), { kind: 'swipl', game: g, chronons, seed }),
};
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

let swiplVersion = '?';
// warm-up, not timed: every setting once on a small game (JIT tiers, the page's first instances)
for (const f of Object.values(settings)) {
  await f('nim.sidl', readFileSync(join(root, 'games/nim.sidl'), 'utf8')).catch((e) => log(`warm-up: ${e}`));
}
const rows = [];
for (const g of games) {
  const src = readFileSync(join(root, 'games', g), 'utf8');
  const rates = {};
  // the settings of one game interleaved run by run, so that a change of the machine's load
  // touches all of them alike
  const samples = Object.fromEntries(Object.keys(settings).map((k) => [k, []]));
  for (let r = 0; r < runs; r++) {
    for (const [k, f] of Object.entries(settings)) {
      if (samples[k] === null) continue;
      try {
        const res = await f(g, src);
        if (res.version) swiplVersion = res.version;
        samples[k].push(res.chronons / res.seconds);
      } catch (e) {
        log(`${g}: ${k}: ${String(e.message || e).split('\n').slice(0, 3).join(' | ')}`);
        samples[k] = null;
      }
    }
  }
  for (const [k, xs] of Object.entries(samples)) rates[k] = xs && xs.length ? median(xs) : null;
  rows.push([g, rates]);
  log(`${g}: ${Object.entries(rates).map(([k, v]) => `${k}=${v === null ? '-' : v.toFixed(0)}`).join(' ')}`);
}

// AI decisions: game, spec, decisions (about a third of a second natively each)
const AI_CASES = [
  ['tictactoe.sidl', 'mcts:200', 20],
  ['connect4.sidl', 'mcts:100', 20],
  ['kuhn.sidl', 'mcts:200', 60],
  ['nim.sidl', 'minimax:4', 1000],
];
function nativeAi(game, spec, decisions) {
  const p = spawnSync(sidlBin, ['bench', join(root, 'games', game), '--ai', spec, '--decisions', String(decisions), '--seed', String(seed)], { encoding: 'utf8' });
  const m = /decisions=(\d+) seconds=([0-9.]+)/.exec(p.stdout);
  if (p.status !== 0 || !m) throw new Error(`sidl bench --ai: ${p.stderr || p.stdout}`);
  return { decisions: Number(m[1]), seconds: Number(m[2]) };
}
const aiSettings = {
  native: async (g, src, spec, k) => nativeAi(g, spec, k),
  chrome: (g, src, spec, k) => page.evaluate((a) => window.runBench(a), { kind: 'ai', game: g, spec, decisions: k, seed }),
  node: async (g, src, spec, k) => aiLoop(SidlGame, src, spec, k, seed),
};
const aiRows = [];
for (const [g, spec, k] of AI_CASES.filter(([g]) => games.includes(g))) {
  const src = readFileSync(join(root, 'games', g), 'utf8');
  const samples = Object.fromEntries(Object.keys(aiSettings).map((x) => [x, []]));
  for (let r = 0; r < runs; r++) {
    for (const [x, f] of Object.entries(aiSettings)) {
      if (samples[x] === null) continue;
      try {
        const res = await f(g, src, spec, k);
        samples[x].push(res.seconds / res.decisions);
      } catch (e) {
        log(`${g} ${spec}: ${x}: ${String(e.message || e).split('\n').slice(0, 3).join(' | ')}`);
        samples[x] = null;
      }
    }
  }
  const t = Object.fromEntries(Object.entries(samples).map(([x, xs]) => [x, xs && xs.length ? median(xs) : null]));
  aiRows.push([g, spec, k, t]);
  log(`${g} ${spec}: ${Object.entries(t).map(([x, v]) => `${x}=${v === null ? '-' : (v * 1000).toFixed(2)}ms`).join(' ')}`);
}
await browser.close();

const num = (v) => (v === null || !isFinite(v) ? '–' : Math.round(v).toLocaleString('en-US').replace(/,/g, ' '));
const ratio = (a, b) => (a === null || b === null ? '–' : `${(a / b).toFixed(2)}×`);
console.log(`chronons per second (median of ${runs} runs of ${chronons} chronons, seed ${seed}; wall clock)`);
console.log(`Node ${process.version}, Chromium ${browserVersion}, SWI-Prolog (wasm) ${swiplVersion}`);
console.log('');
console.log('| game | native `sidl bench` | native `sidl bench --views` | Chromium API loop | Chromium `bench()` | Node API loop | Node `bench()` | swipl-wasm Chromium | swipl-wasm Node |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [g, r] of rows) {
  console.log(`| ${g.replace(/\.sidl$/, '')} | ${[r.native, r.nativeViews, r.chromeApi, r.chromeBench, r.nodeApi, r.nodeBench, r.chromeSwipl, r.nodeSwipl].map(num).join(' | ')} |`);
}
console.log('');
console.log('| game | native / Chromium API loop | native `--views` / Chromium API loop | native / Chromium `bench()` | native / Node API loop | Chromium `bench()` / swipl-wasm Chromium | Chromium API loop / swipl-wasm Chromium | Node `bench()` / swipl-wasm Node | Node API loop / swipl-wasm Node |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [g, r] of rows) {
  console.log(`| ${g.replace(/\.sidl$/, '')} | ${[ratio(r.native, r.chromeApi), ratio(r.nativeViews, r.chromeApi), ratio(r.native, r.chromeBench), ratio(r.native, r.nodeApi),
    ratio(r.chromeBench, r.chromeSwipl), ratio(r.chromeApi, r.chromeSwipl), ratio(r.nodeBench, r.nodeSwipl), ratio(r.nodeApi, r.nodeSwipl)].join(' | ')} |`);
}
if (aiRows.length) {
  const ms = (v) => (v === null ? '–' : (v * 1000).toFixed(2));
  const slower = (a, b) => (a === null || b === null ? '–' : `${(a / b).toFixed(2)}×`);
  console.log('');
  console.log(`milliseconds per AI decision (median of ${runs} runs; \`aiMoves\` vs \`sidl bench GAME --ai SPEC --decisions K --seed ${seed}\`, same positions)`);
  console.log('');
  console.log('| game | AI | decisions | native | Chromium `aiMoves` | Node `aiMoves` | Chromium / native | Node / native |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [g, spec, k, t] of aiRows) {
    console.log(`| ${g.replace(/\.sidl$/, '')} | ${spec} | ${k} | ${ms(t.native)} | ${ms(t.chrome)} | ${ms(t.node)} | ${slower(t.chrome, t.native)} | ${slower(t.node, t.native)} |`);
  }
}
