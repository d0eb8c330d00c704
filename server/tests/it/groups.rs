//! Groups and room links (docs/serve.md, "Rooms and groups"): six participants arriving through a
//! room link with labels at a two-seat game form three groups in order of arrival, each its own
//! game (own seed, own chronons) played to its end, across a `kill -9`; a scanner's GET changes
//! nothing; the same label (or, without labels, the same browser's cookie) returns the same seat
//! and its history; the exports of the three groups against the expected rows, and each group's
//! record replays to the trace of the same play run locally. The disconnection policy: a seat
//! nobody connects to is not waited for (the game's default), or an AI plays it.

use crate::support::*;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;

on_both_backends!(six_labels_form_three_groups_that_play_to_the_end);
on_both_backends!(a_room_without_labels_keeps_a_browser_in_its_seat);
on_both_backends!(a_disconnected_seat_gets_the_configured_policy);

const LABELS: [&str; 6] = ["PC01", "PC02", "PC03", "PC04", "PC05", "PC06"];

/// POST `/room/ROOM/join[?participant_label=L]` with the cookies given: the status, the seat token
/// it leads to and the cookie it sets.
fn room_join(
    server: &Server,
    room: &str,
    label: Option<&str>,
    cookie: Option<&str>,
) -> (u16, String, String) {
    let path = match label {
        Some(l) => format!("/room/{room}/join?participant_label={l}"),
        None => format!("/room/{room}/join"),
    };
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", *c)).collect();
    let (status, h, _) = http_raw(server, "POST", &path, &headers);
    let get = |k: &str| {
        h.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let token = get("location")
        .strip_prefix("/p/")
        .and_then(|r| r.strip_suffix("/play"))
        .unwrap_or("")
        .to_string();
    let cookie = get("set-cookie")
        .split(';')
        .next()
        .unwrap_or("")
        .to_string();
    (status, token, cookie)
}

/// Submits `action` for the seat's player as soon as its state offers a switch.
async fn act(seat: &mut Seat, action: &str) {
    let st = seat
        .until("state", |s| {
            s["status"] == "running" && !s["switches"].as_array().unwrap().is_empty()
        })
        .await;
    let c = st["chronon"].as_u64().unwrap();
    let switch = st["switches"][0]["switch"].as_str().unwrap().to_string();
    let v = seat.submit(c, &switch, action).await;
    assert_eq!(v["type"], "ack", "{action}: {v}");
}

async fn finished(seat: &mut Seat) -> Value {
    seat.until("state", |s| s["status"] == "finished").await
}

/// The session's groups as the admin API describes them.
fn groups(server: &Server, id: &str) -> Vec<Value> {
    server.session(id)["groups"].as_array().unwrap().clone()
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/it/groups")
            .join(name),
    )
    .unwrap()
}

fn export(server: &Server, id: &str, format: &str) -> String {
    let (status, _, body) = http_raw(
        server,
        "GET",
        &format!("/api/sessions/{id}/export/{format}"),
        &[("Authorization", &format!("Bearer {TOKEN}"))],
    );
    assert_eq!(status, 200, "{format}: {body}");
    body
}

