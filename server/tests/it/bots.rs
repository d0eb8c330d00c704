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
