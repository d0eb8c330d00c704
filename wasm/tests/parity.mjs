// Native-vs-WASM parity: every scripted trajectory of tests/trajectories (header `% game: PATH`,
// optionally `% options: --seed S --max-chronons N`) and a few random plays of every game in games/
// are printed by the native `sidl trace` and by `SidlGame.trace` of the WASM build (wasm-bindgen
// `--target nodejs` output); the lines must be identical.
//   node wasm/tests/parity.mjs PKG_DIR SIDL_BINARY
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const [pkgDir, sidl] = process.argv.slice(2);
if (!pkgDir || !sidl) {
  console.error('usage: node wasm/tests/parity.mjs PKG_DIR SIDL_BINARY');
  process.exit(2);
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const { SidlGame } = require(resolve(pkgDir, 'sidl_wasm.js'));

function scripts(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...scripts(p));
    else if (name.endsWith('.script')) out.push(p);
  }
  return out;
}

function native(game, seed, max, script) {
  const args = ['trace', game, '--seed', String(seed), '--max-chronons', String(max)];
  if (script) args.push('--script', script);
  try {
    return execFileSync(sidl, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    if (e.status === 2) return e.stdout; // a runtime error: the trace ends with its error line
    throw e;
  }
}

const cases = [];
for (const script of scripts(join(root, 'tests/trajectories'))) {
  const text = readFileSync(script, 'utf8');
  const game = /^% game:\s*(\S+)/m.exec(text)?.[1];
  if (!game) throw new Error(`${script} has no '% game:' header`);
  const opts = /^% options:(.*)$/m.exec(text)?.[1] ?? '';
  const seed = Number(/--seed\s+(\d+)/.exec(opts)?.[1] ?? 0);
  const max = Number(/--max-chronons\s+(\d+)/.exec(opts)?.[1] ?? 1000);
  cases.push({ name: relative(root, script), game: join(root, game), seed, max, script, text });
}
for (const name of readdirSync(join(root, 'games')).filter((n) => n.endsWith('.sidl')).sort()) {
  for (const seed of [1, 42]) {
    cases.push({ name: `games/${name} random seed ${seed}`, game: join(root, 'games', name), seed, max: 40, script: null, text: null });
  }
}

let passed = 0;
let failed = 0;
for (const c of cases) {
  const want = native(c.game, c.seed, c.max, c.script);
  let got;
  try {
    got = new SidlGame(readFileSync(c.game, 'utf8')).trace(c.text, c.seed, c.max);
  } catch (e) {
    got = `WASM threw: ${e.message}`;
  }
  if (got === want && want.length > 0) {
    passed++;
  } else {
    failed++;
    const w = want.split('\n');
    const g = got.split('\n');
    const i = w.findIndex((l, k) => l !== g[k]);
    console.log(`FAIL ${c.name}: line ${i + 1} differs\n  native: ${w[i]}\n  wasm:   ${g[i]}`);
  }
}
console.log(`parity (native sidl trace vs WASM trace): ${cases.length} games`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
