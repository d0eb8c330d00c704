// @ts-check
// <sidl-game>: a SIDL3.0 game to play in any static page, no build step.
//   <script type="module" src="https://…/playground/embed/sidl-game.js"></script>
//   <sidl-game src="nim.sidl" seats="human,random" seed="1"></sidl-game>
// Attributes: src (the game's URL, relative to the page), seats (comma list per player in player
// order: human, random, minimax:DEPTH or mcts:ITERATIONS (optionally :relative or :paranoid); default human; anything else is an error
// shown in the element), seed (default 1), view (a player, or "designer"; default the first human
// seat), lang (the language of the game's labels, e.g. de; default the game's default), labels
// ("raw": the raw terms instead of the game's labels). With `link` (and `server`) instead of `src`
// the element plays a seat of a session served by `sidl serve` (embed/served.js). The engine (../engine.js, ../worker.js, ../pkg/) and the moves shared with the playground
// (../play.js) are found relative to this module's own URL, so the playground directory can be served
// from anywhere. The source is checked first (the diagnostics of `sidl check`, shown in the element;
// a source with an error is not played). A human's move is submitted (a button per action, the typed
// form of an unlimited switch) and, once every human seat to move has chosen, the chronon runs (the
// random and AI seats move). One action at a time: a click while the engine works waits its turn.
// The element sets data-state="busy" while it works and "ready" after (tests wait on it).
// See docs/playground.md.
import { Engine } from '../engine.js';
import { actionQueue, make as h, parseSeat, seatMoves, templateForm, thinking } from '../play.js';
import { renderLayout } from '../board.js';
import { labelText } from '../labeltext.js';

/** @typedef {import('../pkg/sidl_wasm.js').Diagnostic} Diagnostic */
/** @typedef {import('../pkg/sidl_wasm.js').Chronon} Chronon */
/**
 * The element's parts (in its shadow root).
 * @typedef {{
 *   title: HTMLSpanElement, chronon: HTMLSpanElement, status: HTMLSpanElement, error: HTMLDivElement,
 *   diagnostics: HTMLDetailsElement, view: HTMLSelectElement, moves: HTMLDivElement,
 *   step: HTMLButtonElement, restart: HTMLButtonElement, facts: HTMLUListElement,
 *   accounts: HTMLTableElement, events: HTMLUListElement, play: HTMLDivElement, layout: HTMLDivElement,
 *   about: HTMLDivElement, result: HTMLUListElement,
 * }} Parts
 */

