//! The routes: the JSON REST API (admin: sessions), the participants' welcome and play pages, their
//! WebSocket, and the static files. Every route that changes something is a POST (or a WebSocket
//! message); a GET never joins a seat or starts anything.
//!
//! | route | who | what |
//! |---|---|---|
//! | `GET /admin` | anyone (the page asks for the token) | the admin page |
//! | `GET/POST /api/sessions`, `GET /api/sessions/{id}` | admin token | list, create, one session |
//! | `GET /api/sessions/{id}/export/{format}` | admin token | a data export (`export.rs`) |
//! | `GET /room/{name}` | anyone with the room link | the room's welcome page (`room.rs`) |
//! | `POST /room/{name}/join` | anyone with the room link | a seat by label or cookie, then its play page |
//! | `GET /p/{token}` | the link's holder | welcome page with a "join" button |
//! | `POST /p/{token}/join` | the link's holder | joins the seat, then the play page (JSON with `Accept: application/json`) |
//! | `GET /p/{token}/seat` | the link's holder | the seat as JSON (the embed element) |
//! | `GET /p/{token}/play` | a joined seat | the participant page |
//! | `GET /p/{token}/ws` | a joined seat | the seat's WebSocket |

use crate::config::{plan, CreateRequest, SessionConfig};
use crate::error::ApiError;
use crate::session::{self, now_ms, ActionIn, Cmd, Live};
use crate::store::{SeatRow, SessionRow, SessionState, Store};
use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use sidl_engine::game::session::DRIVER_SEED_MIX;
use sidl_engine::rng::Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The largest request body (a game's text and its configuration).
pub const MAX_BODY: usize = 1 << 20;
/// The largest WebSocket message from a participant.
pub const MAX_FRAME: usize = 16 << 10;
/// Messages a WebSocket may send per second; more are refused (`rate_limited`).
pub const MAX_MESSAGES_PER_SECOND: u32 = 20;

/// What the routes share.
pub struct App {
    pub store: Arc<dyn Store>,
    pub admin_token: String,
    /// `http://HOST:PORT`, for the links the admin API prints.
    pub base_url: String,
    pub live: Mutex<HashMap<String, Live>>,
    /// The origins whose pages may use the participant links besides the server's own
    /// (`--allow-origin`, `crate::origin`).
    pub origins: crate::origin::Origins,
}

impl App {
    /// Starts the thread of a stored session (if it is not running yet); `drive`: this process
    /// holds its lease (always true with one process).
    pub fn start_session(&self, id: &str, drive: bool) -> Result<(), String> {
        self.start(id, drive).map(|_| ()).map_err(|e| e.message)
    }

    /// The sessions that have a thread here.
    pub fn live_sessions(&self) -> Vec<(String, Live)> {
        let map = self.live.lock().unwrap_or_else(|p| p.into_inner());
        map.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// The live session `id` in this process, if it has a thread here.
    pub fn live(&self, id: &str) -> Option<Live> {
        let map = self.live.lock().unwrap_or_else(|p| p.into_inner());
        map.get(id).cloned()
    }

    /// The live session, started from the store when it is not running yet (a session that had
    /// ended before a restart is loaded when someone asks for it: its participants still see
    /// their end screen and history). Blocking: call it off the async threads. The map's lock is
    /// held while loading, so a session is never started twice.
    ///
    /// With several processes on one database a session started here follows (forwards and
    /// relays) until this process claims its lease.
    fn live_or_start(&self, id: &str) -> Result<Live, ApiError> {
        self.start(id, self.store.cluster().is_none())
    }

    fn start(&self, id: &str, drive: bool) -> Result<Live, ApiError> {
        let mut map = self.live.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(l) = map.get(id) {
            return Ok(l.clone());
        }
        let live = session::spawn(self.store.clone(), id, drive)
            .map_err(|e| ApiError::new(500, "start", e))?;
        map.insert(id.to_string(), live.clone());
        Ok(live)
    }

    /// Creates a session (checks, stores, starts it) and returns its description with the links.
    /// A session of several groups is one row per group (`groups` fixed: all of them now; as many
    /// as arrive: the first now, the others when participants arrive).
    pub fn create(&self, req: &CreateRequest) -> Result<Value, ApiError> {
        let seed = req.config.seed.unwrap_or_else(random_u64);
        let plan = plan(&req.game, &req.config, seed)?;
        let id = random_hex(6);
        let config = SessionConfig {
            seed: Some(seed),
            ..req.config.clone()
        };
        let mut made = Vec::new();
        for k in 1..=plan.groups.unwrap_or(1) {
            let (row, seats) = self.group_rows(&id, &req.game, &config, &plan, k)?;
            self.store
                .create_session(&row, &seats)
                .map_err(ApiError::storage)?;
            // the process that creates a session drives it (its store row names this process)
            if row.state.status == "running" {
                self.start_session(&row.id, true)
                    .map_err(|e| ApiError::new(500, "start", e))?;
            }
            made.push((row, seats));
        }
        let (row, seats) = made[0].clone();
        self.describe(&row, &seats, None, &made)
    }

    /// The rows of group `k` of session `id` (not stored yet): its own id (`id` for group 1,
    /// `id-k` for the others), seed ([`crate::config::group_seed`]) and seat links. A group of a
    /// session with a room waits (`waiting`) until its human seats are all joined.
    fn group_rows(
        &self,
        id: &str,
        game: &str,
        config: &SessionConfig,
        plan: &crate::config::Plan,
        k: u32,
    ) -> Result<(SessionRow, Vec<SeatRow>), ApiError> {
        let seed = crate::config::group_seed(config.seed.unwrap_or(plan.seed), k);
        let gid = if k == 1 {
            id.to_string()
        } else {
            format!("{id}-{k}")
        };
        let group_config = SessionConfig {
            seed: Some(seed),
            ..config.clone()
        };
        let now = now_ms();
        let waits = plan.room.is_some() && (0..plan.seats.len()).any(|i| plan.has_link(i));
        let row = SessionRow {
            id: gid.clone(),
            name: plan.name.clone(),
            game: game.to_string(),
            config: serde_json::to_string(&group_config).map_err(ApiError::storage)?,
            seed,
            created_ms: now,
            state: SessionState {
                status: if waits { "waiting" } else { "running" }.into(),
                message: None,
                chronons: 0,
                chronon_started_ms: now,
                // the first chronon's deadline is set with the session (the following ones with
                // the chronon before them), so it is stored before anyone can act; a waiting
                // group's when it starts
                deadline_ms: if waits {
                    None
                } else {
                    plan.deadline_seconds.map(|s| now + (s * 1000.0) as i64)
                },
                auto_done: None,
                driver_rng: Rng::new(seed ^ DRIVER_SEED_MIX).state,
            },
            group: k,
            parent: (k > 1).then(|| id.to_string()),
            room: if k == 1 { plan.room.clone() } else { None },
            started_ms: (!waits).then_some(now),
        };
        let seats: Vec<SeatRow> = plan
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| SeatRow {
                session: gid.clone(),
                index: i,
                player: crate::config::show(p),
                kind: plan.kind(i),
                token: if plan.has_link(i) {
                    random_hex(32)
                } else {
                    String::new()
                },
                joined_ms: None,
                label: None,
            })
            .collect();
        Ok((row, seats))
    }

    /// A participant arrives through the room of session `top` (group 1's row), with a label or
    /// not: the seat the label already holds, else the next free seat (a new group when every
    /// seat is taken and the session takes as many groups as arrive). Blocking.
    pub fn arrive(&self, top: &SessionRow, label: Option<&str>) -> Result<SeatRow, ApiError> {
        let config: SessionConfig = serde_json::from_str(&top.config)
            .map_err(|e| ApiError::new(500, "storage", format!("stored configuration: {e}")))?;
        let plan = plan(&top.game, &config, top.seed)?;
        // a few rounds: another process may create the same new group meanwhile
        for _ in 0..5 {
            let claimed = self
                .store
                .claim_seat(&top.id, label, now_ms())
                .map_err(ApiError::storage)?;
            if let Some(seat) = claimed {
                self.maybe_start(&seat.session)?;
                return Ok(seat);
            }
            if plan.groups.is_some() {
                return Err(ApiError::new(
                    409,
                    "session_full",
                    "every seat of this session is taken",
                ));
            }
            let groups = self.store.groups(&top.id).map_err(ApiError::storage)?;
            let k = groups.iter().map(|g| g.group).max().unwrap_or(1) + 1;
            if k > crate::config::MAX_GROUPS {
                return Err(ApiError::new(409, "session_full", "too many groups"));
            }
            let (row, seats) = self.group_rows(&top.id, &top.game, &config, &plan, k)?;
            if let Err(e) = self.store.create_session(&row, &seats) {
                eprintln!("sidl serve: session {}: group {k}: {e}", top.id);
            }
        }
        Err(ApiError::new(
            503,
            "storage",
            "no seat could be claimed; try again",
        ))
    }

    /// Starts a `waiting` group whose human seats have all joined (its first chronon starts now).
    pub fn maybe_start(&self, group: &str) -> Result<(), ApiError> {
        let row = self
            .store
            .session(group)
            .map_err(ApiError::storage)?
            .ok_or_else(|| unknown_session(group))?;
        if row.state.status != "waiting" {
            return Ok(());
        }
        let seats = self.store.seats(group).map_err(ApiError::storage)?;
        if seats
            .iter()
            .any(|s| !s.token.is_empty() && s.joined_ms.is_none())
        {
            return Ok(());
        }
        let config: SessionConfig = serde_json::from_str(&row.config)
            .map_err(|e| ApiError::new(500, "storage", format!("stored configuration: {e}")))?;
        let plan = plan(&row.game, &config, row.seed)?;
        let now = now_ms();
        let deadline = plan.deadline_seconds.map(|s| now + (s * 1000.0) as i64);
        if !self
            .store
            .start_group(group, now, deadline)
            .map_err(ApiError::storage)?
        {
            return Ok(());
        }
        match self.live(group) {
            Some(l) => {
                let _ = l.tx.send(Cmd::Reload);
            }
            // with several processes the group gets its driver at the next lease round
            None if self.store.cluster().is_none() => {
                self.start_session(group, true)
                    .map_err(|e| ApiError::new(500, "start", e))?;
            }
            None => {}
        }
        Ok(())
    }

    fn seats_json(&self, seats: &[SeatRow]) -> Vec<Value> {
        seats
            .iter()
            .map(|s| {
                json!({
                    "player": s.player,
                    "kind": s.kind,
                    "link": (!s.token.is_empty()).then(|| format!("{}/p/{}", self.base_url, s.token)),
                    "joined_ms": s.joined_ms,
                    "label": s.label,
                })
            })
            .collect()
    }

    /// A session (one group's row and seats) for the admin API; `groups`: every group of the
    /// session, when `row` is group 1 of a session with several or with a room.
    fn describe(
        &self,
        row: &SessionRow,
        seats: &[SeatRow],
        live: Option<Value>,
        groups: &[(SessionRow, Vec<SeatRow>)],
    ) -> Result<Value, ApiError> {
        let config: Value = serde_json::from_str(&row.config).unwrap_or(Value::Null);
        let mut out = json!({
            "id": row.id,
            "name": row.name,
            "seed": row.seed,
            "created_ms": row.created_ms,
            "config": config,
            "status": row.state.status,
            "message": row.state.message,
            "chronon": row.state.chronons,
            "deadline_ms": row.state.deadline_ms,
            "seats": self.seats_json(seats),
            "live": live,
        });
        if row.group > 1 || row.parent.is_some() {
            out["group"] = json!(row.group);
            out["parent"] = json!(row.parent);
        }
        if let Some(r) = &row.room {
            out["room"] = json!(format!("{}/room/{r}", self.base_url));
        }
        if row.room.is_some() || groups.len() > 1 {
            out["groups"] = Value::Array(
                groups
                    .iter()
                    .map(|(g, s)| {
                        json!({
                            "group": g.group,
                            "id": g.id,
                            "seed": g.seed,
                            "status": g.state.status,
                            "chronon": g.state.chronons,
                            "seats": self.seats_json(s),
                        })
                    })
                    .collect(),
            );
        }
        Ok(out)
    }
}

/// Random bytes from the operating system, as lowercase hex (`n` bytes: `2n` digits).
pub fn random_hex(n: usize) -> String {
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).expect("the operating system's random source");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

fn random_u64() -> u64 {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).expect("the operating system's random source");
    u64::from_le_bytes(buf)
}

