//! Two `sidl serve` processes on one PostgreSQL: participants connected to both, one process
//! drives the session and the other relays it; `kill -9` of the driver in the middle of a chronon,
//! the other takes over, every acknowledged submission is stored, and play goes on to the end.
//! Needs the test PostgreSQL (`scripts/with-postgres.sh`): skipped with a message without one,
//! a failure under CI.

use crate::support::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A gesture (or waiting) for a player in a chronon, varied so that the rounds differ.
fn gesture(player: &str, chronon: u64) -> String {
    let p = player.trim_matches(|c| c == '[' || c == ']');
    let g = ["rock", "paper", "scissors", "wait"][(chronon as usize + p.len()) % 4];
    format!("[{p},{g}]")
}

/// The seat's switch (its only one in rps).
fn switch_of(state: &Value) -> String {
    state["switches"][0]["switch"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_process_takes_over_when_the_driver_dies() {
    let Some(db) = Db::postgres() else {
        return;
    };
    let a = Server::start(&db, 0);
    let b = Server::start(&db, 0);
    // created on a, so a drives it; no deadline (wait), so only the participants close chronons
    let created = a.create("games/rps.sidl", json!({"seed": 3, "timeout": "wait"}));
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| token_of(s["link"].as_str().unwrap()))
        .collect();
    let players = ["[role1]", "[role2]"];
    // a seat joins through either process (the seats are in the database)
    join(&b, &tokens[0]);
    join(&a, &tokens[1]);
    assert_eq!(a.session(&id)["live"]["driving"], true);
    assert_eq!(b.session(&id)["live"]["driving"], false, "b follows");

    // role1 plays through a (the driver), role2 through b (a relay)
    let mut r1 = Seat::connect(&a.ws_url(&tokens[0])).await;
    let mut r2 = Seat::connect(&b.ws_url(&tokens[1])).await;
    assert_eq!(r2.until("hello", |_| true).await["player"], players[1]);
    // every acknowledged submission: (chronon, switch, action)
    let mut acked: Vec<(u64, String, String)> = Vec::new();
    let mut ack = |v: &Value| {
        assert_eq!(v["type"], "ack", "{v}");
        acked.push((
            v["chronon"].as_u64().unwrap(),
            v["switch"].as_str().unwrap().to_string(),
            v["action"].as_str().unwrap().to_string(),
        ));
    };

    // chronon 0: role1 (on the driver) chooses; role2 (on the relay) sees that role1 acted, not
    // what; its submission goes to the driver through the database and is acknowledged
    let s1 = r1.until("state", |_| true).await;
    let sw1 = switch_of(&s1);
    ack(&r1.submit(0, &sw1, "[role1,paper]").await);
    let s2 = r2
        .until("state", |v| v["waiting"] == json!(["[role2]"]))
        .await;
    let sw2 = switch_of(&s2);
    assert!(r2.raw.iter().all(|f| !f.contains("[role1,paper]")));
    ack(&r2.submit(0, &sw2, "[role2,rock]").await);
    // the relay hands role2 the chronon's record and the new state, as the driver does
    let rec = r2.until("chronon", |v| v["record"]["chronon"] == 1).await;
    assert_eq!(
        rec["record"]["submissions"],
        json!([["[role2]", "[role2,rock]"]])
    );
    r2.until("state", |v| v["chronon"] == 1).await;
    r1.until("state", |v| v["chronon"] == 1).await;

    // chronon 1: role2 (relay) chooses, then the driver dies in the middle of the chronon
    ack(&r2.submit(1, &sw2, "[role2,scissors]").await);
    let history_r1: Vec<Value> = r1
        .frames
        .iter()
        .filter(|f| f["type"] == "chronon")
        .map(|f| f["record"].clone())
        .collect();
    let killed = Instant::now();
    a.kill();

    // role1 comes back through b with the same link: same seat, whole history; it submits before
    // b has taken over: the submission waits in the database and is acknowledged once b drives
    let mut r1 = Seat::connect(&b.ws_url(&tokens[0])).await;
    let hello = r1.until("hello", |_| true).await;
    assert_eq!(hello["player"], players[0]);
    assert_eq!(hello["history"].as_array().unwrap(), &history_r1);
    let st = r1.until("state", |_| true).await;
    assert_eq!(st["chronon"], 1);
    assert_eq!(st["waiting"], json!(["[role1]"]), "role2's choice survived");
    ack(&r1.submit(1, &sw1, "[role1,rock]").await);
    let mut took_over = None;
    while took_over.is_none() {
        if b.session(&id)["live"]["driving"] == true {
            took_over = Some(killed.elapsed());
        } else {
            assert!(
                killed.elapsed() < Duration::from_secs(60),
                "b never took over"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    eprintln!(
        "cluster: b drives {} ms after the driver's kill -9",
        took_over.unwrap().as_millis()
    );
    let rec = r1.until("chronon", |v| v["record"]["chronon"] == 2).await;
    assert_eq!(
        rec["record"]["submissions"],
        json!([["[role1]", "[role1,rock]"]])
    );
    let rec = r2.until("chronon", |v| v["record"]["chronon"] == 2).await;
    assert_eq!(
        rec["record"]["submissions"],
        json!([["[role2]", "[role2,scissors]"]]),
        "the submission acknowledged by the dead driver is in the chronon"
    );

    // play goes on through b to the end
    let mut seats = [r1, r2];
    let mut c = 2;
    loop {
        let mut finished = false;
        for (i, s) in seats.iter_mut().enumerate() {
            let st = s
                .until("state", |v| v["chronon"].as_u64().unwrap() >= c)
                .await;
            if st["status"] != "running" {
                assert_eq!(st["status"], "finished", "{st}");
                finished = true;
                continue;
            }
            assert_eq!(st["chronon"], c);
            let v = s.submit(c, &switch_of(&st), &gesture(players[i], c)).await;
            ack(&v);
        }
        if finished {
            break;
        }
        c += 1;
        // under the server's rate limit (20 messages a second per WebSocket)
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    assert_eq!(c, 30, "rps has 10 rounds of 3 chronons");
    let end = b.session(&id);
    assert_eq!(end["status"], "finished");
    assert_eq!(end["chronon"], 30);

    // every acknowledged submission is stored, once, in order
    // (the synchronous client runs, and is dropped, off the test's runtime)
    let stored: Vec<(u64, String, String)> = std::thread::scope(|s| {
        s.spawn(|| db.store("checker").submissions(&id).unwrap())
            .join()
            .unwrap()
    })
    .into_iter()
    .filter(|r| r.source == "human")
    .map(|r| (r.chronon, r.switch, r.action))
    .collect();
    assert_eq!(stored, acked);
}

/// A participant connected to a process that dies (kill -9, no `disconnected` event) counts as
/// disconnected on the driver once that process's heartbeat has run out: the monitor shows it
/// dropped, and the driver logs the `disconnected` the dead process could not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_on_a_dead_process_counts_as_disconnected() {
    let Some(db) = Db::postgres() else {
        return;
    };
    let driver = Server::start(&db, 0);
    let relay = Server::start(&db, 0);
    let created = driver.create("games/rps.sidl", json!({"seed": 3, "timeout": "wait"}));
    let id = created["id"].as_str().unwrap().to_string();
    let token = token_of(created["seats"][0]["link"].as_str().unwrap());
    join(&relay, &token);
    let mut seat = Seat::connect(&relay.ws_url(&token)).await;
    seat.until("hello", |_| true).await;
    let seat0 = |server: &Server| {
        let (status, v) = server.http(
            "GET",
            &format!("/api/sessions/{id}/monitor"),
            Some(TOKEN),
            None,
        );
        assert_eq!(status, 200, "{v}");
        v["groups"][0]["seats"][0].clone()
    };
    // connected through the relay: not dropped on the driver
    let deadline = Instant::now() + Duration::from_secs(30);
    while !seat0(&driver)["disconnected_since"].is_null() {
        assert!(Instant::now() < deadline, "{}", seat0(&driver));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    relay.kill();
    let killed = Instant::now();
    while seat0(&driver)["disconnected_since"].is_null() {
        assert!(
            killed.elapsed() < Duration::from_secs(60),
            "still connected: {}",
            seat0(&driver)
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!(
        "cluster: the seat counts as disconnected {} ms after its process's kill -9",
        killed.elapsed().as_millis()
    );
    let (_, v) = driver.http(
        "GET",
        &format!("/api/sessions/{id}/events"),
        Some(TOKEN),
        None,
    );
    let last = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|e| e["event"] == "connected" || e["event"] == "disconnected")
        .cloned()
        .unwrap();
    assert_eq!(last["event"], "disconnected", "{last}");
    assert!(
        last["detail"]
            .to_string()
            .contains("server process stopped"),
        "{last}"
    );
}
