//! `sidl serve bots`: plays a session's human seats through the server's real API, as participants
//! do (like `otree test`): the admin API gives the seats' links, each bot presses "join" (the POST)
//! and plays over the seat's WebSocket, acting only on what the server sent it (its state's legal
//! switches). Participants: `random` (a legal action drawn from a seed) or `script:FILE` (JSON
//! lines, each `{"player", "switch", "action"}` or `{"player", "switch", "template", "values"}`,
//! taken in order per player whenever that player may act; a refused line is logged by the server
//! as a rejection and the seat takes its next line), or `ai:SPEC` (the engine's AI, as `sidl play`
//! and the session's own AI seats use it: `ai:mcts:200`, `ai:minimax:3`; it asks its seat's
//! WebSocket for the seat's observation, `crate::observe`, and decides from that alone with the
//! game's text, which the admin API gives).
//!
//! The HTTP client is a few lines over `TcpStream` (plain `http://`, one request per connection):
//! the bots need two kinds of request, and a client crate would cost more to build than this file.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sidl_engine::ai::AiSpec;
use sidl_engine::game::{Game, Settings};
use sidl_engine::rng::Rng;
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// The options of `sidl serve bots`.
#[derive(clap::Args, Clone, Debug)]
pub struct BotsArgs {
    /// The server (`http://HOST:PORT`)
    pub url: String,
    /// The session's id
    pub session: String,
    /// Who plays the human seats: `random`, `script:FILE` or `ai:SPEC` (`ai:mcts:200`,
    /// `ai:minimax:3`, …: the engine's AI, deciding from the seat's observation)
    #[arg(long, default_value = "random")]
    pub participants: String,
    /// The random participants' seed
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The admin token (default: the environment's SIDL_ADMIN_TOKEN)
    #[arg(long)]
    pub token: Option<String>,
    /// Give up after this many seconds
    #[arg(long, default_value_t = 600)]
    pub timeout_seconds: u64,
    /// Arrive through the session's room link (`/room/NAME/join?participant_label=bot-K`) as
    /// `--count` participants instead of taking the seats' own links: they form the session's
    /// groups by arrival, as people do (random or AI participants)
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,
}

/// How a seat's bot chooses.
#[derive(Clone, Debug)]
enum Chooser {
    Random(Rng),
    Script(VecDeque<Value>),
    /// The engine's AI: the game, the spec, the session's settings and the seat's seed.
    Ai(AiPlayer),
}

#[derive(Clone, Debug)]
struct AiPlayer {
    game: Arc<Game>,
    spec: AiSpec,
    settings: Settings,
    seed: u64,
}

/// The AI participants of `spec` (`ai:SPEC`) for the session `session` (the admin API's answer,
/// with the game's text), or `None` for other participants.
fn ai_player(spec: &str, session: &Value, seed: u64) -> Result<Option<AiPlayer>, String> {
    let Some(ai) = spec.strip_prefix("ai:") else {
        return Ok(None);
    };
    let spec = AiSpec::parse(ai).map_err(|e| format!("--participants {spec}: {e}"))?;
    let text = session["game"]
        .as_str()
        .ok_or("the admin API gave no game text (an older server?)")?;
    let game = Game::load(text).map(|(g, _)| Arc::new(g)).map_err(|d| {
        format!(
            "the session's game does not load: {:?}",
            d.first().map(|d| &d.message)
        )
    })?;
    Ok(Some(AiPlayer {
        game,
        spec,
        settings: Settings {
            interrupt: session["config"]["interrupt"].as_bool().unwrap_or(false),
            ..Settings::default()
        },
        seed,
    }))
}

/// `host:port` of an `http://` URL.
fn authority(url: &str) -> Result<String, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("{url}: an http:// URL is expected"))?;
    Ok(rest.split('/').next().unwrap_or(rest).to_string())
}

/// One HTTP request; the status and the body.
async fn http(
    host: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
) -> Result<(u16, String), String> {
    let mut s = tokio::net::TcpStream::connect(host)
        .await
        .map_err(|e| format!("{host}: {e}"))?;
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{auth}Content-Length: 0\r\n\r\n"
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).await.map_err(|e| e.to_string())?;
    let resp = String::from_utf8_lossy(&resp).to_string();
    let status = resp
        .get(9..12)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("{host}: not an HTTP answer"))?;
    let body = resp.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    Ok((status, body.to_string()))
}

/// Arrives through a room (`POST /room/NAME/join?participant_label=LABEL`): the seat's token, from
/// the redirect to its play page.
async fn arrive(host: &str, room: &str, label: &str) -> Result<String, String> {
    let mut s = tokio::net::TcpStream::connect(host)
        .await
        .map_err(|e| format!("{host}: {e}"))?;
    let req = format!(
        "POST /room/{room}/join?participant_label={label} HTTP/1.1\r\nHost: {host}\r\n\
         Connection: close\r\nContent-Length: 0\r\n\r\n"
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).await.map_err(|e| e.to_string())?;
    let resp = String::from_utf8_lossy(&resp).to_string();
    let head = resp.split("\r\n\r\n").next().unwrap_or("");
    head.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("location")
                .then(|| v.trim().to_string())
        })
        .and_then(|loc| {
            loc.strip_prefix("/p/")
                .and_then(|r| r.strip_suffix("/play"))
                .map(str::to_string)
        })
        .ok_or_else(|| {
            format!(
                "{label}: the room gave no seat: {}",
                head.lines().next().unwrap_or("")
            )
        })
}