/// Compares secrets in time independent of where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

pub(crate) fn check_admin(app: &App, headers: &HeaderMap) -> Result<(), ApiError> {
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if same_secret(given.trim(), &app.admin_token) {
        Ok(())
    } else {
        Err(ApiError::forbidden())
    }
}

/// Runs a store call off the async threads.
pub(crate) async fn db<T: Send + 'static>(
    app: &Arc<App>,
    f: impl FnOnce(&dyn Store) -> Result<T, crate::store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = app.store.clone();
    tokio::task::spawn_blocking(move || f(store.as_ref()))
        .await
        .map_err(|e| ApiError::new(500, "internal", e.to_string()))?
        .map_err(ApiError::storage)
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/admin", get(admin_page))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/static/{file}", get(static_file))
        .route("/api/sessions", get(list_sessions).post(create_session))
        .route("/api/sessions/{id}", get(get_session))
        .route("/api/sessions/{id}/export/{format}", get(export_session))
        .route("/admin/monitor", get(crate::monitor::monitor_page))
        .route(
            "/api/sessions/{id}/monitor",
            get(crate::monitor::get_monitor),
        )
        .route("/api/sessions/{id}/events", get(crate::monitor::get_events))
        .route("/api/sessions/{id}/{op}", post(crate::monitor::post_action))
        .route(
            "/api/sessions/{id}/seats/{index}/replace",
            post(crate::monitor::post_replace),
        )
        .route(
            "/api/sessions/{id}/seats/{index}/submit",
            post(crate::monitor::post_submit),
        )
        .route("/room/{room}", get(crate::room::welcome))
        .route("/room/{room}/join", post(crate::room::join))
        .route("/p/{token}", get(welcome))
        .route("/p/{token}/join", post(join))
        .route("/p/{token}/seat", get(seat_info))
        .route("/p/{token}/play", get(play_page))
        .route("/p/{token}/ws", get(ws))
        .fallback(|| async { ApiError::not_found("not_found", "no such route") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

pub(crate) fn page(html: String) -> Response {
    (
        [
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (
                header::REFERRER_POLICY,
                HeaderValue::from_static("no-referrer"),
            ),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'"),
            ),
        ],
        Html(html),
    )
        .into_response()
}

async fn index() -> Response {
    page(crate::assets::INDEX_HTML.to_string())
}

async fn admin_page() -> Response {
    page(crate::assets::ADMIN_HTML.to_string())
}

async fn static_file(Path(file): Path<String>) -> Response {
    let (body, ty) = match file.as_str() {
        "play.js" => (crate::assets::PLAY_JS, "text/javascript; charset=utf-8"),
        "admin.js" => (crate::assets::ADMIN_JS, "text/javascript; charset=utf-8"),
        "monitor.js" => (crate::assets::MONITOR_JS, "text/javascript; charset=utf-8"),
        "serve.css" => (crate::assets::SERVE_CSS, "text/css; charset=utf-8"),
        "playground-play.js" => (
            crate::assets::PLAYGROUND_PLAY_JS,
            "text/javascript; charset=utf-8",
        ),
        "playground-board.js" => (
            crate::assets::PLAYGROUND_BOARD_JS,
            "text/javascript; charset=utf-8",
        ),
        _ => return ApiError::not_found("not_found", "no such file").into_response(),
    };
    ([(header::CONTENT_TYPE, ty)], body).into_response()
}

async fn list_sessions(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    check_admin(&app, &headers)?;
    let rows = db(&app, |s| s.sessions()).await?;
    // a session's groups 2, 3, … are listed with it (`GET /api/sessions/{id}`), not here
    let list: Vec<Value> = rows
        .iter()
        .filter(|r| r.parent.is_none())
        .map(|r| {
            json!({
                "id": r.id, "name": r.name, "status": r.state.status,
                "chronon": r.state.chronons, "created_ms": r.created_ms,
            })
        })
        .collect();
    Ok(Json(json!({ "sessions": list })))
}

async fn create_session(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    check_admin(&app, &headers)?;
    let req: CreateRequest = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request("bad_json", format!("not a session request: {e}")))?;
    let app2 = app.clone();
    let out = tokio::task::spawn_blocking(move || app2.create(&req))
        .await
        .map_err(|e| ApiError::new(500, "internal", e.to_string()))??;
    Ok((StatusCode::CREATED, Json(out)))
}