const css = `
:host { display: block; font: 14px/1.4 system-ui, sans-serif; color: #1d2330; border: 1px solid #d8dbe3;
  border-radius: 6px; padding: .6em .8em; max-width: 40em; background: #fff; overflow-wrap: anywhere; }
.top { display: flex; gap: .6em; align-items: baseline; flex-wrap: wrap; }
.title { font-weight: 600; }
.status { margin-left: auto; color: #4a5268; font-size: .9em; }
.status.error { color: #b3261e; }
.error-box { margin: .4em 0; padding: .4em .6em; border: 1px solid #e0a4a0; background: #fdecea; border-radius: 4px; color: #b3261e; }
.error-box[hidden] { display: none; }
h3 { font-size: .9em; margin: .6em 0 .2em; color: #4a5268; }
ul { margin: 0; padding-left: 1.2em; font-family: ui-monospace, monospace; font-size: 13px; }
.moves { display: flex; gap: .3em; flex-wrap: wrap; align-items: center; }
.seat-note { color: #4a5268; font-size: .9em; }
button { font: inherit; padding: .15em .6em; border: 1px solid #8a93ab; border-radius: 4px; background: #eef0f6; cursor: pointer; }
button.action { font-family: ui-monospace, monospace; background: #e3f2e6; border-color: #6aa77a; }
button:disabled { opacity: .45; cursor: default; }
form.template { display: inline-flex; gap: .3em; align-items: center; flex-wrap: wrap; margin-right: .6em; }
.term { font-family: ui-monospace, monospace; }
input.slot { width: 9em; max-width: 100%; font: 13px ui-monospace, monospace; }
.form-error { color: #b3261e; font-size: .9em; }
table { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 13px; }
td { padding: 0 .8em 0 0; }
.none { color: #888; font-family: inherit; }
.over { color: #0b6b2e; font-weight: 600; }
li.at { list-style: none; margin-left: -1.2em; font-family: inherit; font-weight: 600; }
details.diagnostics[hidden], .play[hidden], .about[hidden], .result[hidden] { display: none; }
table.board td { width: 2.1em; height: 2.1em; text-align: center; vertical-align: middle; padding: 0; font: 1.3em system-ui, sans-serif; }
table.board td.light { background: #f0d9b5; }
table.board td.dark { background: #b58863; }
table.board td.coord { background: none; font-size: .8em; color: #6b7280; width: 1.4em; }
table.board td.piece:not(.symbol) { font-size: .7em; }
table.board td img, .hand img { width: 1.8em; height: 1.8em; object-fit: contain; display: block; margin: auto; }
table.layout-table { margin: .4em 0; }
table.layout-table caption { text-align: left; font: 600 .9em system-ui, sans-serif; }
table.layout-table td { border: 1px solid #d8dbe3; padding: 0 .5em; }
.hand { margin: .4em 0; display: flex; flex-wrap: wrap; gap: .4em; align-items: center; }
.hand .hand-item { border: 1px solid #8a93ab; border-radius: 4px; padding: .1em .5em; }
.about p { margin: .2em 0; }
.result { font-family: inherit; font-weight: 600; }
details.diagnostics summary { cursor: pointer; color: #4a5268; font-size: .9em; }
.diagnostics li.error { color: #b3261e; }
.diagnostics li.warning { color: #8a5a00; }
.diagnostics .label { color: #4a5268; margin-left: 1em; }
.diagnostics .help { color: #4a5268; margin-left: 1em; font-family: system-ui, sans-serif; }
`;


