//! The one error shape of the API: an HTTP status, a stable code and a message, sent as
//! `{"error": {"code", "message", "details"}}` (REST) or `{"type": "error", ...}` (WebSocket).
//! Codes: the engine's diagnostic codes where one applies (`E09xx` runtime errors, `E0943` for a
//! player that is not one), else the server's own words (`bad_json`, `unknown_session`,
//! `unknown_link`, `stale_chronon`, `rejected`, `forbidden`, ...; docs/serve.md lists them).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sidl_engine::game::RuntimeError;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ApiError {
    #[serde(skip)]
    pub status: u16,
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

impl ApiError {
    pub fn new(status: u16, code: &str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code: code.to_string(),
            message: message.into(),
            details: None,
        }
    }
    pub fn bad_request(code: &str, message: impl Into<String>) -> ApiError {
        ApiError::new(400, code, message)
    }
    pub fn not_found(code: &str, message: impl Into<String>) -> ApiError {
        ApiError::new(404, code, message)
    }
    pub fn forbidden() -> ApiError {
        ApiError::new(
            401,
            "forbidden",
            "this needs the admin token (Authorization: Bearer TOKEN)",
        )
    }
    pub fn storage(e: impl std::fmt::Display) -> ApiError {
        ApiError::new(503, "storage", e.to_string())
    }
    /// A runtime error of the game: its engine diagnostic's code and message.
    pub fn runtime(e: &RuntimeError) -> ApiError {
        let d = e.to_diagnostic();
        ApiError::new(500, d.code, d.message)
    }
    pub fn with_status(mut self, status: u16) -> ApiError {
        self.status = status;
        self
    }
    pub fn with_details(mut self, details: serde_json::Value) -> ApiError {
        self.details = Some(details);
        self
    }
    /// The WebSocket form.
    pub fn frame(&self) -> String {
        serde_json::json!({"type": "error", "code": self.code, "message": self.message}).to_string()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(serde_json::json!({ "error": self }))).into_response()
    }
}
