// The packaged extension (.vsix) in a real VS Code: code-server (VS Code in the browser, from the
// npm registry) driven in Debian's headless Chromium by playwright-core. Run by
// scripts/vscode-e2e.sh, which installs code-server (cached), installs the .vsix into a fresh
// extensions folder, lays out a workspace with test/e2e/workspace/*.sidl plus games/nim.sidl and
// tests/analysis/kuhn_leaky.sidl, and starts code-server on a free local port:
//   CODE_SERVER_URL=http://127.0.0.1:PORT/ WORKSPACE=/tmp/ws node test/e2e/code-server.test.mjs
// It types, hovers and clicks as a person would and reads what the editor shows (the DOM), and
// takes a screenshot after each check into $ARTIFACTS (default target/vscode-e2e-artifacts/).
// Prints `ok - NAME` per check and a closing `N passed, N failed`.
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const base = process.env.CODE_SERVER_URL || 'http://127.0.0.1:8080/';
const workspace = process.env.WORKSPACE;
assert.ok(workspace, 'WORKSPACE (the folder code-server opens) must be set');
const artifacts = process.env.ARTIFACTS || join(root, 'target', 'vscode-e2e-artifacts');
mkdirSync(artifacts, { recursive: true });
// The machine may be busy (CI runs everything on 2 cores): generous waits, polled.
const LONG = 90000;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));

let passed = 0;
let failed = 0;
let shots = 0;
const shot = (name) => page.screenshot({ path: join(artifacts, `${String(++shots).padStart(2, '0')}-${name}.png`) });
async function check(name, f) {
  try {
    await f();
    passed += 1;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`not ok - ${name}`);
    console.error(e);
    await shot('failure').catch(() => {});
  }
}

// --- what the editor shows ---------------------------------------------------------------------------
const activeEditor = '.editor-group-container.active .editor-instance .monaco-editor';
const nbsp = (s) => s.replace(/\u00a0/g, ' ');

/** The lines the active editor shows, top to bottom. */
async function lines() {
  const ls = await page.$$eval(`${activeEditor} .view-lines .view-line`, (els) =>
    els.map((e) => [parseFloat(e.style.top), e.textContent]).sort((a, b) => a[0] - b[0]).map((x) => x[1]));
  return ls.map(nbsp);
}

