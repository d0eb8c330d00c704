//! A game with hidden information (games/kuhn.sidl) played to the end by two human seats over
//! their WebSockets; every frame a seat received is checked against the engine: no fact hidden from
//! its player, no other seat's pending submission. Also: a GET of a link joins nothing.

use crate::support::*;
use serde_json::{json, Value};
use sidl_engine::game::{Game, Session, Settings};
use sidl_engine::term::Term;
use sidl_engine::write::canonical;
use std::collections::BTreeSet;
use std::sync::Arc;

on_both_backends!(kuhn_to_the_end_without_leaks);
on_both_backends!(typed_templates_are_filled_by_the_engine);

/// The choice of a seat: bet when it may, call when facing a bet, else the first action.
fn choose(state: &Value) -> Option<(String, String)> {
    let sw = state["switches"].as_array()?.first()?;
    let actions: Vec<&str> = sw["actions"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let pick = ["bet", "call"]
        .iter()
        .find_map(|w| actions.iter().find(|a| a.contains(w)))
        .or(actions.first())?;
    Some((sw["switch"].as_str()?.to_string(), pick.to_string()))
}

async fn kuhn_to_the_end_without_leaks(db: Db) {
    let server = Server::start(&db, 0);
    let seed = 11;
    let created = server.create("games/kuhn.sidl", json!({"seed": seed, "timeout": "wait"}));
    let id = created["id"].as_str().unwrap().to_string();
    let seats = created["seats"].as_array().unwrap().clone();
    assert_eq!(seats.len(), 2);
    let tokens: Vec<String> = seats
        .iter()
        .map(|s| token_of(s["link"].as_str().unwrap()))
        .collect();
    let players: Vec<String> = seats
        .iter()
        .map(|s| s["player"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(players, ["[p1]", "[p2]"]);

    // the welcome page (a GET) joins nothing, and its WebSocket stays shut until the button's POST
    let (status, page) = server.http("GET", &format!("/p/{}", tokens[0]), None, None);
    assert_eq!(status, 200);
    assert!(page.as_str().unwrap().contains("method=\"post\""));
    assert!(server.session(&id)["seats"][0]["joined_ms"].is_null());
    assert!(tokio_tungstenite::connect_async(server.ws_url(&tokens[0]))
        .await
        .is_err());
    for t in &tokens {
        join(&server, t);
    }
    assert!(server.session(&id)["seats"][0]["joined_ms"].is_i64());

    let mut ws = [
        Seat::connect(&server.ws_url(&tokens[0])).await,
        Seat::connect(&server.ws_url(&tokens[1])).await,
    ];
    for (i, s) in ws.iter_mut().enumerate() {
        let hello = s.until("hello", |_| true).await;
        assert_eq!(hello["player"], players[i]);
    }
    // (player, switch, action, chronon) of every acknowledged submission
    let mut made: Vec<(usize, String, String, u64)> = Vec::new();
    let mut c = 0;
    loop {
        let mut states = Vec::new();
        for s in ws.iter_mut() {
            states.push(
                s.until("state", |v| v["chronon"].as_u64().unwrap() >= c)
                    .await,
            );
        }
        let chronons: Vec<u64> = states
            .iter()
            .map(|s| s["chronon"].as_u64().unwrap())
            .collect();
        if chronons[0] != chronons[1] {
            c = *chronons.iter().max().unwrap();
            continue;
        }
        c = chronons[0];
        if states.iter().all(|s| s["status"] == "finished") {
            break;
        }
        assert!(c < 20, "kuhn ends within a few chronons");
        let Some(i) = states
            .iter()
            .position(|s| !s["switches"].as_array().unwrap().is_empty())
        else {
            panic!("nobody may act at chronon {c}: {states:?}");
        };
        // who is still to act: the seat that may, and only its name
        for s in &states {
            assert_eq!(s["waiting"], json!([players[i]]));
        }
        let (sw, act) = choose(&states[i]).unwrap();
        let ack = ws[i].submit(c, &sw, &act).await;
        assert_eq!(ack["type"], "ack", "{ack}");
        made.push((i, sw, act, c));
        c += 1;
    }
    assert!(made.len() >= 2);

    // the engine's account of the same play: which facts were hidden from whom, the payoffs
    let text = std::fs::read_to_string(repo().join("games/kuhn.sidl")).unwrap();
    let game = Arc::new(Game::load(&text).unwrap().0);
    let mut session = Session::new(game, seed, Settings::default()).unwrap();
    let pterms: Vec<Term> = session.players();
    let mut hidden: Vec<BTreeSet<String>> = vec![BTreeSet::new(); 2];
    let mut seen: Vec<BTreeSet<String>> = vec![BTreeSet::new(); 2];
    let mut observe = |session: &mut Session| {
        let all: Vec<String> = session.view(None).unwrap().iter().map(canonical).collect();
        for (i, p) in pterms.iter().enumerate() {
            let mine: BTreeSet<String> = session
                .view(Some(p))
                .unwrap()
                .iter()
                .map(canonical)
                .collect();
            hidden[i].extend(all.iter().filter(|f| !mine.contains(*f)).cloned());
            seen[i].extend(mine);
        }
    };
    let last = made.last().unwrap().3;
    for chronon in 0..=last {
        observe(&mut session);
        for (i, sw, act, _) in made.iter().filter(|m| m.3 == chronon) {
            let parse = |t: &str| sidl_engine::syntax::parse_term(t).unwrap().term;
            session
                .submit(&session.players()[*i], &parse(sw), &parse(act))
                .unwrap()
                .unwrap();
        }
        session.run_chronon().unwrap();
    }
    observe(&mut session);
    assert!(session.is_terminal().unwrap());
    for (i, s) in ws.iter().enumerate() {
        // facts hidden from this player at some point and never shown to it
        let secret: Vec<&String> = hidden[i].iter().filter(|f| !seen[i].contains(*f)).collect();
        assert!(
            !secret.is_empty(),
            "kuhn hides the opponent's card from {}",
            players[i]
        );
        for raw in &s.raw {
            for f in &secret {
                assert!(
                    !raw.contains(f.as_str()),
                    "{} received the hidden fact {f}: {raw}",
                    players[i]
                );
            }
        }
        for f in s.frames.iter().filter(|f| f["type"] == "state") {
            for p in f["pending"].as_array().unwrap() {
                assert_eq!(p[0], players[i], "only its own pending submissions");
            }
        }
        // the end screen's payoff is the engine's account
        let end = s.last_state();
        assert_eq!(end["status"], "finished");
        assert_eq!(end["account"], canonical(&session.state().accounts[i]));
        // the whole own history arrived: one record per chronon
        let records = s.frames.iter().filter(|f| f["type"] == "chronon").count()
            + s.frames[0]["history"].as_array().unwrap().len();
        assert_eq!(records as u64, session.chronon());
    }

    // after a restart, an ended session's links still show the end screen and the whole history
    let port = server.port;
    server.kill();
    let server = Server::start(&db, port);
    let mut again = Seat::connect(&server.ws_url(&tokens[0])).await;
    let hello = again.until("hello", |_| true).await;
    assert_eq!(
        hello["history"].as_array().unwrap().len() as u64,
        session.chronon()
    );
    let end = again.until("state", |_| true).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(end["account"], canonical(&session.state().accounts[0]));
}

/// An unlimited switch through its typed template: the server fills the slots with the engine's
/// `fill_template` and the engine checks the action; a value of the wrong type or count is refused.
async fn typed_templates_are_filled_by_the_engine(db: Db) {
    let server = Server::start(&db, 0);
    let created = server.create(
        "games/priceNegotiation.sidl",
        json!({"seed": 1, "timeout": "wait",
               "seats": {"bob": "random", "clara": "random", "david": "random", "seller": "random"}}),
    );
    let token = token_of(created["seats"][0]["link"].as_str().unwrap());
    join(&server, &token);
    let mut alice = Seat::connect(&server.ws_url(&token)).await;
    let st = alice.until("state", |_| true).await;
    let sw = &st["switches"][0];
    assert_eq!(sw["unlimited"], true);
    let i = sw["slots"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s[0]["type"] == "double")
        .unwrap();
    let c = st["chronon"].as_u64().unwrap();
    let submit = |values: Value| json!({"type": "submit", "chronon": c, "switch": "[alice]", "template": i, "values": values});
    for (values, code) in [
        (json!(["cheap"]), "rejected"),
        (json!(["12", "13"]), "rejected"),
        (json!(["1.0"]), "rejected"), // below the start price: switch/2 refuses it
        (json!(["1.0 +"]), "bad_term"),
    ] {
        alice.send(submit(values)).await;
        let v = alice.until("error", |_| true).await;
        assert_eq!(v["code"], code, "{v}");
    }
    alice.send(submit(json!(["12"]))).await;
    let ack = alice.until("ack", |_| true).await;
    assert_eq!(
        ack["action"], "[alice,12.0]",
        "an integer in a double slot is held as a float"
    );
    let rec = alice
        .until("chronon", |v| v["record"]["chronon"] == c + 1)
        .await;
    assert_eq!(
        rec["record"]["submissions"],
        json!([["[alice]", "[alice,12.0]"]])
    );
    // the event log (docs/serve.md, "Data export"): the refusals with the values sent, the
    // accepted submission with its typed slot value
    let (status, log) = server.http(
        "GET",
        &format!(
            "/api/sessions/{}/export/events.jsonl",
            created["id"].as_str().unwrap()
        ),
        Some(TOKEN),
        None,
    );
    assert_eq!(status, 200);
    let rows: Vec<Value> = log
        .as_str()
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Value| r["player"] == "[alice]" && r["event"] != "connected")
        .collect();
    let seen: Vec<(Value, Value, Value)> = rows
        .iter()
        .map(|r| {
            (
                r["event"].clone(),
                r["values"].clone(),
                r["accepted"].clone(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (json!("rejected"), json!(["cheap"]), json!(false)),
            (json!("rejected"), json!(["12", "13"]), json!(false)),
            (json!("rejected"), json!(["1.0"]), json!(false)),
            (json!("rejected"), json!(["1.0 +"]), json!(false)),
            (json!("submission"), json!([12.0]), json!(true)),
        ]
    );
    assert!(rows[3]["reason"]
        .as_str()
        .unwrap()
        .starts_with("bad_term: "));
    assert_eq!(rows[4]["action"], "[alice,12.0]");
}
