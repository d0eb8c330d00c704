//! The load test of `sidl serve` (docs/performance.md, "sidl serve under load"); run it through
//! `scripts/serve-load.sh [SECONDS]`, which starts the server (release build, 127.0.0.1) on SQLite
//! and on PostgreSQL and passes its address and process id here.
//!
//! It creates `--sessions` sessions of `server/examples/load.sidl` (four human seats, no deadline:
//! a chronon closes when all four chose), joins every seat through its link and connects its
//! WebSocket, as a browser does. Each participant, whenever its state shows a chronon it has not
//! yet chosen in, waits a random 0.25 to 1 s and submits (about one submission per second each,
//! the chronon waiting for the slowest of four). After `--seconds` it stops submitting, waits for
//! the answers in flight, and checks against the server's own event log (`events.jsonl`):
//!
//! - submission to acknowledgement: from sending the `submit` frame to receiving its `ack`;
//! - chronon close to delivery: from the chronon's stored time (`at_ms` of its `chronon` row, set
//!   when the chronon ran, before its commit) to the seat receiving its `chronon` frame;
//! - lost: an acknowledged submission not in the log, or a chronon of the log that a seat did not
//!   receive; duplicated: a submission twice in the log, or a chronon frame received twice;
//! - the server's CPU time and memory from `/proc/PID` (Linux).
//!
//! Plain `http://` to 127.0.0.1 only. The HTTP client is a few lines (as in `bots.rs`).

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

async fn http(host: &str, method: &str, path: &str, token: &str, body: &str) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(host).await.expect("connect");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
         Authorization: Bearer {token}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.expect("write");
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).await.expect("read");
    let resp = String::from_utf8_lossy(&resp).to_string();
    let status = resp[9..12].parse().unwrap_or(0);
    let body = resp.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    (status, body.to_string())
}

/// `utime + stime` in clock ticks, and (VmRSS, VmHWM) in KiB, of a process.
fn proc_stats(pid: u32) -> (u64, u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = f.get(11).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|x| x.parse().ok())
            .unwrap_or(0)
    };
    (ticks, kib("VmRSS:"), kib("VmHWM:"))
}

#[derive(Default)]
struct SeatLog {
    session: String,
    player: String,
    /// Submission chronon → acknowledged (ms latency).
    acks: BTreeMap<u64, i64>,
    /// Chronon numbers of the `chronon` frames, in order received, with their receive time.
    chronons: Vec<(u64, i64)>,
    errors: Vec<String>,
}

fn pct(v: &mut [i64], p: f64) -> i64 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i]
}

