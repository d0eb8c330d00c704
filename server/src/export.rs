//! The data exports of a session (docs/serve.md, "Data export"): the long event log (CSV and JSON
//! lines), the wide CSV (one row per participant), the payments CSV and the groups' replay records
//! (`sidl_engine::game::record`, the one record format: one line per group). A session of several
//! groups is exported group after group (each group is a stored session row of its own). Built from the store alone (the session
//! is replayed from its stored submissions, as at recovery), so the same code serves the admin
//! API and `sidl serve export`, for a running session or a finished one.

use crate::config::{plan, show, SessionConfig};
use crate::error::ApiError;
use crate::store::{ChrononRow, EventRow, SeatRow, SessionRow, Store, SubmissionRow};
use serde_json::{json, Map, Value};
use sidl_engine::game::present::Presenter;
use sidl_engine::game::record::Record;
use sidl_engine::game::{ChrononRecord, PlayerEvents, RuntimeError, Session, Submission};
use sidl_engine::term::Term;
use std::collections::HashMap;

/// The export formats (also the last part of the admin route `/api/sessions/{id}/export/{format}`).
pub const FORMATS: &[&str] = &[
    "events.csv",
    "events.jsonl",
    "wide.csv",
    "payments.csv",
    "record.jsonl",
];

/// The columns of the event log, in order (CSV header; JSON lines use the same keys).
pub const EVENT_COLUMNS: &[&str] = &[
    "session",
    "group",
    "chronon",
    "event",
    "seat",
    "player",
    "participant_code",
    "participant_label",
    "source",
    "switch",
    "action",
    "values",
    "accepted",
    "reason",
    "at_ms",
    "decision_ms",
    "timeout",
    "accounts",
    "label",
];

/// Everything stored about one group of a session, and the group's game replayed from it.
struct Loaded {
    row: SessionRow,
    /// The session's id (group 1's row id).
    top: String,
    /// The game's `game/1` name (the record's `game`), else the session's name.
    game: String,
    seats: Vec<SeatRow>,
    subs: Vec<SubmissionRow>,
    chronons: Vec<ChrononRow>,
    events: Vec<EventRow>,
    session: Session,
    /// The accounts (canonical text, player order) after each chronon.
    accounts: Vec<Vec<String>>,
    /// The `label` column: the text of an action (chronon, 0-based; switch; action, canonical
    /// text) in the game's labels, as the designer reads it at the start of that chronon, in the
    /// session's language.
    action_labels: HashMap<(u64, String, String), String>,
    /// The `label` column of a chronon row (1-based): the chronon's events, `; `-separated.
    chronon_labels: HashMap<u64, String>,
}

