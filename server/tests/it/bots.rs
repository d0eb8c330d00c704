//! `sidl serve bots --count N`: random participants arrive through a session's room link and form
//! its groups by arrival, then play every group to its end.

use crate::support::*;
use serde_json::json;
use std::process::Command;

on_both_backends!(bots_arrive_through_a_room_and_fill_the_groups);

async fn bots_arrive_through_a_room_and_fill_the_groups(db: Db) {
    let server = Server::start(&db, 0);
    let room = format!("botroom{}", sidl_server::api::random_hex(3));
    let created = server.create(
        "games/kuhn.sidl",
        json!({"seed": 2, "timeout": "wait", "room": room, "groups": 2}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_sidl-serve"))
        .args(["bots", &format!("http://127.0.0.1:{}", server.port), &id])
        .args(["--count", "4", "--seed", "3", "--token", TOKEN])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for k in 1..=4 {
        assert!(
            stdout.contains(&format!("bot-{k}: finished after")),
            "{stdout}"
        );
    }
    let s = server.session(&id);
    let groups = s["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    let mut labels = Vec::new();
    for g in groups {
        assert_eq!(g["status"], "finished", "{g}");
        for seat in g["seats"].as_array().unwrap() {
            labels.push(seat["label"].as_str().unwrap().to_string());
        }
    }
    labels.sort();
    assert_eq!(labels, ["bot-1", "bot-2", "bot-3", "bot-4"]);
    // the same label returns the same seat: bot-1 arriving again finds its ended game
    let out = Command::new(env!("CARGO_BIN_EXE_sidl-serve"))
        .args(["bots", &format!("http://127.0.0.1:{}", server.port), &id])
        .args(["--count", "1", "--token", TOKEN])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bot-1: finished after"));
}

on_both_backends!(ai_participants_play_through_the_api);

/// `--participants ai:SPEC`: the engine's AI plays the human seats through the real API, deciding
/// from the seat's observation (the WebSocket's `observe`) alone.
async fn ai_participants_play_through_the_api(db: Db) {
    let server = Server::start(&db, 0);
    let url = format!("http://127.0.0.1:{}", server.port);
    // the prisoner's dilemma: a one-step search defects (dominant), both seats, every time
    let pd = server.create(
        "games/econ/prisoner.sidl",
        json!({"seed": 4, "timeout": "wait"}),
    );
    let id = pd["id"].as_str().unwrap().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_sidl-serve"))
        .args(["bots", &url, &id, "--participants", "ai:minimax:1"])
        .args(["--token", TOKEN])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("[p1]: finished after 1 chronons, account 100"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[p2]: finished after 1 chronons, account 100"),
        "{stdout}"
    );
    let auth = format!("Bearer {TOKEN}");
    let events = http_raw(
        &server,
        "GET",
        &format!("/api/sessions/{id}/export/events.jsonl"),
        &[("Authorization", &auth)],
    );
    let subs: Vec<serde_json::Value> = events
        .2
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["event"] == "submission")
        .collect();
    assert_eq!(subs.len(), 2, "{}", events.2);
    for r in &subs {
        assert_eq!(r["source"], "human", "a bot is a participant: {r}");
        assert!(r["action"].as_str().unwrap().ends_with(",defect]"), "{r}");
    }

    // kuhn (hidden cards) through a room: two MCTS participants arrive and play to the end
    let room = format!("airoom{}", sidl_server::api::random_hex(3));
    let kuhn = server.create(
        "games/kuhn.sidl",
        json!({"seed": 6, "timeout": "wait", "room": room, "groups": 1}),
    );
    let id = kuhn["id"].as_str().unwrap().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_sidl-serve"))
        .args([
            "bots",
            &url,
            &id,
            "--participants",
            "ai:mcts:40",
            "--count",
            "2",
        ])
        .args(["--seed", "9", "--token", TOKEN])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("bot-1: finished after") && stdout.contains("bot-2: finished after"),
        "{stdout}"
    );
    assert_eq!(server.session(&id)["status"], "finished");
}

on_both_backends!(an_observation_holds_only_the_seats_information);

/// The `observe` answer: the seat's own card, never the other's.
async fn an_observation_holds_only_the_seats_information(db: Db) {
    let server = Server::start(&db, 0);
    let s = server.create("games/kuhn.sidl", json!({"seed": 8, "timeout": "wait"}));
    for (i, (me, other)) in [("p1", "p2"), ("p2", "p1")].into_iter().enumerate() {
        let token = token_of(s["seats"][i]["link"].as_str().unwrap());
        join(&server, &token);
        let mut seat = Seat::connect(&server.ws_url(&token)).await;
        seat.until("state", |_| true).await;
        seat.send(json!({"type": "observe"})).await;
        let obs = seat.until("observation", |_| true).await;
        let text = obs.to_string();
        assert!(text.contains(&format!("[card,{me},")), "{text}");
        assert!(!text.contains(&format!("[card,{other},")), "{text}");
        assert_eq!(obs["player"], format!("[{me}]"));
        let parsed = sidl_server::observe::parse(&obs, Default::default()).unwrap();
        assert_eq!(parsed.chronon, 1);
    }
}
