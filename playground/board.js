// @ts-check
// The optional board view: facts that place a piece on a grid, drawn as a table.
// A game chooses it with a hint line in a comment (see docs/playground.md):
//   % board: [cell, Y, X, M] x 1..3 y 1..3 blank blank
//   % board: [C, P, X, Y] x a..h y 8..1
// The pattern is a list; its variables X and Y are the column and the row, its other variables
// make the piece's label, its constants must match. `x`/`y` give the columns left to right and the
// rows top to bottom (`1..8`, `8..1`, `a..h`, or a comma list `a,b,c`); `blank V` names a label
// drawn as an empty square. Without a hint, `detectBoard` looks for facts `[..., X, Y]` whose last
// two elements are grid coordinates (small integers, or a letter and an integer).

/**
 * A board: the fact pattern (list element texts; `X`, `Y` the column and row), the columns left to
 * right, the rows top to bottom, the label drawn as an empty square, the hint it was written as.
 * @typedef {{ pattern: string[], xs: string[], ys: string[], blank: string | null, hint: string | null }} Board
 */

/**
 * Splits a canonical list text `[a,b,[c,d]]` into its top-level element texts (null: not a list).
 * @param {string} text
 * @returns {string[] | null}
 */
export function listItems(text) {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return null;
  const inner = t.slice(1, -1);
  const items = [];
  /** @type {string | null} */
  let quote = null;
  let depth = 0, start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (quote) { if (c === '\\') i++; else if (c === quote) quote = null; continue; }
    if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(' || c === '{') depth++;
    else if (c === ']' || c === ')' || c === '}') depth--;
    else if (c === ',' && depth === 0) { items.push(inner.slice(start, i).trim()); start = i + 1; }
  }
  if (inner.trim() !== '') items.push(inner.slice(start).trim());
  return items;
}

/**
 * The coordinates `1..8`, `8..1`, `a..h` or `a,b,c` name (null: none, or more than 40 numbers).
 * @param {string} spec
 * @returns {string[] | null}
 */
function range(spec) {
  const m = /^(-?\d+)\.\.(-?\d+)$/.exec(spec);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    const out = [];
    for (let i = a; a <= b ? i <= b : i >= b; i += a <= b ? 1 : -1) out.push(String(i));
    return out.length <= 40 ? out : null;
  }
  const l = /^([a-z])\.\.([a-z])$/.exec(spec);
  if (l) {
    const [a, b] = [l[1].charCodeAt(0), l[2].charCodeAt(0)];
    const out = [];
    for (let i = a; a <= b ? i <= b : i >= b; i += a <= b ? 1 : -1) out.push(String.fromCharCode(i));
    return out;
  }
  const list = spec.split(',').map((s) => s.trim()).filter(Boolean);
  return list.length ? list : null;
}

/**
 * The first `board:` hint of a source, or null (also null when it does not parse).
 * @param {string} source
 * @returns {Board | null}
 */
export function parseBoardHint(source) {
  const m = /^[ \t]*(?:%|\/\*|\*)?[ \t]*board:[ \t]*(.+?)[ \t]*(?:\*\/)?[ \t]*$/m.exec(source);
  if (!m) return null;
  const h = /^(\[.*\])\s+x\s+(\S+)\s+y\s+(\S+)(?:\s+blank\s+(\S+))?$/.exec(m[1]);
  if (!h) return null;
  const pattern = listItems(h[1]);
  const xs = range(h[2]);
  const ys = range(h[3]);
  if (!pattern || !xs || !ys || !pattern.includes('X') || !pattern.includes('Y')) return null;
  return { pattern, xs, ys, blank: h[4] ?? null, hint: m[1] };
}

/** @param {string} s */
const isVar = (s) => /^[A-Z_]/.test(s);

/**
 * Places facts with a hint: Map "x,y" -> label.
 * @param {string[]} facts
 * @param {Board} board
 */
