// <sidl-game>: a SIDL3.0 game to play in any static page, no build step.
//   <script type="module" src="https://…/playground/embed/sidl-game.js"></script>
//   <sidl-game src="nim.sidl" seats="human,random" seed="1"></sidl-game>
// Attributes: src (the game's URL, relative to the page), seats (comma list per player in player
// order: human or random; default human), seed (default 1), view (a player, or "designer"; default
// the first human seat). The engine (../engine.js, ../worker.js, ../pkg/) is found relative to this
// module's own URL, so the playground directory can be served from anywhere. A human's move is
// submitted and, once every human seat to move has chosen, the chronon runs (random seats move).
// The element sets data-state="ready" after each update (tests wait on it). See docs/playground.md.
import { Engine } from '../engine.js';

const css = `
:host { display: block; font: 14px/1.4 system-ui, sans-serif; color: #1d2330; border: 1px solid #d8dbe3;
  border-radius: 6px; padding: .6em .8em; max-width: 40em; background: #fff; }
.top { display: flex; gap: .6em; align-items: baseline; flex-wrap: wrap; }
.title { font-weight: 600; }
.status { margin-left: auto; color: #4a5268; font-size: .9em; }
.status.error { color: #b3261e; }
h3 { font-size: .9em; margin: .6em 0 .2em; color: #4a5268; }
ul { margin: 0; padding-left: 1.2em; font-family: ui-monospace, monospace; font-size: 13px; }
.moves { display: flex; gap: .3em; flex-wrap: wrap; align-items: center; }
button { font: inherit; padding: .15em .6em; border: 1px solid #8a93ab; border-radius: 4px; background: #eef0f6; cursor: pointer; }
button.action { font-family: ui-monospace, monospace; background: #e3f2e6; border-color: #6aa77a; }
button:disabled { opacity: .45; cursor: default; }
table { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 13px; }
td { padding: 0 .8em 0 0; }
.none { color: #888; font-family: inherit; }
.over { color: #0b6b2e; font-weight: 600; }
li.at { list-style: none; margin-left: -1.2em; font-family: inherit; font-weight: 600; }
`;

const h = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
};