fn load(store: &dyn Store, id: &str) -> Result<Loaded, ApiError> {
    let row = store
        .session(id)
        .map_err(ApiError::storage)?
        .ok_or_else(|| ApiError::not_found("unknown_session", format!("no session {id:?}")))?;
    let seats = store.seats(id).map_err(ApiError::storage)?;
    let subs = store.submissions(id).map_err(ApiError::storage)?;
    let chronons = store.chronons(id).map_err(ApiError::storage)?;
    let events = store.events(id).map_err(ApiError::storage)?;
    let config: SessionConfig = serde_json::from_str(&row.config)
        .map_err(|e| ApiError::new(500, "storage", format!("stored configuration: {e}")))?;
    let plan = plan(&row.game, &config, row.seed)?;
    let rt = |e: RuntimeError| ApiError::new(500, "replay", format!("{}: {}", e.code, e.message));
    let parse = |t: &str| -> Result<Term, ApiError> {
        sidl_engine::syntax::parse_term(t)
            .map(|r| r.term)
            .map_err(|_| ApiError::new(500, "storage", format!("stored term {t:?}")))
    };
    let n = row.state.chronons;
    let mut history: Vec<ChrononRecord> = (0..n)
        .map(|_| ChrononRecord {
            submissions: Vec::new(),
            overrides: Vec::new(),
            draws: Vec::new(),
            events: Vec::new(),
            player_events: PlayerEvents::new(),
        })
        .collect();
    for s in subs.iter().filter(|s| s.chronon < n) {
        history[s.chronon as usize].submissions.push(Submission {
            player: parse(&s.player)?,
            switch: parse(&s.switch)?,
            action: parse(&s.action)?,
        });
    }
    let settings = plan.settings();
    let mut session =
        Session::replay(plan.game.clone(), plan.seed, settings.clone(), &history).map_err(rt)?;
    // the accounts after every chronon: the record's own replay, which checks it on the way
    let game = crate::config::game_name(&plan.game).unwrap_or_else(|| row.name.clone());
    let rec = Record::of_session(&mut session, &game, &row.game, &[], &[], None);
    // the actions to label, per chronon (0-based): the stored submissions and the rejected ones
    let mut wanted: Vec<Vec<(String, String)>> = vec![Vec::new(); n as usize + 1];
    for s in subs.iter().filter(|s| s.chronon <= n) {
        wanted[s.chronon as usize].push((s.switch.clone(), s.action.clone()));
    }
    for e in events
        .iter()
        .filter(|e| e.kind == "rejected" && e.chronon <= n)
    {
        let d: Value = serde_json::from_str(&e.detail).unwrap_or(Value::Null);
        if let (Some(sw), Some(a)) = (d["switch"].as_str(), d["action"].as_str()) {
            wanted[e.chronon as usize].push((sw.to_string(), a.to_string()));
        }
    }
    let lang = plan.lang.clone();
    let mut accounts = Vec::new();
    let mut action_labels = HashMap::new();
    let mut chronon_labels = HashMap::new();
    rec.replay_with(plan.game.clone(), &row.game, &settings, |s| {
        accounts.push(s.state().accounts.iter().map(show).collect::<Vec<_>>());
        // the designer's labels in this state (raw text for a game without labels)
        let k = s.history().len();
        let mut pr = Presenter::new(s, None, lang.as_deref()).unwrap_or_else(|_| Presenter::raw());
        if let Some(rec) = k.checked_sub(1).and_then(|i| s.history().get(i)) {
            let lines: Vec<String> = rec.events.iter().map(|e| pr.event(e)).collect();
            chronon_labels.insert(k as u64, lines.join("; "));
        }
        for (sw, a) in wanted.get(k).into_iter().flatten() {
            let terms = sidl_engine::syntax::parse_term(sw)
                .and_then(|w| sidl_engine::syntax::parse_term(a).map(|x| (w.term, x.term)));
            if let Ok((w, x)) = terms {
                action_labels.insert((k as u64, sw.clone(), a.clone()), pr.action(&w, &x));
            }
        }
        Ok(())
    })
    .map_err(|e| ApiError::new(500, "replay", e.to_string()))?;
    accounts.remove(0);
    Ok(Loaded {
        top: row.parent.clone().unwrap_or_else(|| row.id.clone()),
        row,
        game,
        seats,
        subs,
        chronons,
        events,
        session,
        accounts,
        action_labels,
        chronon_labels,
    })
}

/// A participant's code in the exports: its group's id (the session's for group 1, `SESSION-K`
/// for group K) and the seat's number (not its link's secret, which only the payments file
/// carries).
fn code(session: &str, seat: usize) -> String {
    format!("{session}-{}", seat + 1)
}

/// When chronon `c` (1 = the first) started: the end of the one before, or the session's creation.
fn started(l: &Loaded, c: u64) -> i64 {
    if c <= 1 {
        // a group that waited for its participants started then
        return l.row.started_ms.unwrap_or(l.row.created_ms);
    }
    l.chronons
        .iter()
        .find(|r| r.chronon == c - 1)
        .map_or(l.row.created_ms, |r| r.at_ms)
}

/// The milliseconds of chronon `c` that passed from its start to `at` while the group was
/// paused (the monitor's `paused` … `resumed` events): a decision time counts none of them.
fn paused_ms(l: &Loaded, c: u64, at: i64) -> i64 {
    let from = started(l, c);
    let mut total = 0;
    let mut since: Option<i64> = None;
    for e in &l.events {
        match e.kind.as_str() {
            "paused" if since.is_none() => since = Some(e.at_ms),
            "resumed" => {
                if let Some(p) = since.take() {
                    total += (e.at_ms.min(at) - p.max(from)).max(0);
                }
            }
            _ => {}
        }
    }
    if let Some(p) = since {
        total += (at - p.max(from)).max(0);
    }
    total
}

/// `decision_ms` of a row at `at` in chronon `c`: from the chronon's start, paused time not
/// counted.
fn decision_ms(l: &Loaded, c: u64, at: i64) -> i64 {
    (at - started(l, c) - paused_ms(l, c, at)).max(0)
}

