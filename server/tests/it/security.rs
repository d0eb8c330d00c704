//! What is refused, and that a refusal changes nothing: admin routes without the admin token, a
//! forged link, another seat's switch, a past chronon, garbage and oversized frames, an unknown
//! session, a body that is not JSON.

use crate::support::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

on_both_backends!(refused_and_nothing_changed);

async fn refused_and_nothing_changed(db: Db) {
    let server = Server::start(&db, 0);
    let created = server.create("games/rps.sidl", json!({"seed": 1, "timeout": "wait"}));
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| token_of(s["link"].as_str().unwrap()))
        .collect();

    // admin routes need the admin token
    for (method, path) in [
        ("GET", "/api/sessions".to_string()),
        ("GET", format!("/api/sessions/{id}")),
        ("POST", "/api/sessions".to_string()),
    ] {
        let (status, v) = server.http(method, &path, None, Some("{}"));
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (401, Some("forbidden"))
        );
        let (status, _) = server.http(method, &path, Some("not-the-token"), Some("{}"));
        assert_eq!(status, 401);
        // a seat's token is not the admin token
        let (status, _) = server.http(method, &path, Some(&tokens[0]), Some("{}"));
        assert_eq!(status, 401);
    }
    // unknown session, bad JSON, a game that does not load, a player that is not one
    let (status, v) = server.http("GET", "/api/sessions/nosuch", Some(TOKEN), None);
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (404, Some("unknown_session"))
    );
    let (status, v) = server.http("POST", "/api/sessions", Some(TOKEN), Some("{\"game\": "));
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad_json"))
    );
    let (status, v) = server.http(
        "POST",
        "/api/sessions",
        Some(TOKEN),
        Some(&json!({"game": "init([a]"}).to_string()),
    );
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("game_does_not_load"))
    );
    assert!(v["error"]["details"][0]["code"]
        .as_str()
        .unwrap()
        .starts_with('E'));
    let rps = std::fs::read_to_string(repo().join("games/rps.sidl")).unwrap();
    let body = json!({"game": rps, "config": {"seats": {"carol": "random"}}}).to_string();
    let (status, v) = server.http("POST", "/api/sessions", Some(TOKEN), Some(&body));
    assert_eq!((status, v["error"]["code"].as_str()), (400, Some("E0943")));
    let (status, v) = server.http(
        "POST",
        "/api/sessions",
        Some(TOKEN),
        Some(&"x".repeat(2 << 20)),
    );
    assert_eq!(status, 413, "{v}");
    let (_, v) = server.http("GET", "/api/sessions", Some(TOKEN), None);
    assert_eq!(
        v["sessions"].as_array().unwrap().len(),
        1,
        "no refused request made a session"
    );

    // a forged link opens nothing
    let forged = "0".repeat(64);
    for (method, path) in [
        ("GET", format!("/p/{forged}")),
        ("POST", format!("/p/{forged}/join")),
        ("GET", format!("/p/{forged}/play")),
    ] {
        let (status, _) = server.http(method, &path, None, None);
        assert_eq!(status, 404, "{method} {path}");
    }
    assert!(tokio_tungstenite::connect_async(server.ws_url(&forged))
        .await
        .is_err());

    join(&server, &tokens[0]);
    let mut a = Seat::connect(&server.ws_url(&tokens[0])).await;
    a.until("state", |_| true).await;
    // another seat's switch, with this seat's token
    let v = a.submit(0, "[role2]", "[role2,paper]").await;
    assert_eq!(
        (v["type"].as_str(), v["code"].as_str()),
        (Some("error"), Some("rejected"))
    );
    assert!(v["message"].as_str().unwrap().contains("owned by"), "{v}");
    // a past (or future) chronon
    let v = a.submit(3, "[role1]", "[role1,paper]").await;
    assert_eq!(v["code"], "stale_chronon");
    // an action that is not one, a term that does not parse
    assert_eq!(
        a.submit(0, "[role1]", "[role1,lizard]").await["code"],
        "rejected"
    );
    assert_eq!(a.submit(0, "[role1]", "[role1,").await["code"], "bad_term");
    // garbage
    for (frame, code) in [
        (Message::Text("not json".into()), "bad_json"),
        (
            Message::Text("{\"type\": \"launch\"}".into()),
            "bad_message",
        ),
        (
            Message::Text("{\"type\": \"submit\", \"switch\": \"[role1]\"}".into()),
            "bad_message",
        ),
        (Message::Binary(vec![0u8, 1, 2].into()), "bad_frame"),
    ] {
        a.ws.send(frame).await.unwrap();
        let v = a.until("error", |_| true).await;
        assert_eq!(v["code"], code);
    }
    let live = server.session(&id)["live"].clone();
    assert_eq!(
        (live["chronon"].as_u64(), live["pending"].as_u64()),
        (Some(0), Some(0)),
        "nothing changed"
    );
    // the seat still plays after all that
    let v = a.submit(0, "[role1]", "[role1,paper]").await;
    assert_eq!(v["type"], "ack", "{v}");
    assert_eq!(server.session(&id)["live"]["pending"], 1);

    // an oversized frame closes that socket and changes nothing
    let mut big = Seat::connect(&server.ws_url(&tokens[0])).await;
    let huge = json!({"type": "submit", "chronon": 0, "switch": "[role1]", "action": "x".repeat(64 << 10)});
    let _ = big.ws.send(Message::Text(huge.to_string().into())).await;
    let mut closed = false;
    while let Ok(Some(msg)) =
        tokio::time::timeout(std::time::Duration::from_secs(30), big.ws.next()).await
    {
        match msg {
            Ok(Message::Close(_)) | Err(_) => {
                closed = true;
                break;
            }
            Ok(Message::Text(t)) => assert!(!t.contains("\"ack\""), "{t}"),
            _ => {}
        }
    }
    assert!(closed);
    assert_eq!(server.session(&id)["live"]["pending"], 1);

    // the other seat's link before its join opens no socket
    assert!(tokio_tungstenite::connect_async(server.ws_url(&tokens[1]))
        .await
        .is_err());
}
