// scripts/wasm-callgrind.sh's workload: one `--target nodejs` build of sidl-wasm in Node.
//   node count.cjs PKG GAME WARM N            bench(WARM, seed 1), then bench(N, seed 2)
//   node count.cjs PKG GAME WARM N ai SPEC    aiLoop (loops.mjs) with 20 decisions, then with N
// GAME is a path relative to games/ without .sidl. N = 0: the warm-up alone.
'use strict';
const { readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const [pkg, game, warm, n, kind, spec] = process.argv.slice(2);
const { SidlGame } = require(join(resolve(pkg), 'sidl_wasm.js'));
const source = readFileSync(join(__dirname, '..', '..', 'games', `${game}.sidl`), 'utf8');
(async () => {
  if (kind === 'ai') {
    const { aiLoop } = await import('./loops.mjs');
    aiLoop(SidlGame, source, spec, Number(warm), 1);
    if (Number(n) > 0) aiLoop(SidlGame, source, spec, Number(n), 7);
    return;
  }
  const g = new SidlGame(source);
  g.bench(Number(warm), 1);
  if (Number(n) > 0) g.bench(Number(n), 2);
})();