fn arg(args: &[String], name: &str, default: &str) -> String {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_string())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let host = arg(&args, "--host", "127.0.0.1:8790");
    assert!(
        host.starts_with("127.0.0.1:"),
        "the load test talks to 127.0.0.1 only"
    );
    let token = std::env::var("SIDL_ADMIN_TOKEN").expect("SIDL_ADMIN_TOKEN");
    let seconds: u64 = arg(&args, "--seconds", "60").parse().expect("--seconds");
    let sessions: usize = arg(&args, "--sessions", "25").parse().expect("--sessions");
    let pid: u32 = arg(&args, "--pid", "0").parse().expect("--pid");
    let label = arg(&args, "--label", "");
    let game_path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/load.sidl");
    let game = std::fs::read_to_string(game_path).expect("load.sidl");

    // sessions and seats
    let mut seats = Vec::new();
    for i in 0..sessions {
        let body = json!({"game": game, "config": {"seed": i, "timeout": "wait", "name": format!("load {i}")}}).to_string();
        let (status, text) = http(&host, "POST", "/api/sessions", &token, &body).await;
        assert_eq!(status, 201, "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        for s in v["seats"].as_array().unwrap() {
            let link = s["link"].as_str().unwrap();
            let tok = link.rsplit('/').next().unwrap().to_string();
            let (st, _) = http(&host, "POST", &format!("/p/{tok}/join"), "", "").await;
            assert_eq!(st, 303);
            seats.push((
                v["id"].as_str().unwrap().to_string(),
                s["player"].as_str().unwrap().to_string(),
                tok,
            ));
        }
    }
    eprintln!(
        "serve_load: {} participants in {sessions} sessions, {seconds} s",
        seats.len()
    );
    let (t0, rss0, _) = proc_stats(pid);
    let start = Instant::now();
    let stop_at = start + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    let mut logs = Vec::new();
    for (k, (session, player, tok)) in seats.into_iter().enumerate() {
        let log = Arc::new(Mutex::new(SeatLog {
            session: session.clone(),
            player: player.clone(),
            ..SeatLog::default()
        }));
        logs.push(log.clone());
        let url = format!("ws://{host}/p/{tok}/ws");
        tasks.push(tokio::spawn(async move {
            participant(url, k as u64, stop_at, log).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let (t1, rss1, hwm) = proc_stats(pid);
    let tick = 100.0; // USER_HZ on Linux
    let cpu = (t1.saturating_sub(t0)) as f64 / tick / elapsed * 100.0;

    // the server's own log
    let mut stored_subs: BTreeMap<(String, String, u64), usize> = BTreeMap::new();
    let mut chronon_at: BTreeMap<(String, u64), i64> = BTreeMap::new();
    let ids: BTreeSet<String> = logs
        .iter()
        .map(|l| l.lock().unwrap().session.clone())
        .collect();
    for id in &ids {
        let (status, text) = http(
            &host,
            "GET",
            &format!("/api/sessions/{id}/export/events.jsonl"),
            &token,
            "",
        )
        .await;
        assert_eq!(status, 200, "{text}");
        for line in text.lines() {
            let r: Value = serde_json::from_str(line).unwrap();
            let c = r["chronon"].as_u64().unwrap_or(0);
            match r["event"].as_str() {
                Some("submission") => {
                    *stored_subs
                        .entry((id.clone(), r["player"].as_str().unwrap().to_string(), c))
                        .or_default() += 1;
                }
                Some("chronon") => {
                    chronon_at.insert((id.clone(), c), r["at_ms"].as_i64().unwrap());
                }
                _ => {}
            }
        }
    }
    let mut ack_lat = Vec::new();
    let mut deliver_lat = Vec::new();
    let (mut lost, mut dup, mut errors, mut submissions) = (0usize, 0usize, 0usize, 0usize);
    for l in &logs {
        let l = l.lock().unwrap();
        errors += l.errors.len();
        for e in l.errors.iter().take(3) {
            eprintln!("serve_load: {} {}: {e}", l.session, l.player);
        }
        for (&c, &lat) in &l.acks {
            submissions += 1;
            ack_lat.push(lat);
            match stored_subs.get(&(l.session.clone(), l.player.clone(), c + 1)) {
                None => lost += 1,
                Some(1) => {}
                Some(_) => dup += 1,
            }
        }
        let mut seen = BTreeSet::new();
        for &(c, at) in &l.chronons {
            if !seen.insert(c) {
                dup += 1;
            }
            if let Some(t) = chronon_at.get(&(l.session.clone(), c)) {
                deliver_lat.push(at - t);
            }
        }
        // every chronon the server ran reached the seat
        for ((s, c), _) in chronon_at.range((l.session.clone(), 0)..) {
            if *s != l.session {
                break;
            }
            if !seen.contains(c) {
                lost += 1;
            }
        }
    }
    let chronons = chronon_at.len();
    let result = json!({
        "backend": label,
        "seconds": elapsed.round(),
        "sessions": sessions,
        "participants": logs.len(),
        "submissions_acked": submissions,
        "submissions_per_second": (submissions as f64 / seconds as f64 * 10.0).round() / 10.0,
        "chronons": chronons,
        "ack_ms": {"p50": pct(&mut ack_lat, 0.5), "p99": pct(&mut ack_lat, 0.99), "max": pct(&mut ack_lat, 1.0)},
        "delivery_ms": {"p50": pct(&mut deliver_lat, 0.5), "p99": pct(&mut deliver_lat, 0.99), "max": pct(&mut deliver_lat, 1.0)},
        "server_cpu_percent": (cpu * 10.0).round() / 10.0,
        "server_rss_kib": {"start": rss0, "end": rss1, "peak": hwm},
        "lost": lost,
        "duplicated": dup,
        "errors": errors,
    });
    println!("{result}");
    if lost > 0 || dup > 0 || errors > 0 {
        std::process::exit(1);
    }
}

async fn participant(url: String, k: u64, stop_at: Instant, log: Arc<Mutex<SeatLog>>) {
    let (ws, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("the WebSocket opens");
    let (mut tx, mut rx) = ws.split();
    let mut rng = sidl_engine::rng::Rng::new(0x5eed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut chosen: Option<u64> = None;
    let mut sent: Option<(u64, Instant)> = None;
    let mut timer: Option<(tokio::time::Instant, Value)> = None;
    let mut draining_until: Option<Instant> = None;
    loop {
        if draining_until.is_some_and(|d| Instant::now() >= d)
            || (draining_until.is_none() && Instant::now() >= stop_at && sent.is_none())
        {
            if draining_until.is_none() {
                // let the chronons in flight arrive
                draining_until = Some(Instant::now() + Duration::from_secs(3));
                timer = None;
                continue;
            }
            break;
        }
        let sleep_until = timer
            .as_ref()
            .map(|t| t.0)
            .unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_millis(200));
        tokio::select! {
            msg = rx.next() => {
                let Some(Ok(Message::Text(t))) = msg else {
                    if let Some(Ok(_)) = msg { continue; }
                    log.lock().unwrap().errors.push("the socket closed".into());
                    return;
                };
                let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
                match v["type"].as_str() {
                    Some("ack") => {
                        let c = v["chronon"].as_u64().unwrap_or(0);
                        if let Some((sc, at)) = sent.take() {
                            if sc == c {
                                let ms = at.elapsed().as_millis() as i64;
                                if log.lock().unwrap().acks.insert(c, ms).is_some() {
                                    log.lock().unwrap().errors.push(format!("two acks for chronon {c}"));
                                }
                            }
                        }
                    }
                    Some("error") => {
                        sent = None;
                        log.lock().unwrap().errors.push(v.to_string());
                    }
                    Some("chronon") => {
                        let c = v["record"]["chronon"].as_u64().unwrap_or(0);
                        log.lock().unwrap().chronons.push((c, now_ms()));
                    }
                    Some("state") => {
                        let c = v["chronon"].as_u64().unwrap_or(0);
                        let mine = v["switches"].as_array().and_then(|a| a.first()).cloned();
                        if draining_until.is_none() && Instant::now() < stop_at && chosen != Some(c) && timer.is_none() && sent.is_none() {
                            if let Some(sw) = mine {
                                let a = sw["actions"].as_array().map(|a| a.len()).unwrap_or(0);
                                if a > 0 {
                                    let action = sw["actions"][(rng.next_u64() % a as u64) as usize].clone();
                                    let delay = 250 + rng.next_u64() % 750;
                                    let msg = json!({"type": "submit", "chronon": c, "switch": sw["switch"], "action": action});
                                    timer = Some((tokio::time::Instant::now() + Duration::from_millis(delay), msg));
                                    chosen = Some(c);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ = tokio::time::sleep_until(sleep_until) => {
                if let Some((at, msg)) = timer.take() {
                    if tokio::time::Instant::now() >= at {
                        let c = msg["chronon"].as_u64().unwrap_or(0);
                        sent = Some((c, Instant::now()));
                        if tx.send(Message::Text(msg.to_string().into())).await.is_err() {
                            log.lock().unwrap().errors.push("send failed".into());
                            return;
                        }
                    } else {
                        timer = Some((at, msg));
                    }
                }
            }
        }
    }
    let _ = tx.send(Message::Close(None)).await;
}