class SidlGameElement extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.append(h('style', {}, css));
    this.ui = {
      title: h('span', { class: 'title' }, 'sidl game'),
      chronon: h('span', { class: 'chronon' }),
      status: h('span', { class: 'status' }, 'loading…'),
      view: h('select', { 'aria-label': 'view as' }),
      moves: h('div', { class: 'moves' }),
      step: h('button', { class: 'step' }, 'Step'),
      restart: h('button', { class: 'restart' }, 'Restart'),
      facts: h('ul', { class: 'facts' }),
      accounts: h('table', { class: 'accounts' }),
      events: h('ul', { class: 'events' }),
    };
    const u = this.ui;
    root.append(
      h('div', { class: 'top' }, u.title, u.chronon, u.status),
      h('div', { class: 'top' }, h('label', {}, 'view as ', u.view), u.step, u.restart),
      h('h3', {}, 'Moves'), u.moves,
      h('h3', {}, 'Facts'), u.facts,
      h('h3', {}, 'Accounts'), u.accounts,
      h('h3', {}, 'Last chronons'), u.events,
    );
    u.view.addEventListener('change', () => this.act(() => this.render()));
    u.step.addEventListener('click', () => this.act(() => this.step()));
    u.restart.addEventListener('click', () => this.act(() => this.start()));
    this.engine = new Engine({ onRestart: (m) => this.setStatus(m, true) });
    this.act(() => this.load());
  }

  disconnectedCallback() {
    if (this.engine) this.engine.worker.terminate();
  }

  setStatus(text, error = false) {
    this.ui.status.textContent = text;
    this.ui.status.classList.toggle('error', error);
  }

  async act(f) {
    this.dataset.state = 'busy';
    try {
      await f();
    } catch (e) {
      this.setStatus(String(e && e.message ? e.message : e), true);
    }
    this.dataset.state = 'ready';
  }

  async load() {
    const src = this.getAttribute('src');
    if (!src) throw new Error('<sidl-game> needs a src attribute');
    const r = await fetch(new URL(src, document.baseURI));
    if (!r.ok) throw new Error(`${src}: ${r.status}`);
    const text = await r.text();
    this.players = await this.engine.load(text);
    const kinds = (this.getAttribute('seats') || '').split(',').map((s) => s.trim());
    this.seats = new Map(this.players.map((p, i) => [p, kinds[i] === 'random' ? 'random' : 'human']));
    const m = /game\((\w+)\)/.exec(text);
    this.ui.title.textContent = m ? m[1] : src;
    const v = this.ui.view;
    v.replaceChildren(h('option', { value: '' }, 'designer'), ...this.players.map((p) => h('option', { value: p }, p)));
    const want = this.getAttribute('view');
    const firstHuman = this.players.find((p) => this.seats.get(p) === 'human');
    v.value = want === 'designer' ? '' : want && this.players.includes(want) ? want : firstHuman || '';
    await this.start();
  }

  async start() {
    const seed = Number(this.getAttribute('seed') || 1);
    await this.engine.call('start', Number.isFinite(seed) && seed >= 0 ? Math.floor(seed) : 1, false);
    this.last = null;
    this.setStatus('ready');
    await this.render();
  }

  // The human seats the view may act for: the viewed one, or all for the designer.
  actingHumans() {
    const v = this.ui.view.value;
    return this.players.filter((p) => this.seats.get(p) === 'human' && (v === '' || v === p));
  }

  async submit(p, sw, a) {
    const r = await this.engine.call('submit', p, sw, a);
    if (!r.ok) { this.setStatus(`rejected: ${r.reason}`, true); return; }
    this.setStatus(`${p}: ${a}`);
    // every human seat to move has chosen: run the chronon
    const pending = new Set((await this.engine.call('pending')).map(([q, s]) => `${q} ${s}`));
    let waiting = false;
    for (const q of this.players) {
      if (this.seats.get(q) !== 'human') continue;
      for (const s of await this.engine.call('switches', q)) if (!s.unlimited && !pending.has(`${q} ${s.switch}`)) waiting = true;
    }
    if (waiting) await this.render(); else await this.step();
  }

  // One chronon (random seats move), then more while no human seat has a switch (at most 200).
  async step() {
    const random = this.players.filter((p) => this.seats.get(p) === 'random');
    const humans = this.players.filter((p) => this.seats.get(p) === 'human');
    this.last = [];
    for (let i = 0; i < 200; i++) {
      if (await this.engine.call('isTerminal')) break;
      const ran = random.length ? await this.engine.call('randomMoves', random) : [];
      if (Array.isArray(ran) && ran.length) this.last.push(...ran); // interrupt mode
      else this.last.push(await this.engine.call('chronon'));
      this.engine.snapshot = await this.engine.call('snapshot');
      let humanToMove = false;
      for (const p of humans) if ((await this.engine.call('switches', p)).length) humanToMove = true;
      if (humanToMove || !humans.length) break;
    }
    await this.render();
  }

  async render() {
    const u = this.ui;
    const v = u.view.value;
    const terminal = await this.engine.call('isTerminal');
    u.chronon.replaceChildren(`chronon ${await this.engine.call('chrononNumber')}`,
      terminal ? h('span', { class: 'over' }, ' — game over') : '');
    u.moves.replaceChildren();
    for (const p of this.actingHumans()) {
      for (const sw of await this.engine.call('switches', p)) {
        if (sw.unlimited) continue;
        u.moves.append(h('span', { class: 'none' }, `${p}:`),
          ...sw.actions.map((a) => h('button', { class: 'action', 'data-action': a, onclick: () => this.act(() => this.submit(p, sw.switch, a)) }, a)));
      }
    }
    if (!u.moves.childElementCount) u.moves.append(h('span', { class: 'none' }, terminal ? 'the game is over' : 'nothing to choose: Step runs the next chronon'));
    u.step.disabled = terminal;
    const facts = await this.engine.call('view', v === '' ? null : v);
    u.facts.replaceChildren(...facts.map((f) => h('li', {}, f)));
    const acc = await this.engine.call('accounts');
    u.accounts.replaceChildren(...acc.map((a) => h('tr', {}, h('td', {}, a.player), h('td', {}, a.amount))));
    const who = v === '' ? -1 : this.players.indexOf(v);
    u.events.replaceChildren();
    for (const c of this.last || []) {
      u.events.append(h('li', { class: 'at' }, `chronon ${c.chronon}`),
        ...(who < 0 ? c.events : c.playerEvents[who] || []).map((e) => h('li', {}, e.text)));
    }
    if (!u.events.childElementCount) u.events.append(h('li', { class: 'none' }, 'not started'));
  }
}

customElements.define('sidl-game', SidlGameElement);
