// @ts-check
// <sidl-game server="https://host" link="…">: the element plays one seat of a session that a
// `sidl serve` runs (docs/serve.md, "Embedding a seat"; issue 16 point 9). The server owns the
// game: the element loads no engine, keeps no game state of its own and renders only what the
// seat's WebSocket sent (the seat's view, layout and labels as the server computed them for this
// player, its legal switches, its own pending submissions, who is still to act, the deadline, its
// own history and at the end its payoff). A click sends a submission and disables the actions
// until the server answers (no optimistic moves); a template's values go to the server, which fills
// and checks them (the engine's rule). After a dropped connection it reconnects by itself and gets
// the seat's whole history again.
//
// Attributes: `link` (the seat's link `https://host/p/TOKEN`, or its TOKEN), `server` (the
// server's address; default: the link's). The element sets `data-conn` (`connecting`,
// `connected`, `reconnecting`, `refused`) and `data-status` (the session's status) for pages and
// tests. The seat is joined with a "Join" button, as on the server's welcome page (a link opened
// by a scanner starts nothing). The server must allow the page's origin (`sidl serve
// --allow-origin ORIGIN`); otherwise the element shows the server's refusal.
import { make as h, templateForm } from '../play.js';
import { renderLayout } from '../board.js';

/**
 * What a `state` frame holds (docs/serve.md, "WebSocket protocol").
 * @typedef {{ switch: string, unlimited: boolean, actions: string[], slots: import('../play.js').Slot[][] }} ServedSwitch
 * @typedef {{ players?: Record<string, string>, facts?: Record<string, string>, switches?: Record<string, string>,
 *   actions?: Record<string, string>, accounts?: Record<string, string>, description?: string | null,
 *   role?: string | null, result?: string[] }} ServedLabels
 * @typedef {{ chronon: number, status: string, message?: string | null, deadline_ms: number | null, now_ms: number,
 *   view: string[], layout: any, switches: ServedSwitch[], pending: [string, string][], waiting: string[],
 *   account: string, labels: ServedLabels | null }} ServedState
 * @typedef {{ kind: string, fact?: string, player?: string, amount?: string, switch?: string, action?: string, how?: string, ok?: boolean }} ServedEvent
 * @typedef {{ chronon: number, submissions: [string, string][], events: ServedEvent[], texts: string[], chosen?: [string, string][] }} ServedRecord
 */

export const css = `
.served .row { display: flex; gap: .6em; align-items: baseline; flex-wrap: wrap; }
.served .countdown { font-weight: 600; }
.served .conn { color: #4a5268; font-size: .85em; }
.served .switch { margin: .2em 0; display: flex; gap: .3em; flex-wrap: wrap; align-items: center; }
.served .end { border: 1px solid #6aa77a; background: #eef7f0; border-radius: 4px; padding: .4em .6em; margin: .4em 0; }
.served .end[hidden], .served .act[hidden], .served .join[hidden], .served .game[hidden] { display: none; }
.served .payoff { font-size: 1.1em; }
.served ol.history { padding-left: 1.4em; font-size: 13px; }
.served ol.history ul { font-family: inherit; }
`;

/**
 * The seat's server address and token from the element's attributes.
 * @param {string | null} server
 * @param {string | null} link
 */
export function seatAddress(server, link) {
  const l = String(link || '').trim();
  if (!l) throw new Error('<sidl-game server=… link=…> needs the seat\'s link');
  const m = /\/p\/([A-Za-z0-9]+)\/?(?:join|play|ws)?$/.exec(l);
  const token = m ? m[1] : /^[A-Za-z0-9]+$/.test(l) ? l : null;
  if (!token) throw new Error(`link="${l}" is not a seat's link (…/p/TOKEN)`);
  const base = server ? new URL(server, document.baseURI) : m ? new URL(l, document.baseURI) : null;
  if (!base) throw new Error('<sidl-game link=TOKEN> needs the server attribute too');
  return { origin: base.origin, token };
}

