// Native-vs-WASM parity: every scripted trajectory of tests/trajectories (header `% game: PATH`,
// optionally `% options: --seed S --max-chronons N`) and a few random plays of every game in games/
// are printed by the native `sidl trace` and by `SidlGame.trace` of the WASM build (wasm-bindgen
// `--target nodejs` output); the lines must be identical. And every game, analysis test and e2e
// fixture gets the same diagnostics from `sidl check --format json` and from `SidlGame.check`.
// Checks docs/semantics.md §7.1: seeded random plays draw the same numbers natively and in WASM.
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

// `SidlGame.check` is `sidl check`: for every game and analysis test file, the diagnostics of
// `sidl check --format json` and of the WASM check are the same (codes, severities, messages,
// spans, labels, help). Columns: the CLI counts characters, the WASM UTF-16 units; they agree on
// text without characters beyond the BMP, which is compared column for column (else lines only).
const checked = [];
for (const dir of ['games', 'games/paper', 'tests/analysis', 'engine/tests/analysis', 'tests/e2e/fixtures']) {
  let names = [];
  try { names = readdirSync(join(root, dir)); } catch (_) { continue; }
  for (const n of names.filter((x) => x.endsWith('.sidl')).sort()) checked.push(join(root, dir, n));
}
let diagnosticCount = 0;
for (const file of checked) {
  const text = readFileSync(file, 'utf8');
  let out;
  try {
    out = execFileSync(sidl, ['check', file, '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    out = e.stdout; // exit 1: the file has an error
  }
  const astral = /[\u{10000}-\u{10FFFF}]/u.test(text);
  const place = (x) => (astral ? [x.line] : [x.line, x.column, x.end_line ?? x.endLine, x.end_column ?? x.endColumn]);
  const norm = (d) => ({
    code: d.code, severity: d.severity, message: d.message, help: d.help ?? null, at: place(d),
    labels: (d.labels || []).map((l) => ({ message: l.message, at: place(l) })),
  });
  const want = out.split('\n').filter(Boolean).map((l) => norm(JSON.parse(l)));
  const got = SidlGame.check(text).map(norm);
  diagnosticCount += want.length;
  if (JSON.stringify(got) === JSON.stringify(want)) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL check ${relative(root, file)}:\n  sidl check: ${JSON.stringify(want)}\n  wasm:       ${JSON.stringify(got)}`);
  }
}
console.log(`parity (sidl check vs WASM check): ${checked.length} files, ${diagnosticCount} diagnostics`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