/** Waits until the active editor's lines satisfy `cond`. */
async function waitForLines(what, cond, ms = LONG) {
  const end = Date.now() + ms;
  let last = [];
  for (;;) {
    last = await lines().catch(() => []);
    if (cond(last)) return last;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the editor shows:\n${last.join('\n')}`);
    await page.waitForTimeout(200);
  }
}

/**
 * The screen rectangle of the `occurrence`-th (0-based, -1: last) `text` on the active editor's line
 * that contains `lineText`: where the browser drew those characters.
 */
async function textRect(lineText, text, occurrence = 0) {
  return page.evaluate(({ sel, lineText, text, occurrence }) => {
    const line = [...document.querySelectorAll(`${sel} .view-lines .view-line`)]
      .find((l) => l.textContent.replace(/\u00a0/g, ' ').includes(lineText));
    if (!line) return null;
    // the line's text nodes, and the offset of each in the line's text
    const nodes = [];
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let offset = 0;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      nodes.push([n, offset]);
      offset += n.data.length;
    }
    const all = line.textContent.replace(/\u00a0/g, ' ');
    const starts = [];
    for (let i = all.indexOf(text); i >= 0; i = all.indexOf(text, i + 1)) starts.push(i);
    const start = starts.at(occurrence);
    if (start === undefined) return null;
    const at = (i) => {
      const [n, o] = nodes.findLast(([, o]) => o <= i);
      return [n, i - o];
    };
    const range = document.createRange();
    range.setStart(...at(start));
    range.setEnd(...at(start + text.length - 1));
    const r0 = range.getBoundingClientRect();
    const last = document.createRange();
    last.setStart(...at(start + text.length - 1));
    last.setEnd(...at(start + text.length - 1).map((v, k) => (k === 1 ? v + 1 : v)));
    const r1 = last.getBoundingClientRect();
    return { left: r0.left, right: r1.right, top: r0.top, bottom: r0.bottom };
  }, { sel: activeEditor, lineText, text, occurrence });
}

/** The squiggles of the active editor: severity and screen rectangle. */
async function squiggles() {
  return page.$$eval(`${activeEditor} .view-overlays [class*="squiggly-"]`, (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { kind: /squiggly-(\w+)/.exec(e.className)[1], left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }));
}

/** "Ln 3, Col 36" from the status bar: the cursor of the active editor. */
async function cursor() {
  const t = await page.locator('.statusbar-item[id="status.editor.selection"]').innerText();
  const m = /Ln (\d+), Col (\d+)/.exec(t);
  return m ? [Number(m[1]), Number(m[2])] : t;
}

async function waitForCursor(line, col, ms = LONG) {
  const end = Date.now() + ms;
  for (;;) {
    const c = await cursor().catch(() => null);
    if (Array.isArray(c) && c[0] === line && c[1] === col) return;
    if (Date.now() > end) throw new Error(`the cursor is at ${JSON.stringify(c)}, not Ln ${line}, Col ${col}`);
    await page.waitForTimeout(200);
  }
}

/** The line of the active editor's cursor, from its line numbers. */
async function cursorLine() {
  const t = await page.locator(`${activeEditor} .line-numbers.active-line-number`).first().innerText();
  return Number(t.trim());
}

/** The label of the active editor tab. */
const activeTab = () => page.locator('.editor-group-container.active .tab.active').getAttribute('aria-label');

async function waitForActiveTab(re, ms = LONG) {
  const end = Date.now() + ms;
  for (;;) {
    const t = await activeTab().catch(() => null);
    if (t && re.test(t)) return t;
    if (Date.now() > end) throw new Error(`the active tab is ${JSON.stringify(t)}, not ${re}`);
    await page.waitForTimeout(200);
  }
}

// --- what a person does ------------------------------------------------------------------------------
/** Opens a workspace file with Quick Open (Ctrl+P) and waits for its editor. */
async function openFile(name) {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor({ timeout: LONG });
  await page.keyboard.type(name);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ timeout: LONG });
  await row.click();
  await waitForActiveTab(new RegExp(`^${name.replace('.', '\\.')}\\b`));
  await page.locator(`${activeEditor} .view-lines`).waitFor({ timeout: LONG });
}

/** Runs a command from the command palette (F1) by its title. */
async function runCommand(title) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor({ timeout: LONG });
  await page.keyboard.type(title);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: LONG });
  await row.click();
}

/**
 * Clicks the active editor's text `dy` pixels below its top, as a person does once the editor is
 * drawn there: waits until the point on the screen belongs to the editor (a split or a new tab may
 * still be laying out, a hover or toast may cover it). If it never does within 20 s, says what is
 * there and gives the editor the focus from the keyboard (View: Focus Active Editor Group), which
 * is what the click is for.
 */
async function clickInActiveEditor(dy) {
  const end = Date.now() + 20000;
  let seen = '';
  for (;;) {
    const box = await page.locator(`${activeEditor} .view-lines`).boundingBox().catch(() => null);
    const at = box && { x: box.x + 5, y: box.y + dy };
    const there = at && await page.evaluate(({ x, y, sel }) => {
      const e = document.elementFromPoint(x, y);
      const editor = document.querySelector(sel);
      return { inside: !!(e && editor && editor.contains(e)), what: e ? `${e.tagName.toLowerCase()}.${e.className}` : 'nothing (off the page)' };
    }, { ...at, sel: activeEditor });
    if (there && there.inside) {
      await page.mouse.click(at.x, at.y);
      return;
    }
    seen = box ? `(${Math.round(at.x)}, ${Math.round(at.y)}) is ${there.what}; the editor's text is at ${JSON.stringify(box)}` : 'the active editor has no text area';
    if (Date.now() > end) break;
    await page.waitForTimeout(250);
  }
  console.error(`# the active editor cannot be clicked: ${seen}; focusing it from the keyboard instead`);
  await shot('editor-not-clickable');
  await runCommand('View: Focus Active Editor Group');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: LONG });
}

