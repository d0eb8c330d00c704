// The participant page: one seat of a served session over its WebSocket. It renders only what the
// server sent (no optimistic moves): the seat's view, its legal actions, its own pending
// submissions, who is still to act, the countdown, its own history and, at the end, its payoff.
// Terms arrive as canonical text and go back as text (or as slot values of a template, which the
// server fills: the engine's rule). The DOM builder and the typed template forms are the
// playground's (playground/play.js, served as /static/playground-play.js).
import { make, templateForm } from "/static/playground-play.js";
import { renderLayout } from "/static/playground-board.js";

const $ = (id) => document.getElementById(id);
const wsUrl = location.href.replace(/^http/, "ws").replace(/\/play(\?.*)?(#.*)?$/, "/ws");
let state = null;
let skew = 0; // server clock minus ours
let socket = null;
let retry = 500;

const el = make;

// The game's labels for this seat, computed by the server from this seat's view only
// (state.labels; null for a game without labels): a raw term's text, or the term itself. Every
// text is inserted as text (textContent), never as markup.
const L = () => (state && state.labels) || null;
const lab = (kind, key, raw = key) => { const l = L(); return (l && l[kind] && l[kind][key]) || raw; };
// an action's text: its label at its switch, else the raw action
const act = (s, a) => lab("actions", `${s} ${a}`, a);

function addHistory(rec) {
  const li = el("li", { class: "record" });
  li.dataset.chronon = rec.chronon;
  li.append(el("strong", {}, `Chronon ${rec.chronon}`));
  if (rec.submissions.length) {
    // the server's labels of the choices (record.chosen: [switch, action] texts), else raw
    const chosen = rec.chosen || rec.submissions;
    li.append(el("div", {}, "you chose: " + chosen.map(([s, a]) => `${a} at ${s}`).join("; ")));
  }
  const ul = el("ul");
  // the engine's event texts, in the game's labels when it has them (`chosen` comes with labels)
  rec.texts.forEach((t) => ul.append(el("li", { class: rec.chosen ? "event" : "term" }, t)));
  li.append(ul);
  $("history").append(li);
}

function send(msg) {
  $("error").textContent = "";
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

// What the moves were last drawn from: a state frame that changes none of it (another seat acted,
// the experimenter's input, a reconnection) keeps the buttons and forms as they are, with what the
// participant has typed into them.
let drawnSwitches = "";

function renderSwitches() {
  const box = $("switches");
  const l = L();
  const drawn = JSON.stringify([state && state.status, state && state.chronon, state && state.switches,
    l && l.switches, l && l.actions]);
  if (drawn === drawnSwitches) return;
  drawnSwitches = drawn;
  box.replaceChildren();
  if (!state || state.status !== "running") return;
  if (!state.switches.length) {
    box.append(el("p", {}, "You have nothing to do now."));
    return;
  }
  for (const sw of state.switches) {
    const div = el("div", { class: "switch" }, el("div", { class: "term", title: sw.switch }, L() ? lab("switches", sw.switch) : `switch ${sw.switch}`));
    sw.actions.forEach((action, i) => {
      if (!sw.unlimited) {
        div.append(el("button", {
          type: "button", class: "action term", "data-action": action, title: action,
          onclick: () => send({ type: "submit", chronon: state.chronon, switch: sw.switch, action }),
        }, act(sw.switch, action)));
        return;
      }
      // the playground's form; the server fills the template (the engine's fill_template) and
      // checks the action, so "fill" only hands the values on
      const fill = async (_m, _template, values) => ({ values });
      div.append(templateForm(fill, action, sw.slots[i], (a) => send(typeof a === "string"
        ? { type: "submit", chronon: state.chronon, switch: sw.switch, action: a }
        : { type: "submit", chronon: state.chronon, switch: sw.switch, template: i, values: a.values })));
    });
    box.append(div);
  }
}

function render() {
  if (!state) return;
  const waiting = state.status === "waiting"; // a group not yet full (room links)
  const paused = state.status === "paused"; // by the experimenter (the monitor)
  $("chronon").textContent = waiting ? "Waiting for the other participants of your group…"
    : paused ? `Chronon ${state.chronon + 1}: paused by the experimenter, please wait…`
    : state.status === "running" ? `Chronon ${state.chronon + 1}` : `After ${state.chronon} chronons`;
  const view = $("view");
  view.replaceChildren(...state.view.map((f) => el("li", { class: "term", title: f }, lab("facts", f))));
  // the game's layout, computed by the server for this seat only (images as their text)
  $("layout").replaceChildren(...(state.layout ? renderLayout(state.layout, null) : []));
  const me = $("who").dataset.player;
  $("account").textContent = me && L() && L().accounts[me] ? L().accounts[me] : state.account;
  $("waiting").textContent = state.status === "running" && state.waiting.length
    ? `Still to act: ${state.waiting.map((p) => lab("players", p)).join(", ")}` : "";
  $("pending").textContent = state.pending.length
    ? "Submitted (you may change it until the chronon ends): " + state.pending.map(([s, a]) => `${act(s, a)} at ${lab("switches", s)}`).join("; ")
    : "";
  const l = L();
  $("about").replaceChildren(...(l && l.description ? [el("p", { class: "description" }, l.description)] : []),
    ...(l && l.role ? [el("p", { class: "role" }, l.role)] : []));
  $("result").replaceChildren(...(l ? l.result : []).map((r) => el("li", {}, r)));
  const over = state.status !== "running" && !waiting && !paused;
  $("end").hidden = !over;
  $("act").hidden = over;
  if (over) {
    $("payoff").textContent = state.account;
    $("endmsg").textContent = state.status === "finished" ? "" : `The session stopped (${state.status}): ${state.message || ""}`;
  }
  renderSwitches();
  tick();
}

function tick() {
  const c = $("countdown");
  if (!state || state.deadline_ms == null || state.status !== "running") { c.textContent = ""; return; }
  const left = Math.max(0, state.deadline_ms - (Date.now() + skew));
  c.textContent = `${Math.ceil(left / 1000)} s left`;
}
setInterval(tick, 250);

function connect() {
  socket = new WebSocket(wsUrl);
  $("conn").textContent = "connecting";
  socket.onopen = () => { $("conn").textContent = "connected"; retry = 500; };
  socket.onclose = () => {
    $("conn").textContent = "disconnected: reconnecting";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
  socket.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    switch (msg.type) {
      case "hello":
        $("title").textContent = msg.name;
        $("who").textContent = `You play ${msg.player_label || msg.player}.`;
        $("who").dataset.player = msg.player;
        $("history").replaceChildren();
        for (const rec of msg.history) addHistory(rec);
        break;
      case "chronon":
        addHistory(msg.record);
        break;
      case "state":
        state = msg;
        skew = msg.now_ms - Date.now();
        render();
        break;
      case "ack":
        break;
      case "error":
        $("error").textContent = `${msg.code}: ${msg.message}`;
        break;
    }
  };
}
connect();