/// A CSV with the server's times and links masked (`T`, `LINK`) and the session's id as `S`.
fn masked(text: &str, id: &str) -> String {
    let mut lines = text.split("\r\n");
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut out = vec![header.join(",")];
    for l in lines.filter(|l| !l.is_empty()) {
        // no quoted commas in the columns masked here
        let cells: Vec<String> = csv_fields(l)
            .into_iter()
            .zip(&header)
            .map(|(c, h)| {
                if (h.ends_with("at_ms") || h.ends_with("decision_ms") || h.ends_with("joined_ms"))
                    && !c.is_empty()
                {
                    assert!(c.parse::<i64>().unwrap() >= 0, "{h}: {c}");
                    "T".to_string()
                } else if *h == "link" {
                    "LINK".to_string()
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

fn csv_fields(line: &str) -> Vec<String> {
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

async fn six_labels_form_three_groups_that_play_to_the_end(db: Db) {
    let server = Server::start(&db, 0);
    let port = server.port;
    let created = server.create(
        "games/kuhn.sidl",
        json!({"seed": 11, "timeout": "wait", "room": "lab1", "groups": "arrival", "labels": LABELS}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(
        created["room"],
        format!("http://127.0.0.1:{port}/room/lab1"),
        "{created}"
    );
    assert_eq!(created["status"], "waiting");
    let before = server.session(&id);

    // a link scanner (or a preview) follows the links: nothing changes
    for path in [
        "/room/lab1?participant_label=PC01",
        "/room/lab1",
        "/room/lab1/join?participant_label=PC01",
    ] {
        let (status, _, body) = http_raw(&server, "GET", path, &[]);
        assert!(status == 200 || status == 405, "{path}: {status}");
        if path == "/room/lab1" {
            assert!(body.contains("name=\"participant_label\""), "{body}");
        }
        if path == "/room/lab1?participant_label=PC01" {
            assert!(
                body.contains("action=\"/room/lab1/join?participant_label=PC01\""),
                "{body}"
            );
        }
    }
    let (status, _, _) = http_raw(&server, "GET", "/room/lab2", &[]);
    assert_eq!(status, 404);
    assert_eq!(server.session(&id), before);
    // a label the session does not expect, and no label, are refused and change nothing
    assert_eq!(room_join(&server, "lab1", Some("PC99"), None).0, 403);
    assert_eq!(room_join(&server, "lab1", None, None).0, 400);
    assert_eq!(server.session(&id), before);

    // six arrivals: PC01, PC02 in group 1, PC03, PC04 in group 2, PC05, PC06 in group 3; a group
    // starts when it is full
    let mut tokens = Vec::new();
    for (i, l) in LABELS.iter().enumerate() {
        let (status, token, cookie) = room_join(&server, "lab1", Some(l), None);
        assert_eq!(status, 303);
        assert_eq!(token.len(), 64);
        assert_eq!(cookie, format!("sidl_seat={token}"));
        let g = &groups(&server, &id)[i / 2];
        assert_eq!(g["group"], i / 2 + 1);
        assert_eq!(g["seats"][i % 2]["label"], *l);
        assert_eq!(
            g["status"],
            if i % 2 == 0 { "waiting" } else { "running" },
            "{g}"
        );
        tokens.push(token);
    }
    let gs = groups(&server, &id);
    assert_eq!(gs.len(), 3);
    let ids: Vec<String> = gs
        .iter()
        .map(|g| g["id"].as_str().unwrap().into())
        .collect();
    assert_eq!(ids, [id.clone(), format!("{id}-2"), format!("{id}-3")]);
    // each group's own seed, from the session's seed and its number
    for (k, g) in gs.iter().enumerate() {
        assert_eq!(
            g["seed"],
            sidl_server::config::group_seed(11, k as u32 + 1),
            "{g}"
        );
    }
    // the same label again (a reload, another device): the same seat
    assert_eq!(room_join(&server, "lab1", Some("PC03"), None).1, tokens[2]);
    // the session list shows the session once
    let (_, list) = server.http("GET", "/api/sessions", Some(TOKEN), None);
    assert_eq!(list["sessions"].as_array().unwrap().len(), 1);

    // the groups play at the same time, each its own game: p1 bets in groups 1 and 2, checks in 3
    let mut seats = Vec::new();
    for t in &tokens {
        seats.push(Seat::connect(&server.ws_url(t)).await);
    }
    for (g, action) in ["[p1,bet]", "[p1,bet]", "[p1,check]"].iter().enumerate() {
        act(&mut seats[2 * g], action).await;
    }
    // (the acknowledgement comes before the chronon closes: wait for that too, so that the kill
    // below is after it)
    for g in 0..3 {
        seats[2 * g].until("state", |s| s["chronon"] == 2).await;
    }
    // kill -9 in the middle; after the restart every group goes on where it was
    drop(seats);
    server.kill();
    let server = Server::start(&db, port);
    let mut seats = Vec::new();
    for t in &tokens {
        seats.push(Seat::connect(&server.ws_url(t)).await);
    }
    // PC03 (group 2's p1) is back in its seat with its own history
    let hello = seats[2].until("hello", |_| true).await;
    assert_eq!(hello["player"], "[p1]");
    assert_eq!(
        hello["history"][1]["submissions"],
        json!([["[p1]", "[p1,bet]"]]),
        "{hello}"
    );
    for (g, action) in ["[p2,call]", "[p2,fold]", "[p2,check]"].iter().enumerate() {
        act(&mut seats[2 * g + 1], action).await;
    }
    for s in seats.iter_mut() {
        finished(s).await;
    }
    for g in groups(&server, &id) {
        assert_eq!(g["status"], "finished", "{g}");
    }
    drop(seats);

    // the exports: every group, with its number and the participants' labels (the connection
    // events left out: when a socket's close is noticed races with the play)
    let events = masked(&export(&server, &id, "events.csv"), &id);
    let events: String = events
        .lines()
        .filter(|l| !l.contains(",connected,") && !l.contains(",disconnected,"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(events, expected("kuhn.events.csv"));
    assert_eq!(
        masked(&export(&server, &id, "wide.csv"), &id),
        expected("kuhn.wide.csv")
    );
    assert_eq!(
        masked(&export(&server, &id, "payments.csv"), &id),
        expected("kuhn.payments.csv")
    );
    // one record per group, each replaying to the trace of the same play run locally
    let records = export(&server, &id, "record.jsonl");
    let lines: Vec<&str> = records.lines().collect();
    assert_eq!(lines.len(), 3);
    let text = std::fs::read_to_string(repo().join("games/kuhn.sidl")).unwrap();
    let game = Arc::new(sidl_engine::game::Game::load(&text).unwrap().0);
    let plays = [
        ("[p1, bet]", "[p2, call]"),
        ("[p1, bet]", "[p2, fold]"),
        ("[p1, check]", "[p2, check]"),
    ];
    for (k, (line, (a1, a2))) in lines.iter().zip(plays).enumerate() {
        let rec = sidl_engine::game::record::Record::from_line(line, k + 1).unwrap();
        let group = k as u32 + 1;
        assert_eq!(rec.group, Some(format!("{id}/{group}")));
        assert_eq!(rec.seed, sidl_server::config::group_seed(11, group));
        let replayed =
            sidl_engine::game::trace::replay_trace(game.clone(), &text, &rec, &Default::default())
                .expect("the record replays");
        let script = format!(
            "chronon.\nsubmit([p1], [p1], {a1}).\nchronon.\nsubmit([p2], [p2], {a2}).\nchronon.\n"
        );
        let items: Vec<_> = sidl_engine::game::trace::parse_script(&script)
            .unwrap()
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        let local = sidl_engine::game::trace::run_trace(
            game.clone(),
            rec.seed,
            Some(&items),
            100,
            Default::default(),
        );
        assert_eq!(replayed.lines, local.lines, "group {group}");
    }
    // a group's own id exports that group alone
    let g2 = export(&server, &format!("{id}-2"), "payments.csv");
    assert_eq!(g2.lines().count(), 3, "{g2}");
    assert!(g2.contains("PC03") && g2.contains("PC04") && !g2.contains("PC01"));
}

async fn a_room_without_labels_keeps_a_browser_in_its_seat(db: Db) {
    let server = Server::start(&db, 0);
    let created = server.create(
        "games/rps.sidl",
        json!({"seed": 2, "timeout": "wait", "room": "open-room", "groups": 2}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    // both groups exist from the start, waiting; their per-seat links work as well
    let gs = groups(&server, &id);
    assert_eq!(gs.len(), 2);
    assert!(gs.iter().all(|g| g["status"] == "waiting"));
    let before = server.session(&id);
    let (status, _, body) = http_raw(&server, "GET", "/room/open-room", &[]);
    assert_eq!(status, 200);
    assert!(body.contains("action=\"/room/open-room/join\""), "{body}");
    assert_eq!(server.session(&id), before, "a GET changes nothing");

    let (status, a, cookie_a) = room_join(&server, "open-room", None, None);
    assert_eq!(status, 303);
    // the same browser (its cookie) comes back to its seat
    let (_, again, _) = room_join(&server, "open-room", None, Some(&cookie_a));
    assert_eq!(again, a);
    // a seat's own link joins it too: the room skips it
    let g2_seat1 = token_of(gs[1]["seats"][0]["link"].as_str().unwrap());
    join(&server, &g2_seat1);
    let (_, b, _) = room_join(&server, "open-room", None, None);
    let (_, c, _) = room_join(&server, "open-room", None, None);
    let gs = groups(&server, &id);
    let tok = |g: usize, s: usize| token_of(gs[g]["seats"][s]["link"].as_str().unwrap());
    assert_eq!([a, b, c], [tok(0, 0), tok(0, 1), tok(1, 1)]);
    assert!(gs.iter().all(|g| g["status"] == "running"), "{gs:?}");
    // every seat taken: a fixed number of groups is full
    let (status, _, _) = room_join(&server, "open-room", None, None);
    assert_eq!(status, 409);
    assert_eq!(groups(&server, &id).len(), 2);
}

async fn a_disconnected_seat_gets_the_configured_policy(db: Db) {
    let server = Server::start(&db, 0);
    // {"after": 4}: a seat disconnected for 4 seconds (here: never connected) is not waited for
    // (the game's default)
    let created = server.create(
        "games/kuhn.sidl",
        json!({"seed": 5, "timeout": "wait", "disconnect": {"after": 4}}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["config"]["disconnect"], json!({"after": 4.0}));
    let t1 = token_of(created["seats"][0]["link"].as_str().unwrap());
    join(&server, &t1);
    let mut p1 = Seat::connect(&server.ws_url(&t1)).await;
    // p2 never connects: after p1 bets, p2's switch gets its default (fold)
    act(&mut p1, "[p1,bet]").await;
    let end = finished(&mut p1).await;
    assert_eq!(end["chronon"], 3);
    let wide = export(&server, &id, "wide.csv");
    assert!(wide.contains("\"[p1,bet]\""), "{wide}");
    let events = export(&server, &id, "events.jsonl");
    let last: Value = serde_json::from_str(
        events
            .lines()
            .rfind(|l| l.contains("\"event\":\"chronon\""))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(last["timeout"], true, "the default applied: {last}");

    // {"ai": SPEC, "after": 4}: an AI plays the disconnected seat
    let created = server.create(
        "games/kuhn.sidl",
        json!({"seed": 5, "timeout": "wait", "disconnect": {"ai": "minimax:2", "after": 4}}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let t1 = token_of(created["seats"][0]["link"].as_str().unwrap());
    join(&server, &t1);
    let mut p1 = Seat::connect(&server.ws_url(&t1)).await;
    act(&mut p1, "[p1,bet]").await;
    finished(&mut p1).await;
    let events = export(&server, &id, "events.jsonl");
    let ai: Vec<Value> = events
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["source"] == "disconnect-ai")
        .collect();
    assert_eq!(ai.len(), 1, "{events}");
    assert_eq!(ai[0]["player"], "[p2]");
    // a bad policy is refused
    let text = std::fs::read_to_string(repo().join("games/kuhn.sidl")).unwrap();
    let body = json!({"game": text, "config": {"disconnect": "later"}}).to_string();
    let (status, v) = server.http("POST", "/api/sessions", Some(TOKEN), Some(&body));
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad_config"))
    );
}
