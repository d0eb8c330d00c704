//! Data exports (docs/serve.md, "Data export") of a session played by scripted bots over the real
//! API (`sidl serve bots`, which this also tests): every exported file against the expected rows in
//! `export/` (server times and the session's id masked), the same files from the admin API and from
//! `sidl serve export`, and a random-bots session played to its end.

use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

on_both_backends!(scripted_kuhn_exports_the_expected_rows);
on_both_backends!(random_bots_play_a_session_to_its_end);
on_both_backends!(the_event_log_labels_follow_the_session_language);

fn bots(server: &Server, id: &str, participants: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sidl-serve"))
        .args(["bots", &format!("http://127.0.0.1:{}", server.port), id])
        .args([
            "--participants",
            participants,
            "--token",
            TOKEN,
            "--seed",
            "5",
        ])
        .output()
        .expect("sidl-serve bots runs")
}

fn export(server: &Server, id: &str, format: &str) -> String {
    let (status, v) = server.http(
        "GET",
        &format!("/api/sessions/{id}/export/{format}"),
        Some(TOKEN),
        None,
    );
    assert_eq!(status, 200, "{format}: {v}");
    match v {
        Value::String(s) => s,
        // a JSON-lines file of one line parses as JSON
        other => format!("{other}\n"),
    }
}

/// The CSV's rows with the server's times (`at_ms`, `decision_ms`, `joined_ms` columns) checked
/// to be numbers and masked, and the session's id as `S`.
fn masked_csv(text: &str, id: &str) -> String {
    let mut lines = text.split("\r\n");
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut out = vec![header.join(",")];
    for l in lines.filter(|l| !l.is_empty()) {
        let cells: Vec<String> = split_csv(l)
            .into_iter()
            .zip(&header)
            .map(|(c, h)| {
                if h.ends_with("at_ms") || h.ends_with("decision_ms") || h.ends_with("joined_ms") {
                    if c.is_empty() {
                        return c;
                    }
                    assert!(c.parse::<i64>().unwrap() >= 0, "{h}: {c}");
                    "T".into()
                } else if h.ends_with("link") {
                    assert!(c.starts_with("/p/") && c.len() == 3 + 64, "{c}");
                    "LINK".into()
                } else {
                    c.replace(id, "S")
                }
            })
            .map(|c| {
                if c.contains([',', '"']) {
                    format!("\"{}\"", c.replace('"', "\"\""))
                } else {
                    c
                }
            })
            .collect();
        out.push(cells.join(","));
    }
    out.join("\n") + "\n"
}

/// RFC 4180 fields of one line (no line breaks inside fields in these files).
fn split_csv(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            _ => out.last_mut().unwrap().push(c),
        }
    }
    out
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/it/export")
            .join(name),
    )
    .unwrap()
}

