//! The experimenter's monitor (docs/serve.md, "Monitor"): every seat's connection, the designer's
//! view (admin only: no participant frame carries a fact of it that its player may not see),
//! pause and resume (the deadline stops and continues, also across a `kill -9`), "advance now",
//! replacing a dropped seat by an AI (kept across a restart), and the events list.

use crate::support::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

on_both_backends!(pause_resume_advance_and_the_designer_view);
on_both_backends!(a_dropped_seat_is_replaced_by_an_ai);

fn monitor(server: &Server, id: &str) -> Value {
    let (status, v) = server.http(
        "GET",
        &format!("/api/sessions/{id}/monitor"),
        Some(TOKEN),
        None,
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["groups"].as_array().unwrap().len(), 1);
    v["groups"][0].clone()
}

fn post(server: &Server, path: &str, body: Option<&str>) -> (u16, Value) {
    server.http("POST", path, Some(TOKEN), body)
}

fn events(server: &Server, id: &str) -> Vec<String> {
    let (status, v) = server.http(
        "GET",
        &format!("/api/sessions/{id}/events"),
        Some(TOKEN),
        None,
    );
    assert_eq!(status, 200, "{v}");
    v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap().to_string())
        .collect()
}

/// Every fact of the designer's views (as the monitor showed them) that `seat` never saw in its
/// own views must appear in none of its frames.
fn no_designer_leak(designer: &BTreeSet<String>, seat: &Seat) {
    let own: BTreeSet<String> = seat
        .frames
        .iter()
        .filter(|f| f["type"] == "state")
        .flat_map(|f| f["view"].as_array().unwrap().clone())
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let hidden: Vec<&String> = designer.difference(&own).collect();
    assert!(!hidden.is_empty(), "the designer sees more than a player");
    for raw in &seat.raw {
        for fact in &hidden {
            assert!(!raw.contains(fact.as_str()), "{fact} leaked in {raw}");
        }
        assert!(!raw.contains("designer"), "{raw}");
    }
}

