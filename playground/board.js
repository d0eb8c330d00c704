// @ts-check
// Draws a game's layout (docs/reference.md "Layouts"): the engine evaluates the game's `layout/1`
// and `piece/2` rules (or its deprecated `% board:` hint) for one viewer, from that viewer's view
// only, and returns plain data (`SidlGame.layout`); this module only turns it into DOM. Shared by
// the playground, the <sidl-game> element and the participant page of `sidl serve`. Every text
// is inserted as text, never as markup; an image path is relative to the game file (`base`).

/** @typedef {import('./pkg/sidl_wasm.js').Layout} Layout */
/** @typedef {import('./pkg/sidl_wasm.js').LayoutPiece} LayoutPiece */

/**
 * An element with a class and text.
 * @param {string} tag
 * @param {string} cls
 * @param {string} [text]
 */
function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * Fills `c` with a piece: its image (relative to `base`; without a base its text) or its text; its
 * title on hover.
 * @param {HTMLElement} c
 * @param {LayoutPiece} p
 * @param {URL | string | null} base
 */
function drawPiece(c, p, base) {
  c.title = p.title;
  c.classList.add('piece');
  if (p.image && base !== null) {
    const img = document.createElement('img');
    img.src = new URL(p.image, base).href;
    img.alt = p.text;
    c.append(img);
  } else {
    c.textContent = p.text;
    // a symbol or a short word is drawn large
    if ([...p.text].length <= 2) c.classList.add('symbol');
  }
}

/**
 * The elements of a layout: a <table class="board"> per board (cells `data-x`/`data-y` with the
 * coordinates' texts), a <table class="layout-table"> with a caption per table, a
 * <div class="hand"> per hand. Empty for a game without a layout.
 * @param {Layout} layout
 * @param {URL | string | null} base the game file's URL (images are relative to it; `null`: images
 *   are drawn as their text, where no file next to the game is served)
 * @returns {HTMLElement[]}
 */
export function renderLayout(layout, base) {
  /** @type {HTMLElement[]} */
  const out = [];
  for (const part of layout.parts) {
    if (part.kind === 'board') {
      const table = /** @type {HTMLTableElement} */ (node('table', 'board'));
      const head = table.insertRow();
      head.insertCell().className = 'coord';
      for (const x of part.columns) { const c = head.insertCell(); c.className = 'coord'; c.textContent = x; }
      part.rows.forEach((y, yi) => {
        const row = table.insertRow();
        const rc = row.insertCell(); rc.className = 'coord'; rc.textContent = y;
        part.columns.forEach((x, xi) => {
          const c = row.insertCell();
          c.className = (xi + yi) % 2 ? 'dark' : 'light';
          c.dataset.x = x; c.dataset.y = y;
          const p = part.squares[yi]?.[xi];
          if (p) drawPiece(c, p, base);
        });
      });
      out.push(table);
    } else if (part.kind === 'table') {
      const table = /** @type {HTMLTableElement} */ (node('table', 'layout-table'));
      table.createCaption().textContent = part.title;
      for (const r of part.rows) {
        const row = table.insertRow();
        for (const cell of r) row.insertCell().textContent = cell;
      }
      if (!part.rows.length) table.insertRow().insertCell().textContent = 'none';
      out.push(table);
    } else {
      const hand = node('div', 'hand');
      hand.append(node('span', 'hand-player', `hand of ${part.player}:`));
      for (const it of part.items) {
        const s = node('span', 'hand-item');
        drawPiece(s, it, base);
        hand.append(s);
      }
      if (!part.items.length) hand.append(node('span', 'none', 'empty'));
      out.push(hand);
    }
  }
  return out;
}