pub(crate) fn unknown_session(id: &str) -> ApiError {
    ApiError::not_found("unknown_session", format!("no session {id:?}"))
}

async fn get_session(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    check_admin(&app, &headers)?;
    let id2 = id.clone();
    let row = db(&app, move |s| s.session(&id2))
        .await?
        .ok_or_else(|| unknown_session(&id))?;
    let id2 = id.clone();
    let seats = db(&app, move |s| s.seats(&id2)).await?;
    let live = match started(&app, &id).await.ok() {
        Some(l) => {
            let (tx, rx) = std::sync::mpsc::channel();
            let _ = l.tx.send(Cmd::Status { reply: tx });
            tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(10)).ok())
                .await
                .ok()
                .flatten()
        }
        None => None,
    };
    let groups = if row.parent.is_none() {
        let id2 = id.clone();
        db(&app, move |s| {
            let mut out = Vec::new();
            for g in s.groups(&id2)? {
                let seats = s.seats(&g.id)?;
                out.push((g, seats));
            }
            Ok(out)
        })
        .await?
    } else {
        Vec::new()
    };
    let mut out = app.describe(&row, &seats, live, &groups)?;
    // the game's text, for the bots' AI participants (`sidl serve bots --participants ai:SPEC`)
    out["game"] = json!(row.game);
    Ok(Json(out))
}

