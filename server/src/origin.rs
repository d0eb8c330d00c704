//! Which web pages may use a participant's link (docs/serve.md, "Embedding a seat"): the
//! allow-list of origins checked on the participant routes that act (`POST /p/TOKEN/join`, the
//! seat's WebSocket, `GET /p/TOKEN/seat`, `POST /room/NAME/join`), and the CORS headers that let a
//! listed origin read the JSON answers.
//!
//! A browser sends `Origin` with every WebSocket handshake and every cross-origin (and every
//! `POST`) request; WebSockets are not under CORS, so only the server can refuse a page. A request
//! without `Origin` (a non-browser client such as `sidl serve bots`, a top-level navigation) is
//! not a page embedding the link and is let through: the token is the authority either way.
//! Admin routes never send `Access-Control-Allow-Origin`.

use crate::error::ApiError;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;

/// The environment variable with more allowed origins (separated by commas or spaces).
pub const ALLOW_ENV: &str = "SIDL_ALLOW_ORIGIN";

/// The origins allowed besides the server's own.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    /// Normalised origins (`scheme://host[:port]`, lowercase); `*` allows every origin.
    pub listed: Vec<String>,
}

/// `scheme://host[:port]`, lowercase, without a trailing slash or path; `*` stays.
pub fn normalise(origin: &str) -> Result<String, String> {
    let o = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    if o == "*" {
        return Ok(o);
    }
    let Some((scheme, rest)) = o.split_once("://") else {
        return Err(format!(
            "{origin}: an origin is scheme://host[:port], e.g. https://lab.example.org"
        ));
    };
    if !matches!(scheme, "http" | "https") || rest.is_empty() || rest.contains(['/', '?', '#']) {
        return Err(format!(
            "{origin}: an origin is http(s)://host[:port] (no path), e.g. https://lab.example.org"
        ));
    }
    Ok(o)
}

impl Origins {
    /// The origins of `--allow-origin` and of [`ALLOW_ENV`].
    pub fn new(args: &[String], env: Option<&str>) -> Result<Origins, String> {
        let mut listed = Vec::new();
        let from_env = env
            .unwrap_or("")
            .split([',', ' '])
            .filter(|s| !s.trim().is_empty());
        for o in args.iter().map(String::as_str).chain(from_env) {
            let n = normalise(o)?;
            if !listed.contains(&n) {
                listed.push(n);
            }
        }
        Ok(Origins { listed })
    }

    /// The request's `Origin` when it is one to answer with CORS headers (a listed origin), `None`
    /// when it sends none or is the server's own; an error when the origin may not use the
    /// participant routes: it names the origin and says how to allow it.
    pub fn check(&self, headers: &HeaderMap) -> Result<Option<String>, ApiError> {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return Ok(None);
        };
        let origin = origin.to_str().unwrap_or("").trim().to_ascii_lowercase();
        // a form of the server's own page: with `Referrer-Policy: no-referrer` (the server's
        // pages) Chromium sends `Origin: null` and says where the request comes from in
        // `Sec-Fetch-Site`, which no page script can set
        let fetch_site = headers
            .get("sec-fetch-site")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if fetch_site == "same-origin" {
            return Ok(None);
        }
        // the same origin: the page was served by this server (behind a proxy, `Host` is the
        // address the browser used, as the proxy passes it on)
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let authority = origin.split_once("://").map(|(_, a)| a).unwrap_or("");
        if !host.is_empty() && authority == host {
            return Ok(None);
        }
        if self.listed.iter().any(|o| o == "*" || *o == origin) {
            return Ok(Some(origin));
        }
        Err(refused(&origin))
    }
}

/// The refusal of a page on `origin`.
pub fn refused(origin: &str) -> ApiError {
    ApiError::new(
        403,
        "origin_not_allowed",
        format!(
            "a page on {origin} may not use this server's participant links: the server allows its own \
             pages and the origins given with --allow-origin (or {ALLOW_ENV})"
        ),
    )
    .with_details(serde_json::json!({ "origin": origin }))
}

/// Adds the CORS headers for `origin` (a listed origin, or the refused one on its refusal, so that
/// the page can read why) to a participant route's answer.
pub fn cors(mut resp: Response, origin: Option<&str>) -> Response {
    if let Some(o) = origin {
        if let Ok(v) = HeaderValue::from_str(o) {
            let h = resp.headers_mut();
            h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, v);
            h.append(header::VARY, HeaderValue::from_static("Origin"));
        }
    }
    resp
}

/// The `Origin` a request sent (for the CORS header of its refusal).
pub fn sent(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn own_listed_and_other_origins() {
        let o = Origins::new(
            &["https://Lab.example.org/".into()],
            Some("http://a:1, http://b:2"),
        )
        .unwrap();
        assert_eq!(
            o.listed,
            ["https://lab.example.org", "http://a:1", "http://b:2"]
        );
        assert_eq!(o.check(&headers(None, "127.0.0.1:9")).unwrap(), None);
        assert_eq!(
            o.check(&headers(Some("http://127.0.0.1:9"), "127.0.0.1:9"))
                .unwrap(),
            None
        );
        assert_eq!(
            o.check(&headers(Some("https://lab.example.org"), "127.0.0.1:9"))
                .unwrap()
                .as_deref(),
            Some("https://lab.example.org")
        );
        let e = o
            .check(&headers(Some("http://evil.example"), "127.0.0.1:9"))
            .unwrap_err();
        assert_eq!((e.status, e.code.as_str()), (403, "origin_not_allowed"));
        assert!(e.message.contains("http://evil.example"), "{}", e.message);
        let mut own_form = headers(Some("null"), "127.0.0.1:9");
        own_form.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert_eq!(o.check(&own_form).unwrap(), None);
        assert!(o.check(&headers(Some("null"), "127.0.0.1:9")).is_err());
        let any = Origins::new(&["*".into()], None).unwrap();
        assert!(any
            .check(&headers(Some("http://x"), "h"))
            .unwrap()
            .is_some());
        assert!(normalise("lab.example.org").is_err());
        assert!(normalise("https://lab.example.org/path").is_err());
    }
}
