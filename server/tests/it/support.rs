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

/// A running `sidl-serve`; killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
}

impl Server {
    /// Starts the server on `port` (0: any) with its database in `data`, and waits until it
    /// listens.
    pub fn start(data: &Path, port: u16) -> Server {
        let child = Command::new(env!("CARGO_BIN_EXE_sidl-serve"))
            .args([
                "--data",
                data.to_str().unwrap(),
                "--port",
                &port.to_string(),
            ])
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