/// A data export (`crate::export`): the file's text, with a name to save it under.
async fn export_session(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path((id, format)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    check_admin(&app, &headers)?;
    let store = app.store.clone();
    let (id2, f2) = (id.clone(), format.clone());
    let text =
        tokio::task::spawn_blocking(move || crate::export::export(store.as_ref(), &id2, &f2))
            .await
            .map_err(|e| ApiError::new(500, "internal", e.to_string()))??;
    let disposition = format!("attachment; filename=\"sidl-{id}-{format}\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                crate::export::content_type(&format).to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// [`App::live_or_start`] off the async threads.
pub(crate) async fn started(app: &Arc<App>, id: &str) -> Result<Live, ApiError> {
    let (app, id) = (app.clone(), id.to_string());
    tokio::task::spawn_blocking(move || app.live_or_start(&id))
        .await
        .map_err(|e| ApiError::new(500, "internal", e.to_string()))?
}

async fn seat_of(app: &Arc<App>, token: &str) -> Result<SeatRow, ApiError> {
    let t = token.to_string();
    db(app, move |s| s.seat_by_token(&t))
        .await?
        .ok_or_else(|| ApiError::not_found("unknown_link", "this link opens no seat"))
}

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

async fn welcome(State(app): State<Arc<App>>, Path(token): Path<String>) -> Response {
    let seat = match seat_of(&app, &token).await {
        Ok(s) => s,
        Err(e) => {
            return (
                StatusCode::NOT_FOUND,
                page(crate::assets::message_page("Unknown link", &e.message)),
            )
                .into_response()
        }
    };
    let sid = seat.session.clone();
    let name = db(&app, move |s| s.session(&sid))
        .await
        .ok()
        .flatten()
        .map(|r| r.name)
        .unwrap_or_default();
    page(
        crate::assets::WELCOME_HTML
            .replace("{{session}}", &escape(&name))
            .replace("{{player}}", &escape(&seat.player))
            .replace("{{token}}", &escape(&token)),
    )
}

/// Does the request ask for JSON (the embed element) rather than a page?
fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("application/json"))
}

/// A participant route's JSON answer, with the CORS headers of a listed origin (the refusal of
/// an origin carries them too, so that the refused page can read why).
/// The page's origin when the allow-list admits it (`None`: a request without one), else the
/// refusal to answer at once (with CORS for the sender, so that its page can read why).
fn allowed_origin(app: &App, headers: &HeaderMap) -> Result<Option<String>, Box<Response>> {
    app.origins
        .check(headers)
        .map_err(|e| Box::new(cross(Err(e), crate::origin::sent(headers))))
}

fn cross(r: Result<Response, ApiError>, origin: Option<String>) -> Response {
    crate::origin::cors(
        r.unwrap_or_else(IntoResponse::into_response),
        origin.as_deref(),
    )
}

async fn join(
    State(app): State<Arc<App>>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let origin = match allowed_origin(&app, &headers) {
        Ok(o) => o,
        Err(refused) => return *refused,
    };
    let r = async {
        let seat = seat_of(&app, &token).await?;
        if seat.joined_ms.is_none() {
            let (sid, i) = (seat.session.clone(), seat.index);
            db(&app, move |s| s.join_seat(&sid, i, now_ms())).await?;
            // the last seat of a waiting group to join starts it
            let app2 = app.clone();
            let group = seat.session.clone();
            tokio::task::spawn_blocking(move || app2.maybe_start(&group))
                .await
                .map_err(|e| ApiError::new(500, "internal", e.to_string()))??;
        }
        if wants_json(&headers) {
            return Ok(Json(json!({
                "player": seat.player,
                "play": format!("/p/{token}/play"),
                "ws": format!("/p/{token}/ws"),
            }))
            .into_response());
        }
        Ok(Redirect::to(&format!("/p/{token}/play")).into_response())
    }
    .await;
    cross(r, origin)
}

/// `GET /p/TOKEN/seat`: what the welcome page says, as JSON (the embed element): the session's
/// name, the player and whether the seat was joined. Changes nothing.
async fn seat_info(
    State(app): State<Arc<App>>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let origin = match allowed_origin(&app, &headers) {
        Ok(o) => o,
        Err(refused) => return *refused,
    };
    let r = async {
        let seat = seat_of(&app, &token).await?;
        let sid = seat.session.clone();
        let name = db(&app, move |s| s.session(&sid))
            .await?
            .map(|r| r.name)
            .unwrap_or_default();
        Ok(Json(json!({
            "session": name,
            "player": seat.player,
            "joined": seat.joined_ms.is_some(),
        }))
        .into_response())
    }
    .await;
    cross(r, origin)
}

async fn play_page(State(app): State<Arc<App>>, Path(token): Path<String>) -> Response {
    match seat_of(&app, &token).await {
        Ok(seat) if seat.joined_ms.is_some() => page(crate::assets::PLAY_HTML.to_string()),
        Ok(_) => Redirect::to(&format!("/p/{token}")).into_response(),
        Err(e) => (
            StatusCode::NOT_FOUND,
            page(crate::assets::message_page("Unknown link", &e.message)),
        )
            .into_response(),
    }
}

async fn ws(
    State(app): State<Arc<App>>,
    Path(token): Path<String>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // a page on an origin that is not allowed: the handshake succeeds so that the page can read
    // why (a refused handshake is only "failed" to it), then one error frame and the close
    if let Err(e) = app.origins.check(&headers) {
        return Ok(upgrade.on_upgrade(move |mut socket| async move {
            let _ = socket.send(Message::Text(e.frame().into())).await;
            let _ = socket
                .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                    code: 1008,
                    reason: "origin_not_allowed".into(),
                })))
                .await;
        }));
    }
    let seat = seat_of(&app, &token).await?;
    if seat.joined_ms.is_none() {
        return Err(ApiError::new(
            409,
            "not_joined",
            "join the seat first (the button on its welcome page)",
        ));
    }
    let live = started(&app, &seat.session).await?;
    Ok(upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| participant(socket, live, seat.index)))
}

