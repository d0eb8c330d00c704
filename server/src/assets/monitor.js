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
    const conn = s.connections > 0 ? `connected (${s.connections})`
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