fn chooser(spec: &str, seed: u64, players: &[String]) -> Result<Vec<Chooser>, String> {
    if spec == "random" {
        return Ok((0..players.len())
            .map(|i| Chooser::Random(Rng::new(seed ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9))))
            .collect());
    }
    let Some(file) = spec.strip_prefix("script:") else {
        return Err(format!(
            "--participants {spec}: `random`, `script:FILE` or `ai:SPEC`"
        ));
    };
    let text = std::fs::read_to_string(PathBuf::from(file))
        .map_err(|e| format!("cannot read {file}: {e}"))?;
    let mut per: BTreeMap<String, VecDeque<Value>> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("{file}:{}: not JSON: {e}", i + 1))?;
        let p = v["player"]
            .as_str()
            .ok_or_else(|| format!("{file}:{}: no \"player\"", i + 1))?;
        per.entry(p.to_string()).or_default().push_back(v);
    }
    Ok(players
        .iter()
        .map(|p| Chooser::Script(per.remove(p).unwrap_or_default()))
        .collect())
}

/// The next submission of a seat that may act now (`None`: nothing to do).
fn choose(c: &mut Chooser, state: &Value) -> Option<Value> {
    let chronon = state["chronon"].as_u64()?;
    let switches = state["switches"].as_array()?;
    match c {
        Chooser::Random(rng) => {
            let finite: Vec<&Value> = switches
                .iter()
                .filter(|s| {
                    s["unlimited"] == false
                        && s["actions"].as_array().is_some_and(|a| !a.is_empty())
                })
                .collect();
            if finite.is_empty() {
                return None;
            }
            let sw = finite[rng.below(finite.len() as u64) as usize];
            let acts = sw["actions"].as_array()?;
            let a = &acts[rng.below(acts.len() as u64) as usize];
            Some(json!({"type": "submit", "chronon": chronon, "switch": sw["switch"], "action": a}))
        }
        // it asks for its observation first (`play`)
        Chooser::Ai(_) => Some(json!({"type": "observe"})),
        Chooser::Script(lines) => {
            let mut v = lines.pop_front()?;
            let o = v.as_object_mut()?;
            o.remove("player");
            o.insert("type".into(), json!("submit"));
            o.insert("chronon".into(), json!(chronon));
            Some(v)
        }
    }
}