/// A participant's WebSocket: the seat's frames out; `submit` messages in. The session holds the
/// only lasting sender of the seat's queue, so when it drops the subscription (a full queue) the
/// loop ends and the socket closes.
async fn participant(mut socket: WebSocket, live: Live, seat: usize) {
    let (out, mut frames) = tokio::sync::mpsc::channel::<String>(session::SEAT_QUEUE);
    let weak = out.downgrade();
    if live.tx.send(Cmd::Subscribe { seat, out }).is_err() {
        return;
    }
    let mut window = Instant::now();
    let mut count = 0u32;
    loop {
        let reply = tokio::select! {
            frame = frames.recv() => {
                let Some(frame) = frame else { break };
                frame
            }
            msg = socket.recv() => {
                let text = match msg {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(_))) => {
                        ApiError::bad_request("bad_frame", "send JSON text frames").frame()
                    }
                    Some(Ok(Message::Text(t))) => {
                        if window.elapsed() >= Duration::from_secs(1) {
                            window = Instant::now();
                            count = 0;
                        }
                        count += 1;
                        if count > MAX_MESSAGES_PER_SECOND {
                            ApiError::new(429, "rate_limited", "too many messages; slow down").frame()
                        } else {
                            match parse_message(t.as_str()) {
                                Ok(Incoming::Submit { chronon, switch, action }) => {
                                    // the acknowledgement comes through the seat's queue, in order
                                    let Some(out) = weak.upgrade() else { break };
                                    let cmd = Cmd::Submit { seat, chronon, switch, action, out };
                                    if live.tx.send(cmd).is_err() {
                                        break;
                                    }
                                    continue;
                                }
                                Ok(Incoming::Observe) => {
                                    let Some(out) = weak.upgrade() else { break };
                                    if live.tx.send(Cmd::Observe { seat, out }).is_err() {
                                        break;
                                    }
                                    continue;
                                }
                                Ok(Incoming::Ping) => json!({"type": "pong", "now_ms": now_ms()}).to_string(),
                                Err(e) => e.frame(),
                            }
                        }
                    }
                };
                text
            }
        };
        if socket.send(Message::Text(reply.into())).await.is_err() {
            break;
        }
    }
    let _ = live.tx.send(Cmd::Disconnected { seat });
}

