// scripts/bench-wasm-opt.sh's driver: the same page (page.html, loops.mjs) once per build variant,
// each page with its own sidl_wasm build, all in one headless Chromium; per game the variants are
// timed interleaved run by run (API loop, then `bench()`), so a change of the machine's load touches
// them alike, and the median of RUNS is kept. Prints chronons per second and each variant's speed
// over the first one. Usage (the shell script passes these):
//   node opt.mjs ROOT CHRONONS RUNS "GAME ..." NAME=PKG_DIR ...      (GAME under games/, no .sidl)
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser, origin } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [root, nArg, runsArg, gamesArg, ...pairs] = process.argv.slice(2);
const chronons = Number(nArg);
const runs = Number(runsArg);
const games = gamesArg.split(/\s+/).filter(Boolean).map((g) => `${g}.sidl`);
const variants = pairs.map((p) => { const i = p.indexOf('='); return [p.slice(0, i), p.slice(i + 1)]; });
const pkgOf = Object.fromEntries(variants);
const seed = 1;
const log = (s) => process.stderr.write(`${s}\n`);

// every variant's page under /NAME/: its sidl/ is that variant's build, the rest is shared
function fileOf(path) {
  const slash = path.indexOf('/');
  const pkg = pkgOf[path.slice(0, slash)];
  const rest = path.slice(slash + 1);
  if (pkg === undefined) return null;
  if (rest === 'page.html' || rest === 'loops.mjs') return join(here, rest);
  if (rest === 'gm.pl') return join(root, 'tests/reference/gm.pl');
  if (rest.startsWith('sidl/')) return join(pkg, rest.slice(5));
  if (rest.startsWith('swipl/')) return join(here, 'node_modules/swipl-wasm/dist/swipl', rest.slice(6));
  if (rest.startsWith('games/')) return join(root, rest);
  return null;
}
const { browser, context } = await openBrowser(fileOf);
const pages = {};
for (const [name] of variants) {
  const page = await context.newPage();
  page.on('pageerror', (e) => log(`${name}: page error: ${e}`));
  await page.goto(`${origin}${name}/page.html`);
  await page.waitForFunction(() => document.title === 'ready', null, { timeout: 120000 });
  pages[name] = page;
}
const run = (name, kind, game) => pages[name].evaluate((a) => window.runBench(a), { kind, game, chronons, seed });
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
// warm-up, not timed: every variant once on every game (V8 compiles a wasm function lazily with
// its baseline compiler, then again optimised once it is hot, in the background: without this
// the variant timed first on a game would pay for that)
for (const g of games) for (const [name] of variants) for (const kind of ['api', 'bench']) await run(name, kind, g);

const kinds = ['api', 'bench'];
const rows = [];
for (const g of games) {
  const samples = {};
  for (const [name] of variants) for (const kind of kinds) samples[`${name}/${kind}`] = [];
  for (let r = 0; r < runs; r++) {
    // the order of the variants rotates from run to run
    const order = variants.map((_, i) => variants[(i + r) % variants.length][0]);
    if (r % 2) order.reverse();
    for (const kind of kinds) {
      for (const name of order) {
        const res = await run(name, kind, g);
        samples[`${name}/${kind}`].push(res.chronons / res.seconds);
      }
    }
  }
  const rates = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
  const best = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, Math.max(...xs)]));
  rows.push([g, rates, best]);
  log(`${g}: ${Object.entries(rates).map(([k, v]) => `${k}=${v.toFixed(0)}`).join(' ')}`);
}
await browser.close();

const num = (v) => Math.round(v).toLocaleString('en-US').replace(/,/g, ' ');
const names = variants.map(([n]) => n);
console.log(`chronons per second in Chromium ${browser.version()} (${runs} runs of ${chronons} chronons, seed ${seed}; wall clock; variants interleaved)`);
// the median, and the best run (on a loaded machine the least disturbed one)
for (const [stat, col] of [['median', 1], ['best', 2]]) for (const kind of kinds) {
  console.log('');
  console.log(`${kind === 'api' ? 'API loop' : '`bench()`'}, ${stat} of ${runs}: chronons per second, then each variant over ${names[0]}`);
  console.log('');
  console.log(`| game | ${names.join(' | ')} | ${names.slice(1).map((n) => `${n} / ${names[0]}`).join(' | ')} |`);
  console.log(`|---|${names.map(() => '---|').join('')}${names.slice(1).map(() => '---|').join('')}`);
  for (const row of rows) {
    const [g, r] = [row[0], row[col]];
    const base = r[`${names[0]}/${kind}`];
    console.log(`| ${g.replace(/\.sidl$/, '')} | ${names.map((n) => num(r[`${n}/${kind}`])).join(' | ')} | ${names.slice(1).map((n) => `${(r[`${n}/${kind}`] / base).toFixed(2)}×`).join(' | ')} |`);
  }
}