async fn scripted_kuhn_exports_the_expected_rows(db: Db) {
    let server = Server::start(&db, 0);
    let created = server.create("games/kuhn.sidl", json!({"seed": 11, "timeout": "wait"}));
    let id = created["id"].as_str().unwrap().to_string();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/export/kuhn.script.jsonl");
    let out = bots(&server, &id, &format!("script:{}", script.display()));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("[p1]: finished after 3 chronons"), "{text}");
    assert_eq!(server.session(&id)["status"], "finished");

    // both bots' WebSockets closed and logged (the server notices a close a moment later)
    let t0 = Instant::now();
    let mut events = export(&server, &id, "events.jsonl");
    while events.matches("\"disconnected\"").count() < 2 {
        assert!(t0.elapsed() < Duration::from_secs(20), "{events}");
        tokio::time::sleep(Duration::from_millis(100)).await;
        events = export(&server, &id, "events.jsonl");
    }
    let csv = export(&server, &id, "events.csv");
    // the rows in order, except the connection events (when a bot connects races with the other's
    // play): those last, sorted, their chronon masked
    let masked = masked_csv(&csv, &id);
    let (mut conn, mut lines): (Vec<String>, Vec<String>) = masked
        .lines()
        .map(str::to_string)
        .partition(|l| l.contains(",connected,") || l.contains(",disconnected,"));
    let n = lines.len() + conn.len();
    for c in conn.iter_mut() {
        let mut cells: Vec<&str> = c.split(',').collect();
        cells[2] = "C";
        *c = cells.join(",");
    }
    conn.sort();
    lines.extend(conn);
    assert_eq!(lines.join("\n") + "\n", expected("kuhn.events.csv"));
    // JSON lines: the same rows, typed
    let rows: Vec<Value> = events
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), n - 1);
    let rejected: Vec<&Value> = rows.iter().filter(|r| r["event"] == "rejected").collect();
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0]["accepted"], false);
    assert_eq!(rejected[0]["seat"], 2);
    let last_chronon = rows.iter().rfind(|r| r["event"] == "chronon").unwrap();
    assert!(last_chronon["accounts"]["[p1]"].is_number());
    for (format, file) in [
        ("wide.csv", "kuhn.wide.csv"),
        ("payments.csv", "kuhn.payments.csv"),
    ] {
        assert_eq!(
            masked_csv(&export(&server, &id, format), &id),
            expected(file),
            "{format}"
        );
    }
    // the record: the session's seed, seats and accepted submissions, times known
    let record = export(&server, &id, "record.jsonl");
    let r: Value = serde_json::from_str(record.trim()).unwrap();
    assert_eq!(r["format"], "sidl-record/1");
    assert_eq!(r["seed"], 11);
    assert_eq!(r["game"], "kuhn");
    let moves: Vec<Value> = r["chronons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["submissions"].as_array().unwrap().clone())
        .collect();
    let actions: Vec<&str> = moves
        .iter()
        .map(|m| m["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["[p1,bet]", "[p2,call]"]);
    assert!(moves
        .iter()
        .all(|m| m["at_ms"].is_u64() && m["decision_ms"].is_u64()));
    let text = std::fs::read_to_string(repo().join("games/kuhn.sidl")).unwrap();
    let game = std::sync::Arc::new(sidl_engine::game::Game::load(&text).unwrap().0);
    let rec = sidl_engine::game::record::Record::from_line(record.trim(), 1).unwrap();
    rec.replay(game, &text, &Default::default())
        .expect("the record replays");

    // `sidl serve export` writes the same files from the database (the server may keep running)
    let dir = tempfile::tempdir().unwrap();
    let cli = Command::new(env!("CARGO_BIN_EXE_sidl-serve"))
        .arg("export")
        .arg(&id)
        .args(db.args())
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    for format in [
        "events.csv",
        "events.jsonl",
        "wide.csv",
        "payments.csv",
        "record.jsonl",
    ] {
        let file = std::fs::read_to_string(dir.path().join(format!("sidl-{id}-{format}"))).unwrap();
        let api = export(&server, &id, format);
        if format.ends_with(".jsonl") {
            // (the tests' HTTP client re-serialises a body that is one JSON value)
            let parse = |t: &str| -> Vec<Value> {
                t.lines()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect()
            };
            assert_eq!(parse(&file), parse(&api), "{format}");
        } else {
            assert_eq!(file, api, "{format}");
        }
    }
    // an unknown export or session, no token
    let (status, v) = server.http(
        "GET",
        &format!("/api/sessions/{id}/export/x.csv"),
        Some(TOKEN),
        None,
    );
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (404, Some("unknown_format"))
    );
    let (status, _) = server.http(
        "GET",
        "/api/sessions/nope/export/wide.csv",
        Some(TOKEN),
        None,
    );
    assert_eq!(status, 404);
    let (status, _) = server.http(
        "GET",
        &format!("/api/sessions/{id}/export/wide.csv"),
        None,
        None,
    );
    assert_eq!(status, 401);
}

async fn random_bots_play_a_session_to_its_end(db: Db) {
    let server = Server::start(&db, 0);
    let created = server.create("games/rps.sidl", json!({"seed": 3, "timeout": "wait"}));
    let id = created["id"].as_str().unwrap().to_string();
    let out = bots(&server, &id, "random");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.session(&id)["status"], "finished");
    let human = server.session(&id)["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["link"].is_string())
        .count();
    assert!(human >= 2);
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(": finished after "))
            .count(),
        human
    );
}

/// The event log's `label` column (docs/serve.md, "Data export"): each action in the game's labels
/// in the session's language (`config.lang`), the rejected one too, and each chronon's events as
/// the designer reads them; the raw columns stay as they are.
async fn the_event_log_labels_follow_the_session_language(db: Db) {
    let server = Server::start(&db, 0);
    let created = server.create(
        "games/kuhn.sidl",
        json!({"seed": 11, "timeout": "wait", "lang": "de"}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/export/kuhn.script.jsonl");
    let out = bots(&server, &id, &format!("script:{}", script.display()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = export(&server, &id, "events.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |event: &str| -> Vec<(String, String)> {
        rows.iter()
            .filter(|r| r["event"] == event)
            .map(|r| {
                (
                    r["action"].as_str().unwrap_or_default().to_string(),
                    r["label"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    let pair = |a: &str, l: &str| (a.to_string(), l.to_string());
    assert_eq!(
        of("submission"),
        [
            pair("[p1,bet]", "Spieler 1 setzt 1"),
            pair("[p2,call]", "Spieler 2 geht mit")
        ]
    );
    assert_eq!(of("rejected"), [pair("[p2,bet]", "Spieler 2 setzt 1")]);
    let chronons: Vec<&str> = rows
        .iter()
        .filter(|r| r["event"] == "chronon")
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(chronons.len(), 3, "{chronons:?}");
    assert!(
        chronons[0].starts_with("das Geben ← Karten werden gegeben (drawn)"),
        "{chronons:?}"
    );
    assert!(
        chronons[1].contains("Zug von Spieler 1 ← Spieler 1 setzt 1 (submitted)"),
        "{chronons:?}"
    );
    assert!(chronons[2].contains("Spieler 2 zeigt: "), "{chronons:?}");
    // connections have no label
    assert!(rows
        .iter()
        .filter(|r| r["event"] == "connected")
        .all(|r| r["label"].is_null()));
    // the CSV has the column last, the same texts
    let csv = export(&server, &id, "events.csv");
    let header = csv.lines().next().unwrap();
    assert!(header.ends_with(",accounts,label"), "{header}");
    assert!(csv.contains(",Spieler 1 setzt 1\r\n"), "{csv}");
}