async function waitForSquiggle(kind, ms = LONG) {
  const end = Date.now() + ms;
  for (;;) {
    const s = (await squiggles()).filter((q) => q.kind === kind);
    if (s.length) return s;
    if (Date.now() > end) throw new Error(`no ${kind} squiggle`);
    await page.waitForTimeout(200);
  }
}

// --- the checks --------------------------------------------------------------------------------------
await check('code-server opens the workspace', async () => {
  await page.goto(`${base}?folder=${encodeURIComponent(workspace)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'kuhn_leaky.sidl' }).waitFor({ timeout: LONG });
  await shot('workbench');
});

await check('a syntax error after non-ASCII text: the squiggle is under the right word, F8 lands on its column', async () => {
  await openFile('unicode.sidl');
  await page.locator('.statusbar-item', { hasText: /^SIDL$/ }).first().waitFor({ timeout: LONG });
  const line = "legal(['Zwölf 🎲 ü']) :- fact([x]) fact([y]).";
  await waitForLines('unicode.sidl', (ls) => ls.includes(line));
  const [error] = await waitForSquiggle('error');
  const word = await textRect(line, 'fact', 1);
  assert.ok(word, 'the second fact is drawn');
  assert.ok(error.top >= word.top - 2 && error.top < word.bottom + 4, `the squiggle is on the error's line: ${JSON.stringify({ error, word })}`);
  assert.ok(Math.abs(error.left - word.left) < 2, `the squiggle starts under the second "fact": ${error.left} vs ${word.left}`);
  assert.ok(Math.abs(error.right - word.right) < 2, `the squiggle ends under its last letter: ${error.right} vs ${word.right}`);
  await page.keyboard.press('F8'); // next problem: the cursor goes to its start, the message shows
  await page.locator('.marker-widget').waitFor({ timeout: LONG });
  assert.match(await page.locator('.marker-widget').innerText(), /found 'fact'/);
  // the status bar's "Col" counts characters (🎲 is one, though two UTF-16 code units)
  await waitForCursor(3, [...line.slice(0, line.indexOf('fact([y])'))].length + 1);
  await shot('squiggle-after-non-ascii');
  await page.keyboard.press('Escape');
});

await check('hovering a keyword shows its documentation', async () => {
  await openFile('nim.sidl');
  const line = 'legal([main]) :- fact([_, I]), I > 0.';
  await waitForLines('nim.sidl', (ls) => ls.includes(line));
  const r = await textRect(line, 'legal');
  const end = Date.now() + LONG;
  const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'legal(Switch)' });
  // the server may still be starting: move away and back until the hover comes
  for (let i = 0; !(await hover.isVisible()); i++) {
    if (Date.now() > end) throw new Error('no hover for legal');
    await page.mouse.move(r.left + 2 + (i % 2), (r.top + r.bottom) / 2);
    await page.waitForTimeout(1000);
  }
  const text = await hover.innerText();
  assert.match(text, /legal\(Switch\)/);
  assert.match(text, /Def\.1 L/);
  await shot('hover-keyword');
  await page.mouse.move(5, 500);
});