/// A participant's message.
pub(crate) enum Incoming {
    Submit {
        chronon: u64,
        switch: String,
        action: ActionIn,
    },
    Ping,
    /// The seat's observation (`crate::observe`), for AI participants.
    Observe,
}

pub(crate) fn parse_message(text: &str) -> Result<Incoming, ApiError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| ApiError::bad_request("bad_json", format!("not JSON: {e}")))?;
    let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    match v.get("type").and_then(Value::as_str) {
        Some("submit") => {
            let chronon = v.get("chronon").and_then(Value::as_u64).ok_or_else(|| {
                ApiError::bad_request("bad_message", "a submit message needs \"chronon\": the number of chronons run")
            })?;
            let switch = field("switch");
            let template = v.get("template").and_then(Value::as_u64);
            let values: Option<Vec<String>> = v.get("values").and_then(Value::as_array).and_then(|a| {
                a.iter().map(|x| x.as_str().map(str::to_string)).collect()
            });
            match (switch, field("action"), template, values) {
                (Some(switch), Some(action), None, None) => Ok(Incoming::Submit {
                    chronon,
                    switch,
                    action: ActionIn::Text(action),
                }),
                (Some(switch), None, Some(template), Some(values)) => Ok(Incoming::Submit {
                    chronon,
                    switch,
                    action: ActionIn::Fill { template: template as usize, values },
                }),
                _ => Err(ApiError::bad_request(
                    "bad_message",
                    "a submit message needs \"switch\" and either \"action\" (canonical text) or \"template\" (an index) and \"values\" (texts)",
                )),
            }
        }
        Some("ping") => Ok(Incoming::Ping),
        Some("observe") => Ok(Incoming::Observe),
        _ => Err(ApiError::bad_request(
            "bad_message",
            "a message is {\"type\": \"submit\", \"chronon\", \"switch\", \"action\"} or {\"type\": \"ping\"}",
        )),
    }
}
