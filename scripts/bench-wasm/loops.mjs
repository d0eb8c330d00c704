// The measured loops of scripts/bench-wasm.sh, shared by Node (run.mjs) and the Chromium page
// (page.html): the same code times the same work in both. Wall-clock seconds (performance.now()).

/**
 * The playground's API loop with every seat random: per chronon `randomMoves` for every player,
 * `chronon()`, then every player's legal switches and view (what a page redraws), and `isTerminal()`
 * before each step; a new game (`start(seed + k)`) at each terminal state, as `sidl bench` does.
 * The switches and views are asked in one call, `switchesAndViews(players, players)`, the call the
 * playground's frame makes (worker.js: the human seats' switches and the viewer's view); before
 * issue 17's api32 the loop called `switches(p)` and `view(p)` for each player (count.cjs's `api
 * switches,view` still does).
 * @param {any} SidlGame the wasm-bindgen class
 * @param {string} source the game's text
 */
export function apiLoop(SidlGame, source, chronons, seed) {
  const game = new SidlGame(source);
  const players = game.players();
  let s = seed;
  let games = 1;
  let n = 0;
  const t0 = performance.now();
  game.start(s);
  while (n < chronons) {
    if (game.isTerminal()) {
      if (game.chrononNumber() === 0) throw new Error('the game is terminal in its initial state');
      game.start(++s);
      games++;
      continue;
    }
    game.randomMoves(players);
    game.chronon();
    game.switchesAndViews(players, players);
    n++;
  }
  const seconds = (performance.now() - t0) / 1000;
  game.free();
  return { chronons: n, games, seconds };
}

/**
 * The playground's Run with every seat random (`every 0 ms`), as its worker runs it: the worker's
 * `steps` op (playground/worker.js; mirrored here, as worker.js cannot be imported outside a
 * worker: keep the two alike) with `seatMoves` imported from playground/play.js. Per step
 * `isTerminal()`, the seats' moves (`randomMoves` of every player, awaited as the worker awaits
 * them), `chronon()` when no submission ran one, then `snapshot()` and `accounts()`, one timeline
 * entry per chronon (kept until the game ends, as the page keeps its timeline). A new game
 * (`start(seed + k)`) at each terminal state, as apiLoop does. `parts` (a Set, for
 * scripts/wasm-callgrind.sh's split by call; null: the worker's sequence) keeps only the calls
 * named in it of `isTerminal`, `snapshot` and `accounts`; `randomMoves2` submits the random moves
 * twice (a second `randomMoves` call before the chronon: its cost, on slightly different games).
 * @param {any} SidlGame the wasm-bindgen class
 * @param {string} source the game's text
 * @param {Set<string> | null} [parts]
 */
export async function pageLoop(SidlGame, source, chronons, seed, parts = null) {
  const { seatMoves } = await import('../../playground/play.js');
  const game = new SidlGame(source);
  const players = game.players();
  const has = (/** @type {string} */ k) => !parts || parts.has(k);
  const terminalCheck = has('isTerminal');
  const snapshots = has('snapshot');
  const accountsToo = has('accounts');
  const twice = !!parts && parts.has('randomMoves2');
  const call = (/** @type {string} */ m, /** @type {unknown[]} */ ...a) => game[m](...a);
  const seatMap = new Map(players.map((p) => [p, 'random']));
  let s = seed;
  let games = 1;
  let n = 0;
  /** @type {{ snap: unknown, chronon: any, accounts: unknown }[]} the game's timeline */
  let entries = [];
  let over = false;
  const t0 = performance.now();
  game.start(s);
  while (n < chronons) {
    if (terminalCheck ? game.isTerminal() : over) {
      if (game.chrononNumber() === 0) throw new Error('the game is terminal in its initial state');
      game.start(++s);
      games++;
      entries = [];
      over = false;
      continue;
    }
    // the worker's step: seatMoves, then chronon() when nothing ran
    if (twice) game.randomMoves(players);
    const ran = await seatMoves(call, seatMap, seed + entries.length);
    const ranChronons = ran.length ? ran : [game.chronon()];
    const snap = snapshots ? game.snapshot() : null;
    const accounts = accountsToo ? game.accounts() : null;
    for (const chronon of ranChronons) entries.push({ snap, chronon, accounts });
    n += ranChronons.length;
    // the worker's batch ends at a terminal chronon; the next batch's isTerminal() then says so
    over = !!ranChronons[ranChronons.length - 1].terminal;
  }
  const seconds = (performance.now() - t0) / 1000;
  game.free();
  return { chronons: n, games, seconds };
}