await check('a quick fix applied changes the text (E0013: `game (quickfix)` → `game(quickfix)`)', async () => {
  await openFile('quickfix.sidl');
  await waitForLines('quickfix.sidl', (ls) => ls.includes('game (quickfix).'));
  await waitForSquiggle('error');
  await page.keyboard.press('F8');
  await page.locator('.marker-widget').waitFor({ timeout: LONG });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+.');
  const fix = page.locator('.action-widget .monaco-list-row', { hasText: /remove the space/ }).first();
  await fix.waitFor({ timeout: LONG });
  await shot('quick-fix-menu');
  // choose it with the keyboard, as the menu's focus goes
  for (let i = 0; !/remove the space/.test(await page.locator('.action-widget .monaco-list-row.focused').innerText().catch(() => '')); i++) {
    if (i > 10) throw new Error('the fix cannot be focused in the quick-fix menu');
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await waitForLines('the fixed text', (ls) => ls.includes('game(quickfix).'));
  const end = Date.now() + LONG;
  while ((await squiggles()).some((s) => s.kind === 'error')) {
    if (Date.now() > end) throw new Error('the error squiggle stays after the fix');
    await page.waitForTimeout(200);
  }
  await shot('quick-fix-applied');
});

await check('typing `/* note */` key by key leaves exactly that (no auto-inserted `*/` left over)', async () => {
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/* note */', { delay: 50 });
  const ls = await waitForLines('the comment', (l) => l.some((x) => x.startsWith('/*')));
  assert.equal(ls.find((x) => x.startsWith('/*')), '/* note */');
  await shot('block-comment-typed');
  // leave the file as it was on disk
  await runCommand('File: Revert File');
  await waitForLines('the reverted file', (l) => l.includes('game (quickfix).'));
});

await check('the hidden-information check of a leaky game: a read-only report beside it, with clickable locations', async () => {
  await openFile('kuhn_leaky.sidl');
  await waitForLines('kuhn_leaky.sidl', (ls) => ls.some((l) => l.startsWith('game(kuhn_leaky)')));
  await runCommand('SIDL: Check hidden-information consistency');
  const warning = page.locator('.notification-toast', { hasText: 'hidden information leaks to player [p2]' });
  await warning.waitFor({ timeout: LONG });
  await waitForActiveTab(/kuhn_leaky\.sidl/);
  const reportTab = page.locator('.tab', { hasText: 'kuhn_leaky.sidl (hidden information)' });
  await reportTab.waitFor({ timeout: LONG });
  assert.equal(await reportTab.count(), 1);
  await reportTab.click();
  const ls = await waitForLines('the report', (l) => l.some((x) => x.startsWith('Result: ')));
  assert.equal(ls[0], 'Hidden-information check (Def.1 §11) of kuhn_leaky.sidl');
  assert.ok(ls.includes('Result: hidden information leaks to player [p2] through switch [p2].'), ls.join('\n'));
  const game = readFileSync(join(workspace, 'kuhn_leaky.sidl'), 'utf8').split('\n');
  const leakLine = game.findIndex((l) => l.startsWith('switch([p2], [p2, bet])')) + 1;
  const location = `kuhn_leaky.sidl:${leakLine}:1`;
  assert.ok(ls.includes(`    ${location}  switch([p2], [p2, bet])`), ls.join('\n'));
  await shot('report');

  // read-only: typing changes nothing
  // the tab's hover (its path and "Read-only") covers the first lines after the click on the tab:
  // move the pointer off it and click a few lines further down
  await page.mouse.move(5, 5);
  await clickInActiveEditor(80);
  await page.keyboard.type('x');
  await page.locator('.monaco-editor-overlaymessage', { hasText: /read-only/i }).waitFor({ timeout: LONG });
  assert.equal((await lines())[0], 'Hidden-information check (Def.1 §11) of kuhn_leaky.sidl');

  // the location is a link: Ctrl+click opens the game at the clause. Dismiss the read-only message
  // first, then hover with Ctrl held: the editor marks the link under the pointer as active
  await page.keyboard.press('Escape');
  const r = await textRect(location, location);
  const at = { x: r.left + 10, y: (r.top + r.bottom) / 2 };
  const active = page.locator(`${activeEditor} .detected-link-active`);
  for (let attempt = 0; ; attempt += 1) {
    await page.mouse.move(at.x, at.y);
    await page.keyboard.down('Control');
    await page.mouse.move(at.x + 2, at.y);
    if (await active.waitFor({ timeout: 5000 }).then(() => true, () => false)) break;
    await page.keyboard.up('Control');
    console.error(`# the link is not active under Ctrl+hover yet (attempt ${attempt + 1}); the element there: ${await page.evaluate(({ x, y }) => { const e = document.elementFromPoint(x, y); return e ? `${e.className}: ${e.textContent.slice(0, 40)}` : 'none'; }, at)}`);
    if (attempt === 10) throw new Error('the report location never became an active link under Ctrl+hover');
    await page.mouse.move(5, 5);
  }
  await shot('report-link-hovered');
  await page.mouse.click(at.x + 2, at.y);
  await page.keyboard.up('Control');
  // the game, in the editor group where it was (the report stays beside it), at the clause
  await waitForActiveTab(/^kuhn_leaky\.sidl\b(?!.*hidden information)/);
  await waitForCursor(leakLine, 1);
  assert.equal(await cursorLine(), leakLine);
  assert.equal(await page.locator('.editor-group-container').count(), 2, 'two editor groups: the game and its report');
  assert.equal(await page.locator('.editor-group-container.active .tab', { hasText: 'hidden information' }).count(), 0, 'the game came up in its own group');
  await shot('report-link-followed');
});

await check('running the check again replaces the report in its view (still one tab)', async () => {
  await runCommand('SIDL: Check hidden-information consistency');
  await page.locator('.notification-toast', { hasText: 'hidden information leaks to player [p2]' }).first().waitFor({ timeout: LONG });
  await page.waitForTimeout(1000);
  assert.equal(await page.locator('.tab', { hasText: 'kuhn_leaky.sidl (hidden information)' }).count(), 1);
  assert.equal(await page.locator('.tab', { hasText: /Untitled/ }).count(), 0, 'no Untitled document');
  await shot('report-again');
});

await check('after a reload the report tab comes back with its text (alone: the extension starts for it)', async () => {
  // close the games (the group of the game, active since the link was followed): nothing .sidl is
  // left to start the extension after the reload, but the report
  await waitForActiveTab(/^kuhn_leaky\.sidl\b(?!.*hidden information)/);
  await runCommand('View: Close All Editors in Group');
  await page.waitForFunction(() => [...document.querySelectorAll('.tabs-container .tab')].map((t) => t.getAttribute('aria-label')).join('|').match(/^kuhn_leaky\.sidl \(hidden information\)/) && document.querySelectorAll('.tabs-container .tab').length === 1, null, { timeout: LONG });
  // as a person reloads VS Code (this saves the editors' state first, as page.reload() does not)
  await runCommand('Developer: Reload Window');
  await page.waitForTimeout(3000);
  await page.locator('.monaco-workbench').waitFor({ timeout: LONG });
  const tab = page.locator('.tab', { hasText: 'kuhn_leaky.sidl (hidden information)' });
  await tab.waitFor({ timeout: LONG });
  await tab.click();
  const ls = await waitForLines('the restored report', (l) => l.some((x) => x.startsWith('Result: ')));
  assert.ok(ls.includes('Result: hidden information leaks to player [p2] through switch [p2].'), ls.join('\n'));
  assert.equal(await page.locator('.tab', { hasText: /Untitled/ }).count(), 0, 'no Untitled document');
  assert.equal(await page.locator('.tabs-container .tab').count(), 1, 'the report alone');
  await shot('report-after-reload');
});

await check('no uncaught errors in the page', async () => {
  assert.deepEqual(pageErrors.filter((e) => !/ResizeObserver/.test(e)), []);
});

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
