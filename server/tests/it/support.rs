//! Starting the server and talking to it. The HTTP client is a few lines over `TcpStream`
//! (`Connection: close`, one request per connection): the tests need no more, and a client crate
//! would cost more to build than the whole test.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::net::TcpStream as AsyncTcp;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const TOKEN: &str = "test-admin-token";

/// The environment variable with the test PostgreSQL's URL (`postgres://…/DB[?…]`; the tests create
/// a database of their own on that server). `scripts/with-postgres.sh` sets it.
pub const PG_ENV: &str = "SIDL_TEST_DATABASE";

/// Where a test's server keeps its data: SQLite in a temporary folder, or a fresh database on the
/// test PostgreSQL (dropped at the end).
pub enum Db {
    Sqlite(tempfile::TempDir),
    Postgres {
        admin: String,
        url: String,
        name: String,
    },
}

/// Runs `f` on a thread of its own: the synchronous PostgreSQL client starts a runtime of its own,
/// which it cannot do on a thread of the test's runtime.
fn off_runtime<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().unwrap()
}

impl Db {
    pub fn sqlite() -> Db {
        Db::Sqlite(tempfile::tempdir().unwrap())
    }

    /// A new database on the test PostgreSQL. Without one (no `SIDL_TEST_DATABASE`): a failure
    /// when `CI` is set, else `None` and a message (the caller skips the test).
    pub fn postgres() -> Option<Db> {
        let Ok(admin) = std::env::var(PG_ENV) else {
            if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false") {
                panic!(
                    "{PG_ENV} is not set: the PostgreSQL tests need a server; run them through \
                     scripts/with-postgres.sh (scripts/test.sh does)"
                );
            }
            // straight to stderr, past the test harness's capture, so that the skip is seen
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED a PostgreSQL test: {PG_ENV} is not set (bash scripts/with-postgres.sh \
                 cargo test -p sidl-server --test it runs them)"
            );
            return None;
        };
        let name = format!("sidl_test_{}", sidl_server::api::random_hex(6));
        let (a, n) = (admin.clone(), name.clone());
        off_runtime(move || {
            let mut c = postgres::Client::connect(&a, postgres::NoTls)
                .unwrap_or_else(|e| panic!("the test PostgreSQL ({a}): {e}"));
            c.batch_execute(&format!("CREATE DATABASE {n}")).unwrap();
        });
        // the same URL with the new database's name
        let (base, query) = admin.split_once('?').unwrap_or((&admin, ""));
        let (server, _) = base.rsplit_once('/').expect("a URL postgres://…/DB");
        let url = if query.is_empty() {
            format!("{server}/{name}")
        } else {
            format!("{server}/{name}?{query}")
        };
        Some(Db::Postgres { admin, url, name })
    }

    /// The server's options for this database.
    pub fn args(&self) -> Vec<String> {
        match self {
            Db::Sqlite(dir) => vec!["--data".into(), dir.path().to_str().unwrap().into()],
            Db::Postgres { url, .. } => vec!["--database".into(), url.clone()],
        }
    }

    /// The store itself (as process `node`, for PostgreSQL), opened off the test's runtime.
    pub fn store(&self, node: &str) -> Box<dyn sidl_server::store::Store> {
        match self {
            Db::Sqlite(dir) => Box::new(
                sidl_server::store::sqlite::SqliteStore::open(&dir.path().join("sidl.db")).unwrap(),
            ),
            Db::Postgres { url, .. } => {
                let (url, node) = (url.clone(), node.to_string());
                Box::new(off_runtime(move || {
                    sidl_server::store::postgres::PgStore::open(&url, &node).unwrap()
                }))
            }
        }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Db::Postgres { admin, name, .. } = self {
            let (a, n) = (admin.clone(), name.clone());
            let _ = std::thread::spawn(move || {
                if let Ok(mut c) = postgres::Client::connect(&a, postgres::NoTls) {
                    let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {n} WITH (FORCE)"));
                }
            })
            .join();
        }
    }
}

/// Makes a test of an `async fn NAME(db: Db)` for each backend: `NAME::sqlite` and
/// `NAME::postgres`.
macro_rules! on_both_backends {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(crate::support::Db::sqlite()).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(db) = crate::support::Db::postgres() {
                    super::$name(db).await
                }
            }
        }
    };
}
pub(crate) use on_both_backends;

/// A running `sidl-serve`; killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
}

