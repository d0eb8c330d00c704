// The admin page: the token comes from the URL's fragment (never sent to the server in a URL),
// every call sends it as a bearer token.
const token = new URLSearchParams(location.hash.slice(1)).get("token") || prompt("Admin token") || "";
const $ = (id) => document.getElementById(id);

async function api(path, options = {}) {
  const r = await fetch(path, { ...options, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } });
  const body = await r.json();
  if (!r.ok) throw new Error(`${body.error.code}: ${body.error.message}`);
  return body;
}

function cell(text) { const td = document.createElement("td"); td.textContent = text; return td; }

async function show(id) {
  const s = await api(`/api/sessions/${id}`);
  const d = $("detail");
  d.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = `${s.name} (${s.id}): ${s.status}, chronon ${s.chronon}`;
  d.append(h);
  const mon = document.createElement("a");
  mon.href = `/admin/monitor#token=${encodeURIComponent(token)}&session=${encodeURIComponent(s.id)}`;
  mon.textContent = "Monitor";
  d.append(mon);
  // the game's labels (session.rs monitor_labels; group 1's live state), inserted as text
  const labels = s.live && s.live.labels;
  if (labels && labels.description) {
    const p = document.createElement("p");
    p.className = "description";
    p.textContent = labels.description;
    d.append(p);
  }
  if (s.room) {
    const p = document.createElement("p");
    const a = document.createElement("a"); a.href = s.room; a.textContent = s.room;
    p.append("Room link (add ?participant_label=LABEL): ", a);
    d.append(p);
  }
  // a session of several groups (or with a room): every group's seats
  for (const g of s.groups || [{ group: 1, status: s.status, chronon: s.chronon, seats: s.seats }]) {
    if (s.groups) {
      const h3 = document.createElement("h3");
      h3.textContent = `Group ${g.group}: ${g.status}, chronon ${g.chronon}`;
      d.append(h3);
    }
    const ul = document.createElement("ul");
    for (const [i, seat] of g.seats.entries()) {
      const li = document.createElement("li");
      const name = labels && labels.players[i] ? `${labels.players[i]} = ${seat.player}` : seat.player;
      const account = g.group === 1 && labels && labels.accounts[i] ? `, ${labels.accounts[i]}` : "";
      li.textContent = `${name} (${seat.kind})${seat.label ? ` [${seat.label}]` : ""}${seat.joined_ms ? ", joined" : ""}${account} `;
      if (seat.link) { const a = document.createElement("a"); a.href = seat.link; a.textContent = seat.link; li.append(a); }
      ul.append(li);
    }
    d.append(ul);
  }
}

async function refresh() {
  try {
    const { sessions } = await api("/api/sessions");
    const tb = $("sessions").querySelector("tbody");
    tb.replaceChildren(...sessions.map((s) => {
      const tr = document.createElement("tr");
      tr.append(cell(s.id), cell(s.name), cell(s.status), cell(s.chronon));
      tr.onclick = () => show(s.id).catch((e) => ($("error").textContent = e.message));
      return tr;
    }));
  } catch (e) { $("error").textContent = e.message; }
}

$("create").onsubmit = async (e) => {
  e.preventDefault();
  try {
    const config = JSON.parse($("config").value || "{}");
    const s = await api("/api/sessions", { method: "POST", body: JSON.stringify({ game: $("game").value, config }) });
    await refresh();
    await show(s.id);
  } catch (err) { $("error").textContent = err.message; }
};
refresh();
setInterval(refresh, 5000);