async fn pause_resume_advance_and_the_designer_view(db: Db) {
    let sqlite = matches!(db, Db::Sqlite(_));
    let server = Server::start(&db, 0);
    let created = server.create(
        "games/kuhn.sidl",
        json!({"seed": 5, "chronon_seconds": 30, "timeout": "default"}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| token_of(s["link"].as_str().unwrap()))
        .collect();
    // admin only
    let (status, _) = server.http("GET", &format!("/api/sessions/{id}/monitor"), None, None);
    assert_eq!(status, 401);
    let (status, _) = server.http(
        "POST",
        &format!("/api/sessions/{id}/pause"),
        Some(&tokens[0]),
        None,
    );
    assert_eq!(status, 401);
    for t in &tokens {
        join(&server, t);
    }
    let mut p1 = Seat::connect(&server.ws_url(&tokens[0])).await;
    let mut p2 = Seat::connect(&server.ws_url(&tokens[1])).await;
    let st = p1.until("state", |_| true).await;
    p2.until("state", |_| true).await;
    let chronon = st["chronon"].as_u64().unwrap();

    let mut designer = BTreeSet::new();
    let m = monitor(&server, &id);
    assert_eq!(m["status"], "running");
    assert_eq!(m["seats"][0]["connections"], 1);
    assert_eq!(m["seats"][1]["connections"], 1);
    assert!(m["seats"][0]["joined_ms"].is_i64());
    assert!(m["seats"][0]["disconnected_since"].is_null());
    designer.extend(
        m["designer"]["view"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string()),
    );
    let deadline = m["deadline_ms"].as_i64().unwrap();
    // the game's labels (the engine's `present`, the designer's view): both cards, the seats'
    // moves; the raw terms stay in `designer`
    let labels = &m["labels"];
    let view: Vec<&str> = labels["view"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    for p in ["Player 1 holds the ", "Player 2 holds the "] {
        assert!(view.iter().any(|f| f.starts_with(p)), "{view:?}");
    }
    assert_eq!(labels["players"], json!(["Player 1", "Player 2"]));
    assert_eq!(
        labels["switches"][0],
        json!([["Player 1's move", ["Player 1 checks", "Player 1 bets 1"]]])
    );
    assert_eq!(
        m["designer"]["switches"][0],
        json!([["[p1]", ["[p1,check]", "[p1,bet]"]]])
    );
    assert!(labels["events"][0][1][0]
        .as_str()
        .unwrap()
        .starts_with("the deal ← cards are dealt (drawn)"));
    assert!(m["designer"]["events"][0][1][0]
        .as_str()
        .unwrap()
        .starts_with("[deal] ← [deal,"));

    // pause: the session stops, submissions are refused, the seats see it
    let (status, v) = post(&server, &format!("/api/sessions/{id}/pause"), None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ok"]["status"], "paused");
    p1.until("state", |s| s["status"] == "paused").await;
    let (switch, action) = {
        let s = p1.last_state().clone();
        let sw = &s["switches"];
        assert!(sw.as_array().unwrap().is_empty(), "no actions while paused");
        let st1 = st["switches"][0].clone();
        (
            st1["switch"].as_str().unwrap_or("[p1]").to_string(),
            st1["actions"][0]
                .as_str()
                .unwrap_or("[p1,check]")
                .to_string(),
        )
    };
    let v = p1.submit(chronon, &switch, &action).await;
    assert_eq!(v["code"], "not_running", "{v}");
    let (status, v) = post(&server, &format!("/api/sessions/{id}/advance"), None);
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_running"))
    );
    let (status, _) = post(&server, &format!("/api/sessions/{id}/pause"), None);
    assert_eq!(status, 409);

    // the countdown stops: after 1.5 s of pause the deadline is 1.5 s later
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let (status, v) = post(&server, &format!("/api/sessions/{id}/resume"), None);
    assert_eq!(status, 200, "{v}");
    let resumed = v["ok"]["deadline_ms"].as_i64().unwrap();
    assert!(resumed >= deadline + 1400, "{resumed} vs {deadline}");
    let (status, _) = post(&server, &format!("/api/sessions/{id}/resume"), None);
    assert_eq!(status, 409);
    assert_eq!(monitor(&server, &id)["status"], "running");

    // a pause survives kill -9: paused after the restart, and the deadline still waits
    let (status, _) = post(&server, &format!("/api/sessions/{id}/pause"), None);
    assert_eq!(status, 200);
    let port = server.port;
    server.kill();
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let server = Server::start(&db, port);
    assert_eq!(server.session(&id)["status"], "paused");
    let m = monitor(&server, &id);
    assert_eq!(m["status"], "paused");
    assert_eq!(m["seats"][0]["connections"], 0);
    // (on PostgreSQL a killed process's participants count as connected until they come back:
    // docs/serve.md, "Dropouts")
    if sqlite {
        assert!(m["seats"][0]["disconnected_since"].is_i64());
    }
    let (status, v) = post(&server, &format!("/api/sessions/{id}/resume"), None);
    assert_eq!(status, 200, "{v}");
    let again = v["ok"]["deadline_ms"].as_i64().unwrap();
    assert!(again >= resumed + 1100, "{again} vs {resumed}");

    // advance now: the chronon closes (the game's defaults), the seats get its record
    let mut p1 = Seat::connect(&server.ws_url(&tokens[0])).await;
    let mut p2 = Seat::connect(&server.ws_url(&tokens[1])).await;
    p1.until("state", |_| true).await;
    p2.until("state", |_| true).await;
    let (status, v) = post(&server, &format!("/api/sessions/{id}/advance"), None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ok"]["closed"], chronon + 1);
    p1.until("chronon", |r| r["record"]["chronon"] == chronon + 1)
        .await;
    p2.until("chronon", |r| r["record"]["chronon"] == chronon + 1)
        .await;
    let m = monitor(&server, &id);
    assert!(m["chronon"].as_u64().unwrap() > chronon);
    designer.extend(
        m["designer"]["view"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string()),
    );
    p1.until("state", |_| true).await;
    p2.until("state", |_| true).await;
    no_designer_leak(&designer, &p1);
    no_designer_leak(&designer, &p2);
    // nor the designer's label of the other's card
    for (seat, other) in [(&p1, "Player 2 holds"), (&p2, "Player 1 holds")] {
        assert!(seat.raw.iter().all(|f| !f.contains(other)), "{other}");
    }

    let ev = events(&server, &id);
    // (no `disconnected`: the sockets ended with the kill -9)
    for kind in ["connected", "paused", "rejected", "resumed", "advanced"] {
        assert!(ev.iter().any(|e| e == kind), "{kind} in {ev:?}");
    }
    // the export carries the monitor's actions too
    let (status, csv) = server.http(
        "GET",
        &format!("/api/sessions/{id}/export/events.csv"),
        Some(TOKEN),
        None,
    );
    assert_eq!(status, 200);
    assert!(csv.as_str().unwrap().contains(",paused,"), "{csv}");
}

async fn a_dropped_seat_is_replaced_by_an_ai(db: Db) {
    let server = Server::start(&db, 0);
    let created = server.create("games/kuhn.sidl", json!({"seed": 8, "timeout": "wait"}));
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| token_of(s["link"].as_str().unwrap()))
        .collect();
    for t in &tokens {
        join(&server, t);
    }
    // p2 connects once and drops
    {
        let mut p2 = Seat::connect(&server.ws_url(&tokens[1])).await;
        p2.until("state", |_| true).await;
    }
    let mut p1 = Seat::connect(&server.ws_url(&tokens[0])).await;
    p1.until("state", |_| true).await;
    let mut m = monitor(&server, &id);
    for _ in 0..50 {
        if m["seats"][1]["disconnected_since"].is_i64() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        m = monitor(&server, &id);
    }
    assert_eq!(m["seats"][1]["connections"], 0);
    assert!(m["seats"][1]["disconnected_since"].is_i64(), "{m}");
    assert_eq!(m["seats"][0]["connections"], 1);

    let path = format!("/api/sessions/{id}/seats/1/replace");
    let (status, v) = post(&server, &path, Some(r#"{"ai": "human"}"#));
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad_config"))
    );
    let (status, v) = post(&server, &path, Some(r#"{"ai": "mcts:50"}"#));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["kind"], "mcts:50");
    let (status, v) = post(&server, &path, Some(r#"{"ai": "mcts:50"}"#));
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_human"))
    );
    let (status, _) = post(
        &server,
        &format!("/api/sessions/{id}/seats/9/replace"),
        Some(r#"{"ai": "random"}"#),
    );
    assert_eq!(status, 404);

    // kept across a restart; the replaced participant's submissions are refused
    let port = server.port;
    server.kill();
    let server = Server::start(&db, port);
    let m = monitor(&server, &id);
    assert_eq!(m["seats"][1]["kind"], "mcts:50");
    assert_eq!(m["seats"][1]["replaced"], "mcts:50");
    let mut p2 = Seat::connect(&server.ws_url(&tokens[1])).await;
    let st = p2.until("state", |_| true).await;
    let v = p2
        .submit(st["chronon"].as_u64().unwrap(), "[p2]", "[p2,check]")
        .await;
    assert_eq!(v["type"], "error");

    // p1 plays to the end against the AI
    let mut p1 = Seat::connect(&server.ws_url(&tokens[0])).await;
    loop {
        let st = p1.until("state", |_| true).await;
        if st["status"] != "running" {
            assert_eq!(st["status"], "finished", "{st}");
            break;
        }
        // a state with its own submission pending: the chronon waits for the AI
        let Some(sw) = st["switches"].as_array().unwrap().first() else {
            continue;
        };
        if !st["pending"].as_array().unwrap().is_empty() {
            continue;
        }
        let v = p1
            .submit(
                st["chronon"].as_u64().unwrap(),
                sw["switch"].as_str().unwrap(),
                sw["actions"][0].as_str().unwrap(),
            )
            .await;
        assert_eq!(v["type"], "ack", "{v}");
    }
    let ev = events(&server, &id);
    assert!(ev.iter().any(|e| e == "replaced"), "{ev:?}");
    let (_, jsonl) = server.http(
        "GET",
        &format!("/api/sessions/{id}/export/events.jsonl"),
        Some(TOKEN),
        None,
    );
    let rows: Vec<Value> = jsonl
        .as_str()
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows
        .iter()
        .any(|r| r["event"] == "submission" && r["player"] == "[p2]" && r["source"] == "ai"));
}

on_both_backends!(the_experimenter_plays_its_seat_from_the_monitor);

/// A game with a player named `experimenter`: that seat has no link and is played from the
/// monitor (`seats/{index}/submit`, source `experimenter`); its participants wait for it. A pause
/// does not count in the `decision_ms` of the event log.
async fn the_experimenter_plays_its_seat_from_the_monitor(db: Db) {
    let server = Server::start(&db, 0);
    let s = server.create(
        "server/tests/it/monitor/announce.sidl",
        json!({"seed": 1, "timeout": "wait", "disconnect": {"after": 0.05}}),
    );
    let id = s["id"].as_str().unwrap().to_string();
    let seats = s["seats"].as_array().unwrap();
    let exp = seats
        .iter()
        .position(|x| x["player"] == "[experimenter]")
        .unwrap();
    let p1 = 1 - exp;
    assert_eq!(seats[exp]["kind"], "experimenter");
    assert!(
        seats[exp]["link"].is_null(),
        "the experimenter's seat has no link"
    );
    let token = token_of(seats[p1]["link"].as_str().unwrap());
    join(&server, &token);
    let mut seat = Seat::connect(&server.ws_url(&token)).await;
    let st = seat.until("state", |_| true).await;
    assert_eq!(st["switches"], json!([]));
    assert_eq!(st["waiting"], json!(["[experimenter]"]));
    // the monitor offers the experimenter's actions (never absent, whatever the policy)
    std::thread::sleep(std::time::Duration::from_millis(100));
    let m = monitor(&server, &id);
    assert_eq!(m["seats"][exp]["kind"], "experimenter");
    assert_eq!(m["seats"][exp]["absent"], false);
    assert_eq!(m["seats"][exp]["disconnected_since"], Value::Null);
    assert_eq!(
        m["seats"][exp]["switches"][0]["actions"],
        json!(["[experimenter,high]", "[experimenter,low]"])
    );
    // a participant's seat is not the experimenter's; a bad action is refused
    let body = r#"{"switch": "[p1]", "action": "[p1,accept]"}"#;
    let (status, v) = post(
        &server,
        &format!("/api/sessions/{id}/seats/{p1}/submit"),
        Some(body),
    );
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_experimenter")),
        "{v}"
    );
    let body = r#"{"switch": "[experimenter]", "action": "[experimenter,medium]"}"#;
    let (status, v) = post(
        &server,
        &format!("/api/sessions/{id}/seats/{exp}/submit"),
        Some(body),
    );
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("rejected")),
        "{v}"
    );
    let body = r#"{"switch": "[experimenter]", "action": "[experimenter,high]"}"#;
    let (status, v) = post(
        &server,
        &format!("/api/sessions/{id}/seats/{exp}/submit"),
        Some(body),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["action"], "[experimenter,high]");
    let st = seat
        .until("state", |s| !s["switches"].as_array().unwrap().is_empty())
        .await;
    assert!(st["view"]
        .as_array()
        .unwrap()
        .contains(&json!("[treatment,high]")));
    // a game without labels: the seat's record carries the engine's raw event texts (the page
    // makes none of its own), and no `chosen`
    let rec = seat
        .frames
        .iter()
        .find(|f| f["type"] == "chronon" && f["record"]["chronon"] == 1)
        .expect("chronon 1's record")["record"]
        .clone();
    assert_eq!(
        rec["texts"],
        json!([
            "- [start]",
            "+ [treatment,high]",
            "[p1] gets 0",
            "[experimenter] gets 0"
        ]),
        "{rec}"
    );
    assert!(rec.get("chosen").is_none(), "{rec}");
    // a pause of p1's chronon: not part of its decision time
    let (status, _) = post(&server, &format!("/api/sessions/{id}/pause"), None);
    assert_eq!(status, 200);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (status, _) = post(&server, &format!("/api/sessions/{id}/resume"), None);
    assert_eq!(status, 200);
    seat.until("state", |s| s["status"] == "running").await;
    let ack = seat.submit(1, "[p1]", "[p1,accept]").await;
    assert_eq!(ack["type"], "ack", "{ack}");
    seat.until("state", |s| s["status"] == "finished").await;
    assert_eq!(seat.last_state()["account"], "5");

    let auth = format!("Bearer {TOKEN}");
    let (_, _, text) = http_raw(
        &server,
        "GET",
        &format!("/api/sessions/{id}/export/events.jsonl"),
        &[("Authorization", &auth)],
    );
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let find = |event: &str, pred: &dyn Fn(&Value) -> bool| {
        rows.iter()
            .find(|r| r["event"] == event && pred(r))
            .unwrap_or_else(|| panic!("no {event} row in {text}"))
            .clone()
    };
    let by_exp = find("submission", &|r| r["player"] == "[experimenter]");
    assert_eq!(by_exp["source"], "experimenter");
    let chronon1 = find("chronon", &|r| r["chronon"] == 1);
    let paused = find("paused", &|_| true);
    let resumed = find("resumed", &|_| true);
    let by_p1 = find("submission", &|r| r["player"] == "[p1]");
    let at = |r: &Value| r["at_ms"].as_i64().unwrap();
    let pause = at(&resumed) - at(&paused);
    assert!(pause >= 300, "{pause}");
    assert_eq!(
        by_p1["decision_ms"].as_i64().unwrap(),
        at(&by_p1) - at(&chronon1) - pause,
        "{by_p1}"
    );
}

on_both_backends!(the_monitor_lists_who_waits_in_the_room);

/// A participant who arrived through the room while its group is not full: in the monitor's
/// `room_waiting`, with its label.
async fn the_monitor_lists_who_waits_in_the_room(db: Db) {
    let server = Server::start(&db, 0);
    let room = format!("wait{}", sidl_server::api::random_hex(3));
    let s = server.create("games/kuhn.sidl", json!({"seed": 2, "room": room}));
    let id = s["id"].as_str().unwrap().to_string();
    let (_, v) = server.http(
        "GET",
        &format!("/api/sessions/{id}/monitor"),
        Some(TOKEN),
        None,
    );
    assert_eq!(v["room_waiting"], json!([]));
    let (status, _, _) = http_raw(
        &server,
        "POST",
        &format!("/room/{room}/join?participant_label=alice"),
        &[],
    );
    assert_eq!(status, 303);
    let (_, v) = server.http(
        "GET",
        &format!("/api/sessions/{id}/monitor"),
        Some(TOKEN),
        None,
    );
    let w = v["room_waiting"].as_array().unwrap();
    assert_eq!(w.len(), 1, "{v}");
    assert_eq!(
        (w[0]["label"].as_str(), w[0]["group"].as_u64()),
        (Some("alice"), Some(1))
    );
    assert_eq!(w[0]["connected"], false);
    assert_eq!(v["groups"][0]["status"], "waiting");
}