/// One seat's bot: joins, plays until the session is no longer running; its last state.
async fn play(host: String, token: String, mut c: Chooser) -> Result<Value, String> {
    let (status, _) = http(&host, "POST", &format!("/p/{token}/join"), None).await?;
    if !(200..400).contains(&status) {
        return Err(format!("join: HTTP {status}"));
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{host}/p/{token}/ws"))
        .await
        .map_err(|e| format!("WebSocket: {e}"))?;
    // the chronon this bot last submitted for and whether it waits for an answer
    let mut acted: Option<u64> = None;
    let mut waiting = false;
    let mut last = Value::Null;
    while let Some(msg) = ws.next().await {
        let Ok(Message::Text(t)) = msg else {
            if msg.is_err() {
                return Err("the WebSocket broke".into());
            }
            continue;
        };
        let v: Value = serde_json::from_str(t.as_str()).map_err(|e| e.to_string())?;
        match v["type"].as_str() {
            Some("ack") => waiting = false,
            Some("observation") => {
                let Chooser::Ai(ai) = &c else { continue };
                let obs = crate::observe::parse(&v, ai.settings.clone())?;
                let chronon = obs.chronon;
                let (ai, seed) = (
                    ai.clone(),
                    ai.seed ^ chronon.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                );
                let choice = tokio::task::spawn_blocking(move || {
                    sidl_engine::ai::choose(&ai.game, &obs, ai.spec, seed)
                })
                .await
                .map_err(|e| e.to_string())?
                .map_err(|e| format!("the AI: {e}"))?;
                waiting = !choice.submissions.is_empty();
                for sub in &choice.submissions {
                    let msg = json!({
                        "type": "submit",
                        "chronon": chronon,
                        "switch": sidl_engine::write::canonical(&sub.switch),
                        "action": sidl_engine::write::canonical(&sub.action),
                    });
                    ws.send(Message::Text(msg.to_string().into()))
                        .await
                        .map_err(|e| e.to_string())?;
                }
            }
            Some("error") => {
                waiting = false;
                // refused: the seat may try again in this chronon (a script's next line)
                acted = None;
                eprintln!("bots: {token:.8}…: refused: {}", v["message"]);
                if let Some(sub) = choose(&mut c, &last) {
                    acted = last["chronon"].as_u64();
                    waiting = true;
                    ws.send(Message::Text(sub.to_string().into()))
                        .await
                        .map_err(|e| e.to_string())?;
                }
            }
            Some("state") => {
                last = v.clone();
                // a group waiting for its participants, or paused by the experimenter, goes on
                if !matches!(v["status"].as_str(), Some("running" | "waiting" | "paused")) {
                    let _ = ws.close(None).await;
                    return Ok(v);
                }
                let chronon = v["chronon"].as_u64();
                let may = v["switches"].as_array().is_some_and(|s| !s.is_empty())
                    && v["pending"].as_array().is_some_and(|p| p.is_empty());
                if may && !waiting && acted != chronon {
                    if let Some(sub) = choose(&mut c, &v) {
                        acted = chronon;
                        waiting = true;
                        ws.send(Message::Text(sub.to_string().into()))
                            .await
                            .map_err(|e| e.to_string())?;
                    }
                }
            }
            _ => {}
        }
    }
    Err("the server closed the WebSocket".into())
}

/// `sidl serve bots`: plays every human seat of the session to its end; prints each seat's end.
pub fn run(args: &BotsArgs) -> Result<(), String> {
    let host = authority(&args.url)?;
    let token = match &args.token {
        Some(t) => t.clone(),
        None => std::env::var(crate::TOKEN_ENV)
            .map_err(|_| format!("give the admin token (--token or {})", crate::TOKEN_ENV))?,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let (status, body) = http(
            &host,
            "GET",
            &format!("/api/sessions/{}", args.session),
            Some(&token),
        )
        .await?;
        if status != 200 {
            return Err(format!("the session: HTTP {status}: {body}"));
        }
        let session: Value = serde_json::from_str(&body).map_err(|e| e.to_string())?;
        if let Some(n) = args.count {
            return through_room(&host, &session, n, args).await;
        }
        let seats = session["seats"].as_array().cloned().unwrap_or_default();
        let players: Vec<String> = seats
            .iter()
            .map(|s| s["player"].as_str().unwrap_or("").to_string())
            .collect();
        let choosers = match ai_player(&args.participants, &session, args.seed)? {
            Some(ai) => (0..players.len())
                .map(|i| {
                    Chooser::Ai(AiPlayer {
                        seed: ai.seed ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9),
                        ..ai.clone()
                    })
                })
                .collect(),
            None => chooser(&args.participants, args.seed, &players)?,
        };
        let mut tasks = Vec::new();
        for (s, c) in seats.iter().zip(choosers) {
            let Some(link) = s["link"].as_str() else {
                continue;
            };
            let t = link.rsplit('/').next().unwrap_or("").to_string();
            let name = s["player"].as_str().unwrap_or("").to_string();
            tasks.push((name, tokio::spawn(play(host.clone(), t, c))));
        }
        finish(tasks, args.timeout_seconds).await
    })
}

/// `--count N`: N random participants arrive through the session's room one after the other
/// (labels `bot-1`, `bot-2`, …) and play the seats the room gives them.
async fn through_room(
    host: &str,
    session: &Value,
    n: usize,
    args: &BotsArgs,
) -> Result<(), String> {
    let ai = ai_player(&args.participants, session, args.seed)?;
    if ai.is_none() && args.participants != "random" {
        return Err("--count: random or AI participants arrive through a room".into());
    }
    let room = session["room"]
        .as_str()
        .and_then(|r| r.rsplit('/').next())
        .ok_or("--count: the session has no room")?
        .to_string();
    let mut tasks = Vec::new();
    for k in 1..=n {
        let label = format!("bot-{k}");
        let token = arrive(host, &room, &label).await?;
        let mix = (k as u64).wrapping_mul(0x9e37_79b9);
        let c = match &ai {
            Some(ai) => Chooser::Ai(AiPlayer {
                seed: ai.seed ^ mix,
                ..ai.clone()
            }),
            None => Chooser::Random(Rng::new(args.seed ^ mix)),
        };
        tasks.push((label, tokio::spawn(play(host.to_string(), token, c))));
    }
    finish(tasks, args.timeout_seconds).await
}

type Task = (String, tokio::task::JoinHandle<Result<Value, String>>);

/// Waits for every bot's end; prints each; fails unless every one finished.
async fn finish(tasks: Vec<Task>, timeout_seconds: u64) -> Result<(), String> {
    let args_timeout = timeout_seconds;
    {
        let mut end = Vec::new();
        for (name, task) in tasks {
            let out = tokio::time::timeout(Duration::from_secs(args_timeout), task)
                .await
                .map_err(|_| format!("{name}: no end within {args_timeout} s"))?
                .map_err(|e| e.to_string())??;
            println!(
                "{name}: {} after {} chronons, account {}",
                out["status"].as_str().unwrap_or(""),
                out["chronon"],
                out["account"].as_str().unwrap_or("")
            );
            end.push(out);
        }
        match end.iter().find(|s| s["status"] != "finished") {
            Some(s) => Err(format!(
                "the session ended {}: {}",
                s["status"],
                s["message"].as_str().unwrap_or("")
            )),
            None => Ok(()),
        }
    }
}