function place(facts, board) {
  const cells = new Map();
  for (const f of facts) {
    const items = listItems(f);
    if (!items || items.length !== board.pattern.length) continue;
    let x = /** @type {string | null} */ (null);
    let y = /** @type {string | null} */ (null);
    let ok = true;
    /** @type {string[]} */
    const label = [];
    board.pattern.forEach((p, i) => {
      if (p === 'X') x = items[i];
      else if (p === 'Y') y = items[i];
      else if (isVar(p)) { if (p !== '_') label.push(items[i]); }
      else if (p !== items[i]) ok = false;
    });
    if (!ok || x === null || y === null || !board.xs.includes(x) || !board.ys.includes(y)) continue;
    const text = label.join(' ');
    if (text === board.blank) continue;
    cells.set(`${x},${y}`, text);
  }
  return cells;
}

// A board guessed from the facts (null: no grid found): at least 3 facts of the same length whose
// last two elements are coordinates.
/**
 * @param {string[]} facts
 * @returns {Board | null}
 */
export function detectBoard(facts) {
  /** @type {Map<string, string[][]>} */
  const groups = new Map();
  for (const f of facts) {
    const items = listItems(f);
    if (!items || items.length < 3) continue;
    const [a, b] = items.slice(-2);
    /** @param {string} s */
    const num = (s) => /^\d{1,2}$/.test(s);
    const kind = num(a) && num(b) ? 'nn' : /^[a-s]$/.test(a) && num(b) ? 'ln' : null;
    if (!kind) continue;
    const key = `${items.length}:${kind}`;
    if (!groups.has(key)) groups.set(key, []);
    /** @type {string[][]} */ (groups.get(key)).push(items);
  }
  /** @type {[string, string[][]] | null} */
  let best = null;
  for (const [key, rows] of groups) if (rows.length >= 3 && (!best || rows.length > best[1].length)) best = [key, rows];
  if (!best) return null;
  const [key, rows] = best;
  const n = rows[0].length;
  const pattern = rows[0].map((_, i) => (i === n - 2 ? 'X' : i === n - 1 ? 'Y' : `P${i}`));
  const ysNum = rows.map((r) => Number(r[n - 1]));
  const ys = range(`${Math.max(...ysNum)}..${Math.min(...ysNum, 1)}`);
  let xs;
  if (key.endsWith('nn')) {
    const xsNum = rows.map((r) => Number(r[n - 2]));
    xs = range(`${Math.min(...xsNum, 1)}..${Math.max(...xsNum)}`);
  } else {
    const last = rows.map((r) => r[n - 2]).sort().pop();
    xs = range(`a..${last}`);
  }
  if (!xs || !ys || xs.length * ys.length > 400) return null;
  return { pattern, xs, ys, blank: null, hint: null };
}

/** @type {Record<string, string>} */
const glyphs = {
  'white king': '♔', 'white queen': '♕', 'white rook': '♖', 'white bishop': '♗', 'white knight': '♘', 'white pawn': '♙',
  'black king': '♚', 'black queen': '♛', 'black rook': '♜', 'black bishop': '♝', 'black knight': '♞', 'black pawn': '♟',
};

/**
 * A <table class="board"> of the facts, or null when the board has no piece to show.
 * @param {string[]} facts
 * @param {Board} board
 */
export function renderBoard(facts, board) {
  const cells = place(facts, board);
  const table = document.createElement('table');
  table.className = 'board';
  const head = table.insertRow();
  head.insertCell().className = 'coord';
  for (const x of board.xs) { const c = head.insertCell(); c.className = 'coord'; c.textContent = x; }
  board.ys.forEach((y, yi) => {
    const row = table.insertRow();
    const rc = row.insertCell(); rc.className = 'coord'; rc.textContent = y;
    board.xs.forEach((x, xi) => {
      const c = row.insertCell();
      c.className = (xi + yi) % 2 ? 'dark' : 'light';
      c.dataset.x = x; c.dataset.y = y;
      const label = cells.get(`${x},${y}`);
      if (label !== undefined) {
        c.textContent = glyphs[label] ?? label;
        c.title = label;
        c.classList.add('piece');
      }
    });
  });
  return table;
}