fn label(s: &SeatRow) -> Value {
    json!(s.label.clone().unwrap_or_default())
}

/// An action's elements after its first (the player or switch) as typed JSON values: integers and doubles as
/// numbers, everything else as canonical text.
fn values(action: &str) -> Value {
    let Ok(t) = sidl_engine::syntax::parse_term(action).map(|r| r.term) else {
        return json!([]);
    };
    let Some(items) = t.as_list() else {
        return json!([]);
    };
    Value::Array(
        items
            .iter()
            .skip(1)
            .map(|x| match *x {
                Term::Int(i) => json!(i),
                Term::Float(f) => json!(f),
                other => json!(show(other)),
            })
            .collect(),
    )
}

fn accounts_json(l: &Loaded, after: u64) -> Value {
    let Some(a) = l.accounts.get((after as usize).wrapping_sub(1)) else {
        return Value::Null;
    };
    let mut m = Map::new();
    for (s, v) in l.seats.iter().zip(a) {
        m.insert(s.player.clone(), amount(v));
    }
    Value::Object(m)
}

/// An account as a JSON number when it is one.
fn amount(text: &str) -> Value {
    if let Ok(i) = text.parse::<i64>() {
        return json!(i);
    }
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() => json!(f),
        _ => json!(text),
    }
}

/// The `label` of an action submitted in chronon `chronon` (0-based), `null` when it was not
/// labelled (it does not read as a term).
fn action_label(l: &Loaded, chronon: u64, switch: &str, action: &str) -> Value {
    l.action_labels
        .get(&(chronon, switch.to_string(), action.to_string()))
        .map_or(Value::Null, |t| json!(t))
}

/// The event log, one JSON object per row with the keys [`EVENT_COLUMNS`], in time order.
fn event_rows(l: &Loaded) -> Vec<Value> {
    let id = &l.row.id;
    let top = &l.top;
    let seat_of = |player: &str| l.seats.iter().position(|s| s.player == player);
    let base = |chronon: u64, event: &str, seat: Option<usize>| {
        let mut m = Map::new();
        for c in EVENT_COLUMNS {
            m.insert(c.to_string(), Value::Null);
        }
        m.insert("session".into(), json!(top));
        m.insert("group".into(), json!(l.row.group));
        m.insert("chronon".into(), json!(chronon));
        m.insert("event".into(), json!(event));
        if let Some(i) = seat {
            m.insert("seat".into(), json!(i + 1));
            m.insert("player".into(), json!(l.seats[i].player));
            m.insert("participant_code".into(), json!(code(id, i)));
            m.insert("participant_label".into(), label(&l.seats[i]));
        }
        m
    };
    // (time, rank, order): a submission before the chronon it closed at the same millisecond
    let mut rows: Vec<(i64, u8, usize, Map<String, Value>)> = Vec::new();
    for s in &l.subs {
        let c = s.chronon + 1;
        let mut m = base(c, "submission", seat_of(&s.player));
        m.insert("source".into(), json!(s.source));
        m.insert("switch".into(), json!(s.switch));
        m.insert("action".into(), json!(s.action));
        m.insert("values".into(), values(&s.action));
        m.insert("accepted".into(), json!(true));
        m.insert("at_ms".into(), json!(s.at_ms));
        m.insert("decision_ms".into(), json!(decision_ms(l, c, s.at_ms)));
        m.insert("timeout".into(), json!(s.source == "timeout-ai"));
        m.insert(
            "label".into(),
            action_label(l, s.chronon, &s.switch, &s.action),
        );
        rows.push((s.at_ms, 1, rows.len(), m));
    }
    // after the end no chronon runs: an event then belongs to the last one
    let ended = !matches!(l.row.state.status.as_str(), "running" | "paused");
    let last = l.row.state.chronons.max(1);
    for e in &l.events {
        let c = if ended {
            (e.chronon + 1).min(last)
        } else {
            e.chronon + 1
        };
        let seat = (e.seat < l.seats.len()).then_some(e.seat);
        let mut m = base(c, &e.kind, seat);
        m.insert("at_ms".into(), json!(e.at_ms));
        if e.kind == "rejected" {
            let d: Value = serde_json::from_str(&e.detail).unwrap_or(Value::Null);
            m.insert("source".into(), json!("human"));
            m.insert("switch".into(), d["switch"].clone());
            match d.get("action") {
                Some(Value::String(a)) => {
                    m.insert("action".into(), json!(a));
                    m.insert("values".into(), values(a));
                    let sw = d["switch"].as_str().unwrap_or_default();
                    m.insert("label".into(), action_label(l, e.chronon, sw, a));
                }
                _ => {
                    m.insert("values".into(), d["values"].clone());
                }
            }
            m.insert("accepted".into(), json!(false));
            m.insert(
                "reason".into(),
                json!(format!(
                    "{}: {}",
                    d["code"].as_str().unwrap_or(""),
                    d["reason"].as_str().unwrap_or("")
                )),
            );
            m.insert("decision_ms".into(), json!(decision_ms(l, c, e.at_ms)));
            m.insert("timeout".into(), json!(false));
        }
        let rank = if e.kind == "disconnected" { 3 } else { 0 };
        rows.push((e.at_ms, rank, rows.len(), m));
    }
    for ch in &l.chronons {
        let mut m = base(ch.chronon, "chronon", None);
        let rec: Value = serde_json::from_str(&ch.record).unwrap_or(Value::Null);
        let defaulted = rec["events"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|e| e["kind"] == "switch" && e["how"] == "default");
        m.insert("at_ms".into(), json!(ch.at_ms));
        m.insert("timeout".into(), json!(defaulted));
        m.insert("accounts".into(), accounts_json(l, ch.chronon));
        if let Some(t) = l.chronon_labels.get(&ch.chronon) {
            m.insert("label".into(), json!(t));
        }
        rows.push((ch.at_ms, 2, rows.len(), m));
    }
    rows.sort_by_key(|r| (r.0, r.1, r.2));
    rows.into_iter().map(|r| Value::Object(r.3)).collect()
}

