//! Room links (docs/serve.md, "Rooms and groups"): `/room/NAME` opens the newest session whose
//! configuration names the room NAME, for any number of participants. A GET shows a welcome page
//! and changes nothing (link scanners start nothing); the page's button POSTs, which takes a seat
//! ([`crate::store::Store::claim_seat`]: the seat the participant label already holds, else the
//! next free one, group after group) and leads to that seat's play page `/p/TOKEN/play`.
//!
//! A participant is known again by its label (`?participant_label=`, e.g. from a lab PC's start
//! page or a panel such as Prolific) or, without one, by a cookie holding its seat's token
//! (`sidl_seat`, limited to the room's path): the same label or cookie returns the same seat.

use crate::api::{db, escape, page, App};
use crate::config::{check_label, SessionConfig};
use crate::error::ApiError;
use crate::store::SessionRow;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::Arc;

/// The name of the cookie that holds a participant's seat token (without a label).
pub const COOKIE: &str = "sidl_seat";

#[derive(Deserialize)]
pub struct RoomQuery {
    #[serde(default)]
    participant_label: Option<String>,
}

impl RoomQuery {
    fn label(&self) -> Option<&str> {
        self.participant_label
            .as_deref()
            .map(str::trim)
            .filter(|l| !l.is_empty())
    }
}

fn error_page(e: &ApiError) -> Response {
    let title = match e.code.as_str() {
        "unknown_room" => "Unknown room",
        "session_full" => "The session is full",
        "origin_not_allowed" => "This page may not join",
        _ => "Cannot join",
    };
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::BAD_REQUEST);
    (status, page(crate::assets::message_page(title, &e.message))).into_response()
}

/// Percent-encodes a query value (RFC 3986 unreserved characters stay).
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The room's session and its expected labels; checks the label against them.
async fn room_session(
    app: &Arc<App>,
    room: &str,
    label: Option<&str>,
) -> Result<(SessionRow, Vec<String>), ApiError> {
    let r = room.to_string();
    let row = db(app, move |s| s.session_by_room(&r))
        .await?
        .ok_or_else(|| ApiError::not_found("unknown_room", format!("no room {room:?}")))?;
    let config: SessionConfig = serde_json::from_str(&row.config)
        .map_err(|e| ApiError::new(500, "storage", format!("stored configuration: {e}")))?;
    if let Some(l) = label {
        check_label(l)?;
        if !config.labels.is_empty() && !config.labels.iter().any(|x| x == l) {
            return Err(ApiError::new(
                403,
                "unknown_label",
                format!("the label {l:?} is not one this session expects"),
            ));
        }
    }
    Ok((row, config.labels))
}

/// `GET /room/NAME[?participant_label=L]`: the welcome page (a label field when the session
/// expects labels and none was given). Changes nothing.
pub async fn welcome(
    State(app): State<Arc<App>>,
    Path(room): Path<String>,
    Query(q): Query<RoomQuery>,
) -> Response {
    let label = q.label();
    let (row, labels) = match room_session(&app, &room, label).await {
        Ok(x) => x,
        Err(e) => return error_page(&e),
    };
    let body = match label {
        None if !labels.is_empty() => format!(
            "<p>Enter your participant label to join.</p>\
             <form method=\"get\" action=\"/room/{r}\">\
             <label>Participant label <input name=\"participant_label\" id=\"label\" required></label> \
             <button type=\"submit\" id=\"next\">Next</button></form>",
            r = escape(&room)
        ),
        _ => {
            let (who, query) = match label {
                Some(l) => (
                    format!("<p>Participant <strong>{}</strong>.</p>", escape(l)),
                    format!("?participant_label={}", encode(l)),
                ),
                None => (String::new(), String::new()),
            };
            format!(
                "{who}<p>Nothing has started yet: press the button when you are ready. You play \
                 in a group with the participants who arrive with you; if you come back later \
                 (with the same label, or in this browser), you return to your seat.</p>\
                 <form method=\"post\" action=\"/room/{r}/join{q}\">\
                 <button type=\"submit\" id=\"join\">Join the session</button></form>",
                r = escape(&room),
                q = escape(&query)
            )
        }
    };
    page(
        crate::assets::ROOM_HTML
            .replace("{{session}}", &escape(&row.name))
            .replace("{{body}}", &body),
    )
}

/// The seat token in the request's `sidl_seat` cookie, if any.
fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `POST /room/NAME/join[?participant_label=L]`: a seat (the label's, the cookie's, or the next
/// free one), then its play page, with the cookie set.
pub async fn join(
    State(app): State<Arc<App>>,
    Path(room): Path<String>,
    Query(q): Query<RoomQuery>,
    headers: HeaderMap,
) -> Response {
    // a page of another origin that is not allowed takes no seat (`crate::origin`)
    if let Err(e) = app.origins.check(&headers) {
        return error_page(&e);
    }
    match join_inner(&app, &room, q.label(), cookie_token(&headers)).await {
        Ok(token) => {
            let cookie = format!(
                "{COOKIE}={token}; Path=/room/{room}; HttpOnly; SameSite=Lax; Max-Age=2592000"
            );
            let mut resp = (
                StatusCode::SEE_OTHER,
                [(header::LOCATION, format!("/p/{token}/play"))],
            )
                .into_response();
            if let Ok(v) = HeaderValue::from_str(&cookie) {
                resp.headers_mut().insert(header::SET_COOKIE, v);
            }
            resp
        }
        Err(e) => error_page(&e),
    }
}

async fn join_inner(
    app: &Arc<App>,
    room: &str,
    label: Option<&str>,
    cookie: Option<String>,
) -> Result<String, ApiError> {
    let (row, labels) = room_session(app, room, label).await?;
    if label.is_none() && !labels.is_empty() {
        return Err(ApiError::bad_request(
            "label_required",
            "this session admits participants by their label",
        ));
    }
    // without a label: the seat this browser had in this session
    if let (None, Some(t)) = (label, cookie) {
        let top = row.id.clone();
        let seat = db(app, move |s| {
            let seat = s.seat_by_token(&t)?;
            let groups = s.groups(&top)?;
            Ok(seat.filter(|x| groups.iter().any(|g| g.id == x.session)))
        })
        .await?;
        // a seat without a label only: a labelled seat is returned by its label
        if let Some(seat) = seat.filter(|x| x.label.is_none() && x.joined_ms.is_some()) {
            return Ok(seat.token);
        }
    }
    let app2 = app.clone();
    let label = label.map(str::to_string);
    let seat = tokio::task::spawn_blocking(move || app2.arrive(&row, label.as_deref()))
        .await
        .map_err(|e| ApiError::new(500, "internal", e.to_string()))??;
    Ok(seat.token)
}
