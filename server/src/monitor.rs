//! The experimenter's monitor (docs/serve.md, "Monitor"): admin-token routes over the session
//! threads' [`Cmd::Monitor`] and [`Cmd::Admin`], and the live page `/admin/monitor` (it polls).
//!
//! | route | what |
//! |---|---|
//! | `GET /api/sessions/{id}/monitor` | every group: status, chronon, deadline, seats (label, joined, connections, disconnected since, idle since, to act), the designer's view |
//! | `GET /api/sessions/{id}/events?after=N` | the stored events (connections, refusals, the monitor's actions) of every group, after event N |
//! | `POST /api/sessions/{id}/pause`, `…/resume`, `…/advance` | on `ID`: every group; on `ID-K`: that group |
//! | `POST /api/sessions/{id}/seats/{index}/replace` | `{"ai": SPEC}`: seat `index` (from 0) of that group played by an AI from now on |
//! | `POST /api/sessions/{id}/seats/{index}/submit` | `{"switch", "action"}` or `{"switch", "template", "values"}`: the experimenter's submission for a seat it plays (`experimenter`) |

use crate::api::{check_admin, db, page, started, unknown_session, App};
use crate::error::ApiError;
use crate::session::Cmd;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// How long an action may take (an AI's move when a seat is replaced, a forwarded action).
const ACTION_TIMEOUT: Duration = Duration::from_secs(60);

pub async fn monitor_page() -> Response {
    page(crate::assets::MONITOR_HTML.to_string())
}

/// The groups a request names: `ID` every group of the session, `ID-K` that group.
async fn groups_of(app: &Arc<App>, id: &str) -> Result<Vec<crate::store::SessionRow>, ApiError> {
    let id2 = id.to_string();
    let groups = db(app, move |s| s.groups(&id2)).await?;
    if groups.is_empty() {
        return Err(unknown_session(id));
    }
    Ok(groups)
}