/**
 * A fetch's refusal as text: the server's `{error: {code, message}}`, else the status.
 * @param {Response} r
 */
async function refusal(r) {
  const body = await r.json().catch(() => null);
  const e = body && body.error;
  return e ? `${e.code}: ${e.message}` : `HTTP ${r.status}`;
}

/**
 * Plays the seat of `el`'s `link` in `root` (the element's shadow root, its style already in).
 * @param {HTMLElement} el
 * @param {ShadowRoot} root
 */
export async function playServed(el, root) {
  const ui = {
    title: h('span', { class: 'title' }, 'sidl session'),
    chronon: h('span', { class: 'chronon' }),
    countdown: h('span', { class: 'countdown' }),
    conn: h('span', { class: 'conn status', role: 'status' }, 'connecting'),
    error: h('div', { class: 'error-box', role: 'alert', hidden: '' }),
    who: h('p', { class: 'who' }),
    join: h('div', { class: 'join', hidden: '' }),
    about: h('div', { class: 'about' }),
    end: h('div', { class: 'end', hidden: '' }),
    result: h('ul', { class: 'result' }),
    payoff: h('strong', { class: 'payoff' }),
    endmsg: h('p', { class: 'endmsg' }),
    act: h('div', { class: 'act' }),
    moves: h('div', { class: 'moves' }),
    pending: h('p', { class: 'pending' }),
    waiting: h('p', { class: 'waiting' }),
    layout: h('div', { class: 'layout' }),
    facts: h('ul', { class: 'facts' }),
    account: h('strong', { class: 'account' }),
    history: h('ol', { class: 'history' }),
  };
  ui.end.append(h('h3', {}, 'The game is over'), ui.result, h('p', {}, 'Your payoff: ', ui.payoff), ui.endmsg);
  ui.act.append(h('h3', {}, 'Your actions'), ui.moves, ui.pending);
  // the game's parts, shown from the server's first state on
  const game = h('div', { class: 'game', hidden: '' },
    h('div', { class: 'row' }, ui.waiting), ui.end, ui.act,
    h('h3', {}, 'What you see'), ui.layout, ui.facts, h('p', {}, 'Account: ', ui.account),
    h('h3', {}, 'Your history'), ui.history);
  root.append(h('div', { class: 'served' },
    h('div', { class: 'top' }, ui.title, ui.chronon, ui.countdown, ui.conn),
    ui.error, ui.who, ui.join, ui.about, game));

  /** @param {string} c */
  const setConn = (c, text = c) => { el.dataset.conn = c; ui.conn.textContent = text; };
  /** @param {string} message */
  const showError = (message) => { ui.error.textContent = message; ui.error.hidden = false; };
  const clearError = () => { ui.error.textContent = ''; ui.error.hidden = true; };

  let address;
  try {
    address = seatAddress(el.getAttribute('server'), el.getAttribute('link'));
  } catch (e) {
    setConn('refused', 'error');
    showError(/** @type {Error} */ (e).message);
    return;
  }
  const { origin, token } = address;
  const unreachable = (/** @type {unknown} */ e) => `cannot reach ${origin}: ${/** @type {Error} */ (e).message}. `
    + `Is it running, and does it allow pages on ${location.origin} (sidl serve --allow-origin ${location.origin})?`;

  // the seat (GET: changes nothing), then "Join" (POST) unless joined before
  let seat;
  try {
    const r = await fetch(`${origin}/p/${token}/seat`, { headers: { accept: 'application/json' } });
    if (!r.ok) { setConn('refused', 'refused'); showError(await refusal(r)); return; }
    seat = await r.json();
  } catch (e) {
    setConn('refused', 'unreachable');
    showError(unreachable(e));
    return;
  }
  ui.title.textContent = seat.session;
  ui.who.textContent = `You play ${seat.player}.`;
  if (!seat.joined) {
    setConn('joining', 'not joined');
    await new Promise((resolve) => {
      const button = h('button', { class: 'join-button', type: 'button' }, `Join as ${seat.player}`);
      button.addEventListener('click', async () => {
        button.disabled = true;
        try {
          const r = await fetch(`${origin}/p/${token}/join`, { method: 'POST', headers: { accept: 'application/json' } });
          if (!r.ok) { showError(await refusal(r)); button.disabled = false; return; }
          ui.join.hidden = true;
          resolve(undefined);
        } catch (e) {
          showError(unreachable(e));
          button.disabled = false;
        }
      });
      ui.join.replaceChildren(h('p', {}, `${seat.session}: you will play as ${seat.player}.`), button);
      ui.join.hidden = false;
    });
  }

  /** @type {ServedState | null} */
  let state = null;
  let skew = 0; // the server's clock minus ours
  let player = seat.player;
  /** @type {WebSocket | null} */
  let socket = null;
  let retry = 500;
  let refused = false;
  let sending = false;

  const L = () => (state && state.labels) || null;
  /**
   * @param {'players' | 'facts' | 'switches' | 'actions' | 'accounts'} kind
   * @param {string} key
   */
  const lab = (kind, key, raw = key) => { const l = L(); const m = l && l[kind]; return (m && m[key]) || raw; };
  /** @param {string} s @param {string} a */
  const act = (s, a) => lab('actions', `${s} ${a}`, a);

  /** @param {ServedRecord} rec */
  const addHistory = (rec) => {
    const li = h('li', { class: 'record', 'data-chronon': rec.chronon }, h('strong', {}, `Chronon ${rec.chronon}`));
    if (rec.submissions.length) {
      const chosen = rec.chosen || rec.submissions;
      li.append(h('div', {}, 'you chose: ' + chosen.map(([s, a]) => `${a} at ${s}`).join('; ')));
    }
    li.append(h('ul', {}, ...rec.texts.map((t) => h('li', {}, t))));
    ui.history.append(li);
  };

  /** @param {object} msg */
  const send = (msg) => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    clearError();
    sending = true;
    renderMoves();
    socket.send(JSON.stringify(msg));
  };

  // what the moves were last drawn from: a state frame that changes none of it (another seat
  // acted, the experimenter's input) keeps the buttons and forms, with what is typed into them
  let drawnMoves = '';
  const renderMoves = () => {
    const s = state;
    const l = L();
    const drawn = JSON.stringify([s && s.status, s && s.chronon, s && s.switches, l && l.switches, l && l.actions]);
    if (drawn === drawnMoves) {
      for (const b of ui.moves.querySelectorAll('button.action')) /** @type {HTMLButtonElement} */ (b).disabled = sending;
      return;
    }
    drawnMoves = drawn;
    ui.moves.replaceChildren();
    if (!s || s.status !== 'running') return;
    if (!s.switches.length) { ui.moves.append(h('span', { class: 'none' }, 'You have nothing to do now.')); return; }
    for (const sw of s.switches) {
      const row = h('div', { class: 'switch' }, h('span', { class: 'none', title: sw.switch }, `${lab('switches', sw.switch)}:`));
      sw.actions.forEach((a, i) => {
        if (!sw.unlimited) {
          const b = h('button', { class: 'action', type: 'button', 'data-switch': sw.switch, 'data-action': a, title: a,
            onclick: () => send({ type: 'submit', chronon: s.chronon, switch: sw.switch, action: a }) }, act(sw.switch, a));
          b.disabled = sending;
          row.append(b);
          return;
        }
        // the playground's typed form; the server fills the template (the engine's fill_template)
        // and checks the action, so "fill" only hands the values on
        /** @type {import('../engine.js').Call} */
        const fill = /** @type {any} */ (async (/** @type {string} */ _m, /** @type {string} */ _t, /** @type {string[]} */ values) => ({ values }));
        row.append(templateForm(fill, a, sw.slots[i] || [], async (filled) => {
          const f = /** @type {string | { values: string[] }} */ (/** @type {unknown} */ (filled));
          send(typeof f === 'string'
            ? { type: 'submit', chronon: s.chronon, switch: sw.switch, action: f }
            : { type: 'submit', chronon: s.chronon, switch: sw.switch, template: i, values: f.values });
        }));
      });
      ui.moves.append(row);
    }
  };

  const tick = () => {
    const s = state;
    if (!s || s.deadline_ms == null || s.status !== 'running') { ui.countdown.textContent = ''; return; }
    const left = Math.max(0, s.deadline_ms - (Date.now() + skew));
    ui.countdown.textContent = `${Math.ceil(left / 1000)} s left`;
  };
  const timer = setInterval(() => { if (!el.isConnected) { clearInterval(timer); if (socket) socket.close(); } else tick(); }, 250);

  const render = () => {
    const s = state;
    if (!s) return;
    el.dataset.status = s.status;
    game.hidden = false;
    const waiting = s.status === 'waiting';
    const paused = s.status === 'paused';
    ui.chronon.textContent = waiting ? 'waiting for the other participants of your group…'
      : paused ? `chronon ${s.chronon + 1}: paused by the experimenter`
      : s.status === 'running' ? `chronon ${s.chronon + 1}` : `after ${s.chronon} chronons`;
    ui.facts.replaceChildren(...s.view.map((f) => h('li', { title: f }, lab('facts', f))));
    // the layout the server computed for this seat (images as their text: the game's files are
    // not served)
    ui.layout.replaceChildren(...(s.layout ? renderLayout(s.layout, null) : []));
    const l = L();
    ui.account.textContent = l && l.accounts && l.accounts[player] ? l.accounts[player] : s.account;
    ui.waiting.textContent = s.status === 'running' && s.waiting.length
      ? `Still to act: ${s.waiting.map((p) => lab('players', p)).join(', ')}` : '';
    ui.pending.textContent = s.pending.length
      ? 'Submitted (you may change it until the chronon ends): ' + s.pending.map(([sw, a]) => `${act(sw, a)} at ${lab('switches', sw)}`).join('; ')
      : '';
    ui.about.replaceChildren(...(l && l.description ? [h('p', { class: 'description' }, l.description)] : []),
      ...(l && l.role ? [h('p', { class: 'role' }, l.role)] : []));
    const over = s.status !== 'running' && !waiting && !paused;
    ui.end.hidden = !over;
    ui.act.hidden = over;
    if (over) {
      ui.result.replaceChildren(...((l && l.result) || []).map((r) => h('li', {}, r)));
      ui.payoff.textContent = s.account;
      ui.endmsg.textContent = s.status === 'finished' ? '' : `The session stopped (${s.status}): ${s.message || ''}`;
    }
    renderMoves();
    tick();
  };

  const connect = () => {
    setConn(socket ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/p/${token}/ws`);
    socket = ws;
    ws.onopen = () => { setConn('connected'); retry = 500; };
    ws.onclose = (e) => {
      sending = false;
      if (refused || e.code === 1008 || !el.isConnected) { setConn('refused', 'refused'); return; }
      // an ended session sends nothing more: no need to come back
      if (state && ['finished', 'stalled', 'error'].includes(state.status)) { setConn('closed', 'session over'); return; }
      setConn('reconnecting', 'disconnected: reconnecting');
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data));
      switch (msg.type) {
        case 'hello':
          ui.title.textContent = msg.name;
          player = msg.player;
          ui.who.textContent = `You play ${msg.player_label || msg.player}.`;
          ui.history.replaceChildren();
          for (const rec of msg.history) addHistory(rec);
          break;
        case 'chronon':
          addHistory(msg.record);
          break;
        case 'state':
          state = msg;
          skew = msg.now_ms - Date.now();
          sending = false;
          render();
          break;
        case 'ack':
          sending = false;
          renderMoves();
          break;
        case 'error':
          sending = false;
          if (msg.code === 'origin_not_allowed') refused = true;
          showError(`${msg.code}: ${msg.message}`);
          renderMoves();
          break;
      }
    };
  };
  connect();
}
