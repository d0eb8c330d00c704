// scripts/wasm-callgrind.sh's workload: one `--target nodejs` build of sidl-wasm in Node.
//   node count.cjs PKG GAME WARM N              bench(WARM, seed 1), then bench(N, seed 2)
//   node count.cjs PKG GAME WARM N ai SPEC      aiLoop (loops.mjs) with 20 decisions, then with N
//   node count.cjs PKG GAME WARM N api [PARTS]  apiLoop (loops.mjs) with WARM chronons (seed 1),
//                                               then with N (seed 7) on a second game
//   node count.cjs PKG GAME WARM N page [PARTS] pageLoop (loops.mjs: the playground worker's Run
//                                               with every seat random), the same way
// PARTS (api only) splits the API loop's cost by call: a comma-separated list of the per-player
// calls kept in the measured loop, of `switches` and `view` (`-` for none: only `randomMoves` and
// `chronon()`); without it, loops.mjs's apiLoop itself (every player's switches and view in one
// `switchesAndViews` call; `switches,view` is the loop as it was before, a call per player and
// kind). For page, PARTS is a comma-separated list of the calls kept of `isTerminal`, `snapshot`
// and `accounts`, plus `randomMoves2` (the random moves submitted twice; `-`: none of them). The
// warm-up runs the loop that is measured, with the same PARTS: V8 has then compiled that loop's
// own calls (a warm-up on another loop left them to be compiled inside the count). GAME is a path
// relative to games/ without .sidl. N = 0: the warm-up alone (for api: the warm-up, then a second
// game loaded and started, no chronon). For api, V8 still optimises the JavaScript (glue, loop)
// during the first thousand or two chronons after a warm-up of 200: their compiles are counted;
// the difference of two counts (N and 2N, the same WARM) is the steady state.
'use strict';
const { readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const [pkg, game, warm, n, kind, spec] = process.argv.slice(2);
const { SidlGame } = require(join(resolve(pkg), 'sidl_wasm.js'));
const source = readFileSync(join(__dirname, '..', '..', 'games', `${game}.sidl`), 'utf8');

/** loops.mjs's apiLoop with only some of its per-player calls (`parts`: a Set). */
function apiParts(parts, source, chronons, seed) {
  const g = new SidlGame(source);
  const players = g.players();
  let s = seed;
  let k = 0;
  g.start(s);
  while (k < chronons) {
    if (g.isTerminal()) {
      g.start(++s);
      continue;
    }
    g.randomMoves(players);
    g.chronon();
    for (const p of players) {
      if (parts.has('switches')) g.switches(p);
      if (parts.has('view')) g.view(p);
    }
    k++;
  }
  g.free();
}

(async () => {
  if (kind === 'ai') {
    const { aiLoop } = await import('./loops.mjs');
    aiLoop(SidlGame, source, spec, Number(warm), 1);
    if (Number(n) > 0) aiLoop(SidlGame, source, spec, Number(n), 7);
    return;
  }
  if (kind === 'page') {
    const { pageLoop } = await import('./loops.mjs');
    const parts = spec === undefined ? null : new Set(spec.split(','));
    await pageLoop(SidlGame, source, Number(warm), 1, parts);
    await pageLoop(SidlGame, source, Number(n), 7, parts);
    return;
  }
  if (kind === 'api') {
    const { apiLoop } = await import('./loops.mjs');
    const loop =
      spec === undefined
        ? (k, seed) => apiLoop(SidlGame, source, k, seed)
        : (k, seed) => apiParts(new Set(spec.split(',')), source, k, seed);
    loop(Number(warm), 1);
    loop(Number(n), 7);
    return;
  }
  const g = new SidlGame(source);
  g.bench(Number(warm), 1);
  if (Number(n) > 0) g.bench(Number(n), 2);
})();