pub async fn get_monitor(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    check_admin(&app, &headers)?;
    let mut out = Vec::new();
    for g in groups_of(&app, &id).await? {
        let gid = g.id.clone();
        let seats = db(&app, move |s| s.seats(&gid)).await?;
        let live = started(&app, &g.id).await?;
        let (tx, rx) = std::sync::mpsc::channel();
        let _ = live.tx.send(Cmd::Monitor { reply: tx });
        let mut m = tokio::task::spawn_blocking(move || rx.recv_timeout(ACTION_TIMEOUT).ok())
            .await
            .ok()
            .flatten()
            .ok_or_else(|| ApiError::new(503, "busy", "the session did not answer"))?;
        if let Some(list) = m["seats"].as_array_mut() {
            for (v, s) in list.iter_mut().zip(&seats) {
                v["label"] = json!(s.label);
                v["joined_ms"] = json!(s.joined_ms);
            }
        }
        m["group"] = json!(g.group);
        out.push(m);
    }
    // who is in the room but not playing yet: the participants of groups that wait to be full
    let waiting: Vec<Value> = out
        .iter()
        .filter(|g| g["status"] == "waiting")
        .flat_map(|g| {
            g["seats"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|s| !s["joined_ms"].is_null())
                .map(|s| {
                    json!({
                        "group": g["group"],
                        "player": s["player"],
                        "label": s["label"],
                        "joined_ms": s["joined_ms"],
                        "connected": s["connections"].as_u64().unwrap_or(0) > 0,
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect();
    Ok(Json(
        json!({ "session": id, "groups": out, "room_waiting": waiting }),
    ))
}

pub async fn get_events(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    check_admin(&app, &headers)?;
    let after: i64 = q.get("after").and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut out = Vec::new();
    for g in groups_of(&app, &id).await? {
        let gid = g.id.clone();
        let (events, seats) = db(&app, move |s| Ok((s.events(&gid)?, s.seats(&gid)?))).await?;
        for e in events.into_iter().filter(|e| e.id > after) {
            let seat = seats.get(e.seat);
            out.push(json!({
                "id": e.id,
                "group": g.group,
                "chronon": e.chronon + 1,
                "seat": seat.map(|_| e.seat),
                "player": seat.map(|s| s.player.clone()),
                "label": seat.and_then(|s| s.label.clone()),
                "event": e.kind,
                "detail": serde_json::from_str::<Value>(&e.detail).unwrap_or(Value::Null),
                "at_ms": e.at_ms,
            }));
        }
    }
    out.sort_by_key(|v| v["id"].as_i64());
    Ok(Json(json!({ "events": out })))
}

/// Sends an action to a group's thread and waits for its answer.
async fn act(app: &Arc<App>, gid: &str, msg: Value) -> Result<Value, ApiError> {
    let live = started(app, gid).await?;
    let (tx, mut rx) = tokio::sync::mpsc::channel(4);
    live.tx
        .send(Cmd::Admin { msg, out: tx })
        .map_err(|_| ApiError::new(503, "busy", "the session's thread is gone"))?;
    let frame = tokio::time::timeout(ACTION_TIMEOUT, rx.recv())
        .await
        .ok()
        .flatten()
        .ok_or_else(|| ApiError::new(503, "busy", "the session did not answer in time"))?;
    let v: Value = serde_json::from_str(&frame).unwrap_or(Value::Null);
    if v["type"] == "error" {
        let code = v["code"].as_str().unwrap_or("error");
        let status = match code {
            "not_running" | "not_paused" | "not_human" | "not_experimenter" | "stale_chronon" => {
                409
            }
            "unknown_seat" => 404,
            "storage" => 503,
            _ => 400,
        };
        return Err(ApiError::new(
            status,
            code,
            v["message"].as_str().unwrap_or_default(),
        ));
    }
    Ok(v)
}

/// `pause`, `resume`, `advance`: on every group the request names. With one group its answer or
/// its error; with several every group's answer (`ok` or `error`).
pub async fn post_action(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path((id, op)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    check_admin(&app, &headers)?;
    if !matches!(op.as_str(), "pause" | "resume" | "advance") {
        return Err(ApiError::not_found("not_found", "no such route"));
    }
    let groups = groups_of(&app, &id).await?;
    if let [g] = groups.as_slice() {
        let v = act(&app, &g.id, json!({"type": "admin", "op": op})).await?;
        return Ok(Json(json!({ "group": g.group, "id": g.id, "ok": v })));
    }
    let mut out = Vec::new();
    for g in &groups {
        let r = act(&app, &g.id, json!({"type": "admin", "op": op})).await;
        out.push(match r {
            Ok(v) => json!({ "group": g.group, "id": g.id, "ok": v }),
            Err(e) => json!({ "group": g.group, "id": g.id, "error": {"code": e.code, "message": e.message} }),
        });
    }
    Ok(Json(json!({ "groups": out })))
}

pub async fn post_replace(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path((id, index)): Path<(String, usize)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    check_admin(&app, &headers)?;
    let b: Value = json_body(&body)?;
    let ai = b["ai"]
        .as_str()
        .ok_or_else(|| ApiError::bad_request("bad_json", "the body is {\"ai\": SPEC}"))?;
    let id2 = id.clone();
    db(&app, move |s| s.session(&id2))
        .await?
        .ok_or_else(|| unknown_session(&id))?;
    let v = act(
        &app,
        &id,
        json!({"type": "admin", "op": "replace", "seat": index, "ai": ai}),
    )
    .await?;
    Ok(Json(v))
}

/// The experimenter's submission for a seat it plays (`experimenter` in the configuration, or a
/// player named `experimenter`): `{"switch", "action"}` or `{"switch", "template", "values"}`,
/// optionally `"chronon"` (the chronons run, as a participant sends it). Answers the `ack`.
pub async fn post_submit(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path((id, index)): Path<(String, usize)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    check_admin(&app, &headers)?;
    let mut b: Value = json_body(&body)?;
    if !b.is_object() {
        return Err(ApiError::bad_request(
            "bad_json",
            "the body is {\"switch\", \"action\"} or {\"switch\", \"template\", \"values\"}",
        ));
    }
    let id2 = id.clone();
    db(&app, move |s| s.session(&id2))
        .await?
        .ok_or_else(|| unknown_session(&id))?;
    b["type"] = json!("admin");
    b["op"] = json!("submit");
    b["seat"] = json!(index);
    Ok(Json(act(&app, &id, b).await?))
}

/// A request body as JSON, or the `bad_json` refusal.
fn json_body(body: &[u8]) -> Result<Value, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request("bad_json", format!("not JSON: {e}")))
}
