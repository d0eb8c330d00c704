// The experimenter's monitor (docs/serve.md, "Monitor"): /admin/monitor#token=TOKEN&session=ID.
// Polls the admin API once a second; the token comes from the fragment (never in a URL sent to
// the server) and goes in the Authorization header. Everything is shown with textContent.
const params = new URLSearchParams(location.hash.slice(1));
const token = params.get("token") || prompt("Admin token") || "";
const session = params.get("session") || prompt("Session id") || "";
const $ = (id) => document.getElementById(id);
let lastEvent = 0;

async function api(path, options = {}) {
  const r = await fetch(path, { ...options, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } });
  const body = await r.json();
  if (!r.ok) throw new Error(`${body.error.code}: ${body.error.message}`);
  return body;
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function ago(ms, now) {
  if (ms === null || ms === undefined) return "";
  return `${Math.max(0, Math.round((now - ms) / 1000))} s ago`;
}

function time(ms) { return new Date(ms).toLocaleTimeString(); }

// The game's labels (computed by the server with the engine's `present`, in the session's
// language), or the raw terms when the game has none or the "raw terms" box is ticked.
const rawBox = $("raw");
rawBox.checked = localStorage.getItem("sidl.monitor.raw") === "raw";
rawBox.onchange = () => { localStorage.setItem("sidl.monitor.raw", rawBox.checked ? "raw" : "labels"); refresh(); };

function group(g) {
  const L = !rawBox.checked && g.labels ? g.labels : null;
  const d0 = g.designer;
  const T = {
    view: L ? L.view : d0.view,
    pending: L ? L.pending : d0.pending,
    accounts: L ? L.accounts : d0.accounts,
    switches: L ? L.switches : d0.switches,
    events: L ? L.events : d0.events,
  };
  const box = el("section", undefined, "group");
  box.dataset.group = g.id;
  box.dataset.texts = L ? "labels" : "raw";
  const left = g.deadline_ms ? `, ${Math.max(0, Math.round((g.deadline_ms - g.now_ms) / 1000))} s left` : "";
  box.append(el("h2", `Group ${g.group} (${g.id}): ${g.status}, chronon ${g.chronon + 1}${left}`));
  if (g.message) box.append(el("p", g.message));
  if (L && L.description) box.append(el("p", L.description, "description"));
  const t = el("table");
  const head = el("tr");
  for (const h of ["seat", "player", "label", "kind", "connection", "idle since", "to act", "moves", ""]) head.append(el("th", h));
  t.append(head);
  for (const s of g.seats) {
    const tr = el("tr");
    const conn = s.kind === "experimenter" ? "you (above)" : s.connections > 0 ? `connected (${s.connections})`
      : s.disconnected_since ? `dropped ${ago(s.disconnected_since, g.now_ms)}${s.absent ? " (absent)" : ""}` : "";
    const player = el("td", L ? L.players[s.index] : s.player, "player");
    if (L) player.title = s.player;
    const moves = (T.switches[s.index] || []).map(([sw, acts]) => `${sw}: ${acts.join(" | ")}`).join("; ");
    tr.append(el("td", s.index + 1), player, el("td", s.label || ""), el("td", s.kind),
      el("td", conn), el("td", s.idle_since ? ago(s.idle_since, g.now_ms) : "acted"), el("td", s.to_act ? "yes" : ""),
      el("td", moves, "moves"));
    const td = el("td");
    if (s.kind === "human") {
      const spec = el("input");
      spec.value = "mcts:200";
      spec.size = 10;
      spec.setAttribute("aria-label", `AI for seat ${s.index + 1}`);
      const b = el("button", "Replace by AI");
      b.type = "button";
      b.onclick = () => act(`/api/sessions/${g.id}/seats/${s.index}/replace`, { ai: spec.value });
      td.append(spec, b);
    }
    tr.append(td);
    t.append(tr);
  }
  box.append(t);
  const d = el("details");
  d.open = true;
  d.append(el("summary", "Designer's view (every fact; participants never see this)"));
  d.append(el("pre", T.view.join("\n"), "designer-view"));
  if (T.pending.length) d.append(el("p", `Pending: ${T.pending.map((p) => `${p[0]} ${p[1]} = ${p[2]}`).join("; ")}`, "pending"));
  d.append(el("p", `Accounts: ${T.accounts.join(", ")}`, "accounts"));
  if (T.events.length) {
    const ul = el("ul", undefined, "game-events");
    for (const [c, lines] of T.events) ul.append(el("li", `chronon ${c}: ${lines.join("; ")}`));
    d.append(el("h3", "Last chronons"), ul);
  }
  if (L && L.result.length) d.append(el("p", L.result.join(" "), "result"));
  box.append(d);
  return box;
}