/**
 * AI decisions through the playground's API for AI seats (`aiMoves`), at the positions of
 * `sidl bench GAME --ai SPEC --decisions K --seed SEED`: random games from seeds `seed`, `seed + 1`,
 * ...; in each state the first player with a legal switch decides (decision `k` with AI seed `k`),
 * then random moves for every switch replace its submissions (the same random draws as the
 * native loop) and the chronon runs. Only the `aiMoves` calls are timed.
 * @param {any} SidlGame the wasm-bindgen class
 * @param {string} source the game's text
 * @param {string} spec e.g. `mcts:200`
 */
export function aiLoop(SidlGame, source, spec, decisions, seed) {
  const game = new SidlGame(source);
  const players = game.players();
  let s = seed;
  let done = 0;
  let seconds = 0;
  game.start(s);
  while (done < decisions) {
    if (game.isTerminal()) {
      if (game.chrononNumber() === 0) throw new Error('the game is terminal in its initial state');
      game.start(++s);
      continue;
    }
    const p = players.find((q) => game.switches(q).length > 0);
    if (p !== undefined) {
      const t0 = performance.now();
      game.aiMoves(p, spec, done);
      seconds += (performance.now() - t0) / 1000;
      done++;
    }
    game.randomMoves(null);
    game.chronon();
  }
  game.free();
  return { decisions: done, seconds };
}

/** `SidlGame.bench`: `sidl bench`'s loop inside the wasm. */
export function benchCall(SidlGame, source, chronons, seed) {
  const game = new SidlGame(source);
  const r = game.bench(chronons, seed);
  game.free();
  return r;
}

/**
 * The reference manager tests/reference/gm.pl in SWI-Prolog's WebAssembly build: its `--bench`
 * (random games back to back, `run_bench/1`) on the game written into the virtual file system. A
 * fresh Prolog per call; loading is not timed.
 * @param {(opts: object) => Promise<any>} SWIPL the swipl-wasm factory
 * @param {object} opts options for it (in a page: locateFile)
 */
export async function swiplBench(SWIPL, opts, gmText, source, chronons, seed) {
  const swipl = await SWIPL({ arguments: ['-q'], ...opts });
  // consulted, not run as a script: main/0 (argv, halt) is replaced by the calls below
  swipl.FS.writeFile('/gm.pl', gmText.replace(':- initialization(main, main).', ''));
  swipl.FS.writeFile('/game.sidl', source);
  const q = (goal) => {
    const r = swipl.prolog.query(goal).once();
    if (!r || r.error || r.success === false) {
      throw new Error(`swipl-wasm: ${goal}: ${JSON.stringify(r && (r.error ? String(r.message || r.error) : r))}`);
    }
    return r;
  };
  q("consult('/gm.pl')");
  q(`nb_setval(gm_verbose, false), nb_setval(gm_inference_limit, none), set_random(seed(${seed})), load_game('/game.sidl')`);
  const t0 = performance.now();
  const r = q(`catch(with_output_to(string(Out), run_bench(${chronons})), E, (print_message(error, E), fail))`);
  const seconds = (performance.now() - t0) / 1000;
  const out = String(r.Out && (r.Out.v ?? r.Out));
  if (!/chronons=/.test(out)) throw new Error(`swipl-wasm: no bench line: ${out}`);
  return { chronons, seconds, version: q('current_prolog_flag(version, V)').V };
}
