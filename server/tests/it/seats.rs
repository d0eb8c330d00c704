//! Automatic seats and the timeout policies: a random seat in interrupt mode (each submission runs
//! its own transition, the seat answers at once), killed and resumed mid-game; an AI taking over a
//! human seat that did not act by the deadline.

use crate::support::*;
use serde_json::{json, Value};

on_both_backends!(random_seat_in_interrupt_mode_survives_a_restart);
on_both_backends!(an_ai_takes_over_at_the_deadline);

/// Plays the human seat (the first action each time) until the game ends or `stop` chronons ran.
async fn play_first_actions(seat: &mut Seat, stop: u64) -> Value {
    loop {
        let st = seat.until("state", |_| true).await;
        let c = st["chronon"].as_u64().unwrap();
        if st["status"] != "running" || c >= stop {
            return st;
        }
        let Some(sw) = st["switches"].as_array().unwrap().first() else {
            continue;
        };
        let (switch, action) = (
            sw["switch"].as_str().unwrap(),
            sw["actions"][0].as_str().unwrap(),
        );
        let v = seat.submit(c, switch, action).await;
        assert_eq!(v["type"], "ack", "{v}");
    }
}

async fn random_seat_in_interrupt_mode_survives_a_restart(db: Db) {
    let server = Server::start(&db, 0);
    let port = server.port;
    let created = server.create(
        "games/tictactoe.sidl",
        json!({"seed": 4, "interrupt": true, "seats": {"oplayer": "random"}, "timeout": "wait"}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(
        created["seats"][1]["link"],
        Value::Null,
        "an automatic seat has no link"
    );
    let token = token_of(created["seats"][0]["link"].as_str().unwrap());
    join(&server, &token);
    let mut x = Seat::connect(&server.ws_url(&token)).await;
    // x marks, o answers at once: after x's second mark four chronons ran
    let st = play_first_actions(&mut x, 4).await;
    assert_eq!(st["chronon"], 4);
    let before = server.session(&id);
    server.kill();
    let server = Server::start(&db, port);
    let after = server.session(&id);
    assert_eq!(after["chronon"], before["chronon"]);
    assert_eq!(after["live"]["accounts"], before["live"]["accounts"]);
    let mut x = Seat::connect(&server.ws_url(&token)).await;
    let hello = x.until("hello", |_| true).await;
    assert_eq!(hello["history"].as_array().unwrap().len(), 4);
    let end = play_first_actions(&mut x, 100).await;
    assert_eq!(end["status"], "finished");
    assert!(end["switches"].as_array().unwrap().is_empty());
    assert_eq!(server.session(&id)["status"], "finished");

    // the random seat drew after the restart exactly as without one: the same session played
    // straight through has the same history
    let again = server.create(
        "games/tictactoe.sidl",
        json!({"seed": 4, "interrupt": true, "seats": {"oplayer": "random"}, "timeout": "wait"}),
    );
    let token2 = token_of(again["seats"][0]["link"].as_str().unwrap());
    join(&server, &token2);
    let mut x2 = Seat::connect(&server.ws_url(&token2)).await;
    assert_eq!(play_first_actions(&mut x2, 100).await["status"], "finished");
    let history = |t: String| {
        let url = server.ws_url(&t);
        async move { Seat::connect(&url).await.until("hello", |_| true).await["history"].clone() }
    };
    assert_eq!(history(token).await, history(token2).await);
}

async fn an_ai_takes_over_at_the_deadline(db: Db) {
    let server = Server::start(&db, 0);
    let created = server.create(
        "games/tictactoe.sidl",
        json!({"seed": 9, "seats": {"oplayer": "random"}, "timeout": {"ai": "minimax:1", "after": 0.2}}),
    );
    let token = token_of(created["seats"][0]["link"].as_str().unwrap());
    join(&server, &token);
    let mut x = Seat::connect(&server.ws_url(&token)).await;
    // x never acts: at each deadline the AI marks for it, and the record says it was x's switch
    // (the first chronon may have closed before the socket opened: then it is in the history)
    let hello = x.until("hello", |_| true).await;
    let rec = match hello["history"].as_array().unwrap().first() {
        Some(r) => r.clone(),
        None => x.until("chronon", |v| v["record"]["chronon"] == 1).await["record"].clone(),
    };
    let subs = rec["submissions"].as_array().unwrap();
    assert_eq!(subs.len(), 1, "{rec}");
    assert_eq!(subs[0][0], "[xplayer]");
    let id = created["id"].as_str().unwrap();
    assert_eq!(server.session(id)["config"]["timeout"]["ai"], "minimax:1");
}