// The experimenter's input: the legal switches of the seats the experimenter plays (kind
// `experimenter`), a button per action, a form per template of an unlimited switch. Rebuilt only
// when they change, so that a value being typed survives the polling.
let lastInput = "";
function experimenterInput(groups) {
  const items = [];
  for (const g of groups) for (const s of g.seats) if (s.kind === "experimenter") items.push({ g, s });
  const key = JSON.stringify(items.map(({ g, s }) => [g.id, g.chronon, g.status, s.index, s.switches]));
  if (key === lastInput) return;
  lastInput = key;
  const box = $("experimenter");
  box.replaceChildren();
  box.hidden = items.length === 0;
  if (!items.length) return;
  box.append(el("h2", "Your input (seats you play)"));
  for (const { g, s } of items) {
    const div = el("div", undefined, "experimenter-seat");
    div.dataset.group = g.id;
    div.dataset.seat = s.index;
    div.append(el("h3", `Group ${g.group}, ${s.player}`));
    if (!s.switches.length) div.append(el("p", g.status === "running" ? "nothing to decide now" : `the group is ${g.status}`));
    for (const sw of s.switches) {
      const row = el("p", `${sw.switch}: `);
      sw.actions.forEach((a, i) => {
        const path = `/api/sessions/${g.id}/seats/${s.index}/submit`;
        if (!sw.unlimited) {
          const b = el("button", a, "action");
          b.type = "button";
          b.dataset.action = a;
          b.onclick = () => act(path, { chronon: g.chronon, switch: sw.switch, action: a });
          row.append(b);
          return;
        }
        const form = el("form", undefined, "template");
        form.append(el("span", a));
        const inputs = (sw.slots[i] || []).map((slot) => {
          const x = el("input");
          x.placeholder = `${slot.name} (${slot.type})`;
          x.dataset.slot = slot.name;
          return x;
        });
        const b = el("button", "submit");
        b.type = "submit";
        form.append(...inputs, b);
        form.onsubmit = (e) => {
          e.preventDefault();
          act(path, { chronon: g.chronon, switch: sw.switch, template: i, values: inputs.map((x) => x.value) });
        };
        row.append(form);
      });
      div.append(row);
    }
    box.append(div);
  }
}

// Who is in the room but not playing yet: the participants of groups waiting to be full.
function roomWaiting(list) {
  const box = $("room");
  box.replaceChildren();
  box.hidden = list.length === 0;
  if (!list.length) return;
  box.append(el("h2", `Waiting in the room (${list.length})`));
  const ul = el("ul");
  for (const w of list) {
    ul.append(el("li", `group ${w.group}, ${w.player}${w.label ? ` [${w.label}]` : ""}: joined at ${time(w.joined_ms)}${w.connected ? ", connected" : ", not connected"}`));
  }
  box.append(ul);
}

async function act(path, body) {
  try {
    await api(path, { method: "POST", body: JSON.stringify(body || {}) });
    $("error").textContent = "";
    await refresh();
  } catch (e) { $("error").textContent = e.message; }
}

async function refresh() {
  try {
    const m = await api(`/api/sessions/${encodeURIComponent(session)}/monitor`);
    $("groups").replaceChildren(...m.groups.map(group));
    experimenterInput(m.groups);
    roomWaiting(m.room_waiting || []);
    const { events } = await api(`/api/sessions/${encodeURIComponent(session)}/events?after=${lastEvent}`);
    const tb = $("events").querySelector("tbody");
    // a seat's player by its label (the group's labels) unless raw terms are asked for
    const names = (g) => { const x = m.groups.find((y) => y.group === g); return !rawBox.checked && x && x.labels ? x.labels.players : null; };
    for (const e of events) {
      lastEvent = Math.max(lastEvent, e.id);
      const player = (names(e.group) || [])[e.seat] || e.player;
      const who = e.seat === null ? "" : `${e.seat + 1} ${player}${e.label ? ` [${e.label}]` : ""}`;
      const tr = el("tr");
      tr.append(el("td", time(e.at_ms)), el("td", e.group), el("td", e.chronon), el("td", who), el("td", e.event),
        el("td", e.detail && Object.keys(e.detail).length ? JSON.stringify(e.detail) : ""));
      tb.prepend(tr);
    }
    $("updated").textContent = new Date().toLocaleTimeString();
  } catch (e) { $("error").textContent = e.message; }
}

$("session").textContent = session;
$("back").href = `/admin#token=${encodeURIComponent(token)}`;
for (const op of ["pause", "resume", "advance"]) $(op).onclick = () => act(`/api/sessions/${encodeURIComponent(session)}/${op}`);
refresh();
setInterval(refresh, 1000);
