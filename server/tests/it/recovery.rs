//! `kill -9` in the middle of a chronon and a restart: the acknowledged submissions are there, the
//! deadline is the same, the seats reconnect to their history, and play goes on; a deadline that
//! passed while the server was down closes the chronon after the restart.

use crate::support::*;
use serde_json::json;

on_both_backends!(kill_mid_chronon_and_resume);
on_both_backends!(a_deadline_that_passed_while_down_closes_the_chronon);

async fn kill_mid_chronon_and_resume(db: Db) {
    let server = Server::start(&db, 0);
    let port = server.port;
    // rock-paper-scissors: simultaneous, hidden gestures; a deadline far away
    let created = server.create(
        "games/rps.sidl",
        json!({"seed": 5, "chronon_seconds": 3600, "timeout": "default"}),
    );
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
    let mut a = Seat::connect(&server.ws_url(&tokens[0])).await;
    let mut b = Seat::connect(&server.ws_url(&tokens[1])).await;
    // chronon 0: both choose, the chronon closes; chronon 1: only role1 chooses, then the crash
    let sa = a.until("state", |_| true).await;
    let sw_a = sa["switches"][0]["switch"].as_str().unwrap().to_string();
    assert_eq!(a.submit(0, &sw_a, "[role1,paper]").await["type"], "ack");
    // role2 never sees role1's choice while the chronon is open, only that role1 acted
    let sb = b
        .until("state", |v| v["waiting"] == json!(["[role2]"]))
        .await;
    let sw_b = sb["switches"][0]["switch"].as_str().unwrap().to_string();
    assert!(b.raw.iter().all(|r| !r.contains("[role1,paper]")));
    assert_eq!(b.submit(0, &sw_b, "[role2,rock]").await["type"], "ack");
    a.until("state", |v| v["chronon"] == 1).await;
    assert_eq!(a.submit(1, &sw_a, "[role1,scissors]").await["type"], "ack");
    let before = server.session(&id);
    assert_eq!(before["live"]["pending"], 1);
    let deadline = before["deadline_ms"].clone();
    assert!(deadline.is_i64());
    let history_a: Vec<_> = a
        .frames
        .iter()
        .filter(|f| f["type"] == "chronon")
        .cloned()
        .collect();
    assert_eq!(history_a.len(), 1);

    server.kill();
    let server = Server::start(&db, port);
    let after = server.session(&id);
    assert_eq!(after["chronon"], 1);
    assert_eq!(
        after["live"]["pending"], 1,
        "the acknowledged submission survived"
    );
    assert_eq!(
        after["deadline_ms"], deadline,
        "the countdown goes on from the stored deadline"
    );
    assert_eq!(after["live"]["deadline_ms"], deadline);

    // the same links reconnect to the same seats with the whole history and the pending choice
    let mut a = Seat::connect(&server.ws_url(&tokens[0])).await;
    let hello = a.until("hello", |_| true).await;
    assert_eq!(hello["player"], "[role1]");
    assert_eq!(
        hello["history"].as_array().unwrap(),
        &history_a
            .iter()
            .map(|f| f["record"].clone())
            .collect::<Vec<_>>()
    );
    let st = a.until("state", |_| true).await;
    assert_eq!(st["pending"], json!([["[role1]", "[role1,scissors]"]]));
    // a submission for the past chronon is refused and changes nothing
    let stale = a.submit(0, &sw_a, "[role1,rock]").await;
    assert_eq!(stale["code"], "stale_chronon", "{stale}");
    assert_eq!(server.session(&id)["live"]["pending"], 1);
    let mut b = Seat::connect(&server.ws_url(&tokens[1])).await;
    b.until("state", |_| true).await;
    assert!(
        b.raw.iter().all(|r| !r.contains("[role1,scissors]")),
        "role2 does not see role1's pending choice"
    );
    // play continues: role2 acts, the chronon closes with role1's choice from before the crash
    assert_eq!(b.submit(1, &sw_b, "[role2,paper]").await["type"], "ack");
    let rec = a.until("chronon", |v| v["record"]["chronon"] == 2).await;
    assert_eq!(
        rec["record"]["submissions"],
        json!([["[role1]", "[role1,scissors]"]])
    );
    a.until("state", |v| v["chronon"] == 2).await;
}

async fn a_deadline_that_passed_while_down_closes_the_chronon(db: Db) {
    let server = Server::start(&db, 0);
    let port = server.port;
    let created = server.create(
        "games/rps.sidl",
        json!({"seed": 2, "chronon_seconds": 1, "timeout": "default"}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let deadline = server.session(&id)["deadline_ms"].as_i64().unwrap();
    server.kill();
    // wait until the stored deadline has passed, then restart
    while sidl_server::session::now_ms() <= deadline + 100 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let server = Server::start(&db, port);
    let token = token_of(created["seats"][0]["link"].as_str().unwrap());
    join(&server, &token);
    let mut a = Seat::connect(&server.ws_url(&token)).await;
    // the first chronon closed by its (passed) deadline: the defaults (wait) ran
    let hello = a.until("hello", |_| true).await;
    let first = match hello["history"].as_array().unwrap().first() {
        Some(r) => r.clone(),
        None => a.until("chronon", |v| v["record"]["chronon"] == 1).await["record"].clone(),
    };
    assert_eq!(first["chronon"], 1);
    assert_eq!(first["submissions"], json!([]));
    assert!(first["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["how"] == "default"));
    assert!(server.session(&id)["chronon"].as_u64().unwrap() >= 1);
}
