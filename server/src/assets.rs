//! The pages the server serves: plain HTML, CSS and JavaScript in `assets/` (no bundler), and the
//! playground's `playground/play.js` (its DOM builder and typed template forms), built into the
//! binary.

pub const INDEX_HTML: &str = include_str!("assets/index.html");
pub const ADMIN_HTML: &str = include_str!("assets/admin.html");
pub const ADMIN_JS: &str = include_str!("assets/admin.js");
pub const MONITOR_HTML: &str = include_str!("assets/monitor.html");
pub const MONITOR_JS: &str = include_str!("assets/monitor.js");
pub const WELCOME_HTML: &str = include_str!("assets/welcome.html");
pub const ROOM_HTML: &str = include_str!("assets/room.html");
pub const PLAY_HTML: &str = include_str!("assets/play.html");
pub const PLAY_JS: &str = include_str!("assets/play.js");
pub const SERVE_CSS: &str = include_str!("assets/serve.css");
/// The playground's shared play module (DOM builder, typed template forms), served as it is.
pub const PLAYGROUND_PLAY_JS: &str = include_str!("../../playground/play.js");
/// The playground's layout renderer (docs/reference.md "Layouts"), served as it is.
pub const PLAYGROUND_BOARD_JS: &str = include_str!("../../playground/board.js");

/// A page with a title and one paragraph (HTML-escaped).
pub fn message_page(title: &str, text: &str) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <link rel=\"stylesheet\" href=\"/static/serve.css\"></head><body><main><h1>{t}</h1>\
         <p>{m}</p></main></body></html>",
        t = esc(title),
        m = esc(text)
    )
}