class SidlGameElement extends HTMLElement {
  // set when the element is first connected (connectedCallback), or when its game is loaded (the
  // type check does not ask for them in a constructor: tsconfig.json)
  /** @type {Parts} */ ui;
  /** @type {import('../play.js').Run} */ act;
  /** @type {Engine} */ engine;
  /** @type {import('../engine.js').Call} */ call;
  loaded = false;
  /** @type {URL | string} the game file's URL: images of its layout are relative to it */ gameUrl = document.baseURI;
  /** @type {string[]} */ players;
  /** @type {Map<string, string>} player -> seat */ seats;
  /** @type {number} */ seed;
  /** @type {Chronon[] | null} the chronons of the last step */ last;

  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.append(h('style', {}, css));
    // a seat of a session that a `sidl serve` runs: the server owns the game (embed/served.js)
    if (this.hasAttribute('link')) {
      import('./served.js').then(async (m) => {
        root.append(h('style', {}, m.css));
        await m.playServed(this, root);
      }).catch((e) => { this.dataset.conn = 'refused'; root.append(h('div', { class: 'error-box', role: 'alert' }, String(e && e.message ? e.message : e))); });
      return;
    }
    this.ui = /** @type {Parts} */ ({
      title: h('span', { class: 'title' }, 'sidl game'),
      chronon: h('span', { class: 'chronon' }),
      status: h('span', { class: 'status', role: 'status' }, 'loading…'),
      error: h('div', { class: 'error-box', role: 'alert', hidden: '' }),
      diagnostics: h('details', { class: 'diagnostics', hidden: '' }),
      view: h('select', { 'aria-label': 'view as' }),
      moves: h('div', { class: 'moves' }),
      step: h('button', { class: 'step' }, 'Step'),
      restart: h('button', { class: 'restart' }, 'Restart'),
      facts: h('ul', { class: 'facts' }),
      accounts: h('table', { class: 'accounts' }),
      events: h('ul', { class: 'events' }),
      layout: h('div', { class: 'layout' }),
      about: h('div', { class: 'about', hidden: '' }),
      result: h('ul', { class: 'result', hidden: '' }),
    });
    const u = this.ui;
    // the game itself, shown once a game is loaded and its seats are known
    u.play = h('div', { class: 'play', hidden: '' },
      u.about,
      h('div', { class: 'top' }, h('label', {}, 'view as ', u.view), u.step, u.restart),
      u.result,
      h('h3', {}, 'Moves'), u.moves, u.layout,
      h('h3', {}, 'Facts'), u.facts,
      h('h3', {}, 'Accounts'), u.accounts,
      h('h3', {}, 'Last chronons'), u.events);
    root.append(h('div', { class: 'top' }, u.title, u.chronon, u.status), u.error, u.diagnostics, u.play);
    this.act = actionQueue({
      onBusy: (busy) => { this.dataset.state = busy ? 'busy' : 'ready'; },
      onError: (e) => this.showError(e),
    });
    u.view.addEventListener('change', () => this.act(() => this.render()));
    u.step.addEventListener('click', () => this.act(() => this.step()));
    u.restart.addEventListener('click', () => this.act(() => this.start()));
    this.engine = new Engine({ onRestart: (m) => this.showError(m) });
    this.call = (m, ...a) => this.engine.call(m, ...a);
    this.loaded = false;
    this.act(() => this.load());
  }

  disconnectedCallback() {
    if (this.engine && this.engine.worker) this.engine.worker.terminate();
  }

  /** @param {string} text */
  setStatus(text, error = false) {
    this.ui.status.textContent = text;
    this.ui.status.classList.toggle('error', error);
  }

  /**
   * An error, visible: in the status line and in the element's error box.
   * @param {unknown} e
   */
  showError(e) {
    const err = /** @type {{ message?: string } | null | undefined} */ (e);
    const message = String(err && err.message ? err.message : e);
    this.setStatus(error(message), true);
    this.ui.error.textContent = message;
    this.ui.error.hidden = false;
  }

  // The diagnostics of `sidl check` (SidlGame.check): each with its labels and help; open when there
  // is an error, folded for warnings only, absent when there is none.
  /** @param {Diagnostic[]} diags */
  showDiagnostics(diags) {
    const d = this.ui.diagnostics;
    const errors = diags.filter((x) => x.severity === 'error').length;
    d.replaceChildren(h('summary', {}, `Diagnostics: ${errors} error${errors === 1 ? '' : 's'}, ${diags.length - errors} other`),
      h('ul', {}, ...diags.map((x) => h('li', { class: x.severity, 'data-code': x.code },
        h('div', {}, `line ${x.line}:${x.column}: ${x.severity}[${x.code}]: ${x.message}`),
        ...(x.labels || []).map((l) => h('div', { class: 'label' }, `line ${l.line}:${l.column}: ${l.message}`)),
        ...(x.help ? [h('div', { class: 'help' }, `help: ${x.help}`)] : [])))));
    d.hidden = diags.length === 0;
    d.open = errors > 0;
    return errors;
  }

  async load() {
    const src = this.getAttribute('src');
    if (!src) throw new Error('<sidl-game> needs a src attribute');
    this.gameUrl = new URL(src, document.baseURI);
    const r = await fetch(this.gameUrl);
    if (!r.ok) throw new Error(`${src}: ${r.status}`);
    const text = await r.text();
    const m = /game\((\w+)\)/.exec(text);
    this.ui.title.textContent = m ? m[1] : src;
    const errors = this.showDiagnostics(await this.engine.check(text));
    if (errors) throw new Error(`${src} has ${errors} error${errors === 1 ? '' : 's'} (see its diagnostics): not played`);
    const players = await this.engine.load(text);
    // every seat written must be one this element plays
    const written = (this.getAttribute('seats') || '').split(',').map((s) => s.trim());
    if (written.length === 1 && written[0] === '') written.length = 0;
    if (written.length > players.length) {
      throw new Error(`seats="${this.getAttribute('seats')}" names ${written.length} seats; the game has ${players.length} players (${players.join(', ')})`);
    }
    const seats = new Map();
    players.forEach((p, i) => {
      try {
        seats.set(p, parseSeat(written[i]));
      } catch (e) {
        throw new Error(`seat ${i + 1} (${p}): ${/** @type {Error} */ (e).message}`);
      }
    });
    this.players = players;
    this.seats = seats;
    this.loaded = true;
    this.ui.play.hidden = false;
    const v = this.ui.view;
    v.replaceChildren(h('option', { value: '' }, 'designer'), ...players.map((p) => h('option', { value: p }, p)));
    const want = this.getAttribute('view');
    const firstHuman = players.find((p) => seats.get(p) === 'human');
    v.value = want === 'designer' ? '' : want && players.includes(want) ? want : firstHuman || '';
    await this.start();
  }

  async start() {
    if (!this.loaded) return;
    const seed = Number(this.getAttribute('seed') || 1);
    this.seed = Number.isFinite(seed) && seed >= 0 ? Math.floor(seed) : 1;
    await this.call('start', this.seed, false);
    this.engine.snapshot = await this.call('snapshot');
    this.last = null;
    this.ui.error.hidden = true;
    this.setStatus('ready');
    await this.render();
  }

  // The human seats.
  humans() {
    return this.players.filter((p) => this.seats.get(p) === 'human');
  }

  // The human seats the view may act for: the viewed one, or all for the designer.
  actingHumans() {
    const v = this.ui.view.value;
    return this.players.filter((p) => this.seats.get(p) === 'human' && (v === '' || v === p));
  }

  /**
   * @param {string} p a player
   * @param {string} sw a switch
   * @param {string} a an action
   */
  async submit(p, sw, a) {
    const r = await this.call('submit', p, sw, a);
    if (!r.ok) { this.setStatus(`rejected: ${r.reason}`, true); await this.render(); return; }
    this.setStatus(`${p}: ${a}`);
    this.engine.snapshot = await this.call('snapshot');
    // every human seat to move has chosen (a finite or an unlimited switch): run the chronon
    const pending = new Set((await this.call('pending')).map(([q, s]) => `${q} ${s}`));
    const humans = this.humans();
    const open = (await this.call('switchesAndViews', humans, [])).switches;
    const waiting = humans.some((q, i) => open[i].some((s) => !pending.has(`${q} ${s.switch}`)));
    if (waiting) await this.render(); else await this.step();
  }

  // One chronon (the random and AI seats move first), then more while no human seat has a switch (at
  // most 200).
  async step() {
    if (!this.loaded) return;
    const humans = this.humans();
    this.last = [];
    for (let i = 0; i < 200; i++) {
      if (await this.call('isTerminal')) break;
      const n = await this.call('chrononNumber');
      // an AI seat's search can take seconds: the status line says who is thinking, for how long
      const stop = thinking([...this.seats], (p) => (this.playerName ? this.playerName(p) : p), (t) => this.setStatus(t));
      const ran = await seatMoves(this.call, this.seats, this.seed + n).finally(() => { if (stop) stop(); });
      if (ran.length) this.last.push(...ran); // interrupt mode
      else this.last.push(await this.call('chronon'));
      this.engine.snapshot = await this.call('snapshot');
      // every human seat's switches in one call
      const humanToMove = (await this.call('switchesAndViews', humans, [])).switches.some((s) => s.length > 0);
      if (humanToMove || !humans.length) break;
    }
    this.ui.error.hidden = true;
    this.setStatus('ready');
    await this.render();
  }

  async render() {
    if (!this.loaded) return;
    const u = this.ui;
    const v = u.view.value;
    const viewer = v === '' ? null : v;
    // the game's labels for this view (from what it may see only), in the element's language, the
    // acting seats' switches, the view, the layout and the accounts: one message (worker.js `frame`)
    const raw = this.getAttribute('labels') === 'raw';
    const acting = this.actingHumans();
    const frame = await this.engine.frame(viewer, acting, this.getAttribute('lang') || null, raw, 0);
    const terminal = frame.terminal;
    const l = raw ? null : frame.labels;
    const t = labelText(l);
    this.playerName = t.player;
    const about = l && t.on ? [
      ...(l.description ? [h('p', { class: 'description' }, l.description)] : []),
      ...l.roles.map((r) => h('p', { class: 'role' }, h('strong', {}, `${t.player(r.player)}: `), r.text)),
    ] : [];
    u.about.replaceChildren(...about);
    u.about.hidden = about.length === 0;
    const result = l && t.on ? l.result : [];
    u.result.replaceChildren(...result.map((r) => h('li', {}, r)));
    u.result.hidden = result.length === 0;
    u.chronon.replaceChildren(`chronon ${await this.call('chrononNumber')}`,
      terminal ? h('span', { class: 'over' }, ' — game over') : '');
    u.moves.replaceChildren();
    for (const [p, switches] of frame.switches) {
      for (const sw of switches) {
        u.moves.append(h('span', { class: 'none', title: `${p} at ${sw.switch}` }, `${t.player(p)} at ${t.switch(sw.switch)}:`));
        if (!sw.unlimited) {
          u.moves.append(...sw.actions.map((a) => h('button', {
            class: 'action', 'data-player': p, 'data-switch': sw.switch, 'data-action': a,
            onclick: () => this.act(() => this.submit(p, sw.switch, a)), title: a,
          }, t.action(sw.switch, a))));
          continue;
        }
        // an unlimited switch: the playground's typed form, one per template (play.js)
        sw.actions.forEach((template, i) => {
          u.moves.append(templateForm(this.call, template, (sw.slots && sw.slots[i]) || [],
            (action) => this.submit(p, sw.switch, action), this.act));
        });
      }
    }
    if (v !== '' && this.seats.get(v) !== 'human') u.moves.append(h('span', { class: 'seat-note' }, `${t.player(v)} is played by: ${this.seats.get(v)}`));
    if (!u.moves.childElementCount) u.moves.append(h('span', { class: 'none' }, terminal ? 'the game is over' : 'nothing to choose: Step runs the next chronon'));
    u.step.disabled = terminal;
    const facts = frame.view;
    u.facts.replaceChildren(...facts.map((f) => h('li', { title: t.fact(f) === f ? null : f }, t.fact(f))));
    // the game's layout (docs/reference.md "Layouts"), from the same view; images next to src
    // (in the element's language; raw terms with labels="raw")
    u.layout.replaceChildren(...renderLayout(frame.layout, this.gameUrl));
    const acc = frame.accounts;
    u.accounts.replaceChildren(...acc.map((a) => h('tr', {}, h('td', { title: a.player }, t.account(a.player) ?? t.player(a.player)), h('td', {}, a.amount))));
    const who = v === '' ? -1 : this.players.indexOf(v);
    u.events.replaceChildren();
    for (const c of this.last || []) {
      const events = who < 0 ? c.events : c.playerEvents[who] || [];
      const texts = t.events(c.chronon, events.length);
      u.events.append(h('li', { class: 'at' }, `chronon ${c.chronon}`),
        ...events.map((e, j) => h('li', {}, texts ? texts[j] : e.text)));
    }
    if (!u.events.childElementCount) u.events.append(h('li', { class: 'none' }, 'not started'));
  }
}

/**
 * A status line's short form of an error message (its first line).
 * @param {string} message
 */
const error = (message) => `error: ${message.split('\n')[0]}`;

customElements.define('sidl-game', SidlGameElement);