/// One CSV field (RFC 4180: quoted when it holds a comma, a quote or a line break).
fn field(v: &Value) -> String {
    let text = match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

fn csv(header: &[String], rows: &[Vec<Value>]) -> String {
    let mut out = header
        .iter()
        .map(|h| field(&json!(h)))
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    for r in rows {
        out.push_str(&r.iter().map(field).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    out
}

fn events_csv(groups: &[Loaded]) -> String {
    let header: Vec<String> = EVENT_COLUMNS.iter().map(|c| c.to_string()).collect();
    let rows: Vec<Vec<Value>> = groups
        .iter()
        .flat_map(event_rows)
        .map(|r| EVENT_COLUMNS.iter().map(|c| r[*c].clone()).collect())
        .collect();
    csv(&header, &rows)
}

fn events_jsonl(groups: &[Loaded]) -> String {
    groups
        .iter()
        .flat_map(event_rows)
        .map(|r| format!("{r}\n"))
        .collect::<String>()
}

/// The accepted actions of seat `i` in chronon `c` (1-based) as the engine ran them.
fn actions_of(l: &Loaded, i: usize, c: u64) -> String {
    let player = &l.seats[i].player;
    l.session
        .history()
        .get((c - 1) as usize)
        .map(|r| {
            r.submissions
                .iter()
                .filter(|s| show(&s.player) == *player)
                .map(|s| show(&s.action))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

fn payoff(l: &Loaded, i: usize) -> Value {
    amount(&show(&l.session.state().accounts[i]))
}

/// `session_seed`: the session's seed (group 1's).
fn wide_csv(groups: &[Loaded], session_seed: u64) -> String {
    let n = groups
        .iter()
        .map(|l| l.row.state.chronons)
        .max()
        .unwrap_or(0);
    let mut header: Vec<String> = [
        "participant.id_in_session",
        "participant.code",
        "participant.label",
        "participant.kind",
        "participant.joined_ms",
        "participant.payoff",
        "session.code",
        "session.name",
        "session.seed",
        "group.id_in_subsession",
        "group.code",
        "group.seed",
        "group.status",
        "group.chronons",
        "player.id_in_group",
        "player.role",
        "player.payoff",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.extend((1..=n).map(|c| format!("chronon.{c}.action")));
    let mut rows: Vec<Vec<Value>> = Vec::new();
    for l in groups {
        let chronons = l.row.state.chronons;
        for (i, s) in l.seats.iter().enumerate() {
            let mut r = vec![
                json!(rows.len() + 1),
                json!(code(&l.row.id, i)),
                label(s),
                json!(s.kind),
                json!(s.joined_ms),
                payoff(l, i),
                json!(l.top),
                json!(l.row.name),
                json!(session_seed),
                json!(l.row.group),
                json!(l.row.id),
                json!(l.row.seed),
                json!(l.row.state.status),
                json!(chronons),
                json!(i + 1),
                json!(s.player),
                payoff(l, i),
            ];
            r.extend((1..=n).map(|c| {
                if c <= chronons {
                    json!(actions_of(l, i, c))
                } else {
                    Value::Null
                }
            }));
            rows.push(r);
        }
    }
    csv(&header, &rows)
}

fn payments_csv(groups: &[Loaded]) -> String {
    let header: Vec<String> = [
        "participant.code",
        "participant.label",
        "group",
        "player",
        "link",
        "payoff",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let rows: Vec<Vec<Value>> = groups
        .iter()
        .flat_map(|l| {
            l.seats
                .iter()
                .enumerate()
                .filter(|(_, s)| !s.token.is_empty())
                .map(move |(i, s)| {
                    vec![
                        json!(code(&l.row.id, i)),
                        label(s),
                        json!(l.row.group),
                        json!(s.player),
                        json!(format!("/p/{}", s.token)),
                        payoff(l, i),
                    ]
                })
        })
        .collect();
    csv(&header, &rows)
}

/// The group's record (`sidl-record/1`), with each accepted submission's time and decision time.
fn record(l: &mut Loaded) -> String {
    // the engine's accepted submissions of a chronon are the stored ones, a later one to the same
    // switch replacing an earlier one: each takes the time of the last stored one to its switch
    let times: Vec<Vec<(Option<u64>, Option<u64>)>> = l
        .session
        .history()
        .iter()
        .enumerate()
        .map(|(k, rec)| {
            let c = k as u64 + 1;
            let start = started(l, c);
            rec.submissions
                .iter()
                .map(|sub| {
                    let sw = show(&sub.switch);
                    let at = l
                        .subs
                        .iter()
                        .rfind(|s| s.chronon == k as u64 && s.switch == sw)
                        .map(|s| s.at_ms);
                    (at.map(|a| a as u64), at.map(|a| (a - start).max(0) as u64))
                })
                .collect()
        })
        .collect();
    let kinds: Vec<String> = l.seats.iter().map(|s| s.kind.clone()).collect();
    let mut r = Record::of_session(&mut l.session, &l.game, &l.row.game, &kinds, &times, None);
    // the stored message of a runtime error is already `CODE: message`
    if l.row.state.status == "error" {
        r.end.error = l.row.state.message.clone();
    }
    r.group = Some(format!("{}/{}", l.top, l.row.group));
    for (i, s) in r.seats.iter_mut().enumerate() {
        if l.seats.get(i).is_some_and(|s| !s.token.is_empty()) {
            s.label = Some(code(&l.row.id, i));
        }
    }
    format!("{}\n", r.to_line())
}

/// The export `format` (one of [`FORMATS`]) of session `id`: the file's text. Every group of the
/// session, in order (for `record.jsonl` one record per line, line K group K); `id` a group's own
/// id (`SESSION-K`): that group only.
pub fn export(store: &dyn Store, id: &str, format: &str) -> Result<String, ApiError> {
    if !FORMATS.contains(&format) {
        return Err(ApiError::not_found(
            "unknown_format",
            format!("no export {format:?}; one of {}", FORMATS.join(", ")),
        ));
    }
    let rows = store.groups(id).map_err(ApiError::storage)?;
    if rows.is_empty() {
        return Err(ApiError::not_found(
            "unknown_session",
            format!("no session {id:?}"),
        ));
    }
    let mut groups = rows
        .iter()
        .map(|r| load(store, &r.id))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(match format {
        "events.csv" => events_csv(&groups),
        "events.jsonl" => events_jsonl(&groups),
        "wide.csv" => {
            // the session's seed is group 1's (a group exported alone: look it up)
            let seed = match &rows[0].parent {
                None => rows[0].seed,
                Some(p) => store
                    .session(p)
                    .map_err(ApiError::storage)?
                    .map_or(rows[0].seed, |r| r.seed),
            };
            wide_csv(&groups, seed)
        }
        "payments.csv" => payments_csv(&groups),
        _ => groups.iter_mut().map(record).collect(),
    })
}

/// The content type of an export.
pub fn content_type(format: &str) -> &'static str {
    if format.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else {
        "application/x-ndjson"
    }
}