impl Server {
    /// Starts the server on `port` (0: any) with its data in `db`, and waits until it listens.
    pub fn start(db: &Db, port: u16) -> Server {
        let child = Command::new(env!("CARGO_BIN_EXE_sidl-serve"))
            .args(db.args())
            .args(["--port", &port.to_string()])
            .env("SIDL_ADMIN_TOKEN", TOKEN)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("sidl-serve starts");
        // owned by a Server at once, so that it is killed and reaped whatever happens below
        let mut server = Server { child, port: 0 };
        let mut out = BufReader::new(server.child.stdout.take().unwrap());
        let mut line = String::new();
        loop {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                panic!("sidl-serve ended before it listened");
            }
            if let Some(url) = line.trim().strip_prefix("sidl serve: listening on http://") {
                server.port = url.rsplit(':').next().unwrap().parse().unwrap();
                // keep reading its output so that it never blocks on a full pipe
                std::thread::spawn(move || {
                    let mut sink = Vec::new();
                    let _ = out.read_to_end(&mut sink);
                });
                return server;
            }
        }
    }

    /// `kill -9`.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// An HTTP request; the status and the body (JSON when it parses, else a string).
    pub fn http(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, Value) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let body = body.unwrap_or("");
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{auth}\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut resp = String::new();
        s.read_to_string(&mut resp).unwrap();
        let status = resp[9..12].parse().unwrap();
        let text = resp.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
        let v = serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()));
        (status, v)
    }

    /// Creates a session (admin API), returning its description.
    pub fn create(&self, game: &str, config: Value) -> Value {
        let text = std::fs::read_to_string(repo().join(game)).unwrap();
        let body = json!({"game": text, "config": config}).to_string();
        let (status, v) = self.http("POST", "/api/sessions", Some(TOKEN), Some(&body));
        assert_eq!(status, 201, "{v}");
        v
    }

    pub fn session(&self, id: &str) -> Value {
        let (status, v) = self.http("GET", &format!("/api/sessions/{id}"), Some(TOKEN), None);
        assert_eq!(status, 200, "{v}");
        v
    }

    pub fn ws_url(&self, token: &str) -> String {
        format!("ws://127.0.0.1:{}/p/{token}/ws", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The token of a seat link.
pub fn token_of(link: &str) -> String {
    link.rsplit('/').next().unwrap().to_string()
}

/// A participant's WebSocket that keeps every frame it received.
pub struct Seat {
    pub ws: WebSocketStream<MaybeTlsStream<AsyncTcp>>,
    pub frames: Vec<Value>,
    pub raw: Vec<String>,
}

impl Seat {
    pub async fn connect(url: &str) -> Seat {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("the WebSocket opens");
        Seat {
            ws,
            frames: Vec::new(),
            raw: Vec::new(),
        }
    }

    /// The next frame (a generous bound: the test fails rather than hangs).
    pub async fn next(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(60), self.ws.next())
                .await
                .expect("a frame within a minute")
                .expect("the socket is open")
                .expect("a frame");
            match msg {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    self.raw.push(t.to_string());
                    self.frames.push(v.clone());
                    return v;
                }
                Message::Close(_) => panic!("the server closed the socket"),
                _ => continue,
            }
        }
    }

    /// Frames until one of `kind` for which `pred` holds.
    pub async fn until(&mut self, kind: &str, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == kind && pred(&v) {
                return v;
            }
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .unwrap();
    }

    pub async fn submit(&mut self, chronon: u64, switch: &str, action: &str) -> Value {
        self.send(
            json!({"type": "submit", "chronon": chronon, "switch": switch, "action": action}),
        )
        .await;
        loop {
            let v = self.next().await;
            if v["type"] == "ack" || v["type"] == "error" {
                return v;
            }
        }
    }

    /// The last state frame received.
    pub fn last_state(&self) -> &Value {
        self.frames
            .iter()
            .rev()
            .find(|f| f["type"] == "state")
            .expect("a state frame")
    }
}

/// Joins a seat the way its welcome page's button does.
pub fn join(server: &Server, token: &str) {
    let (status, _) = server.http("POST", &format!("/p/{token}/join"), None, None);
    assert_eq!(status, 303);
}

/// A plain request with extra headers (cookies); the status, the response's headers (names in
/// lower case) and its body as text.
pub fn http_raw(
    server: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, String) {
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{extra}\
         Content-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    let status = resp[9..12].parse().unwrap();
    let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((&resp, ""));
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}
