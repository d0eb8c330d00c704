//! `sidl stats` (docs/stats.md) against numbers computed by hand or in closed form on the games of
//! `cli/tests/stats/` (each says its expected numbers in its header), the same report from a
//! simulation and from the records it wrote, and bad records left out with a warning naming them.

use crate::common::sidl_in;
use serde_json::Value;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sidl-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn json(args: &[&str]) -> Value {
    let (out, err, code) = sidl_in(".", args);
    assert_eq!(code, 0, "sidl {args:?}: {err}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The Wilson score interval, computed here from its textbook formula.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z: f64 = 1.96;
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - half, centre + half)
}

#[test]
fn a_fair_coin_game_gives_win_shares_with_their_intervals() {
    let file = tmp("coin.jsonl");
    let r = json(&[
        "stats",
        "tests/stats/coin.sidl",
        "--games",
        "400",
        "--seed",
        "1",
        "--format",
        "json",
        "--record",
        file.to_str().unwrap(),
    ]);
    // count the wins from the records themselves
    let text = std::fs::read_to_string(&file).unwrap();
    let heads = text
        .lines()
        .filter(|l| l.contains("\"action\":\"[heads]\""))
        .count();
    assert_eq!(text.lines().count(), 400);
    assert_eq!(r["games"], 400);
    assert_eq!(r["players"][0]["wins"]["count"], heads);
    assert_eq!(r["players"][1]["wins"]["count"], 400 - heads);
    assert_eq!(r["drawishness"]["count"], 0);
    assert_eq!(r["completion"]["count"], 400);
    assert_eq!(r["constant_sum"], 0.0);
    let (lo, hi) = wilson(heads as f64, 400.0);
    let ci = &r["players"][0]["wins"]["ci95"];
    assert!(
        (f(&ci[0]) - lo).abs() < 1e-12 && (f(&ci[1]) - hi).abs() < 1e-12,
        "{ci} vs {lo} {hi}"
    );
    assert!(
        lo < 0.5 && 0.5 < hi,
        "a fair coin: 1/2 lies in the interval {lo}..{hi}"
    );
    let balance = 1.0 - (2.0 * heads as f64 - 400.0).abs() / 400.0;
    assert!((f(&r["balance"]) - balance).abs() < 1e-12);
    // the account of [a]: +1 per heads, -1 per tails
    let mean = (2.0 * heads as f64 - 400.0) / 400.0;
    assert!((f(&r["players"][0]["account"]["mean"]) - mean).abs() < 1e-12);
}

#[test]
fn first_price_revenue_matches_its_expectation_and_bad_metrics_are_reported() {
    let r = json(&[
        "stats",
        "tests/stats/firstprice.sidl",
        "--games",
        "2000",
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    let metrics = r["metrics"].as_array().unwrap();
    let revenue = metrics
        .iter()
        .find(|m| m["name"] == "revenue")
        .expect("revenue");
    let (mean, lo, hi) = (
        f(&revenue["summary"]["mean"]),
        f(&revenue["summary"]["ci95"][0]),
        f(&revenue["summary"]["ci95"][1]),
    );
    assert!(
        lo < 7.15 && 7.15 < hi,
        "E[revenue] = 7.15 in {lo}..{hi} (mean {mean})"
    );
    assert_eq!(revenue["missing"], 0);
    let kind = metrics.iter().find(|m| m["name"] == "kind").expect("kind");
    assert!(kind["summary"].is_null());
    assert_eq!(
        kind["errors"][0],
        "metric kind: first_price is not a number"
    );
    let thrown = metrics
        .iter()
        .find(|m| m["name"] == "metric/2")
        .expect("the throwing clause");
    assert!(
        thrown["errors"][0]
            .as_str()
            .unwrap()
            .contains("type_error(evaluable"),
        "{thrown}"
    );
    // both bidders bid 1..10 at random: 10 actions per decision
    assert_eq!(r["players"][0]["branching"], 10.0);
}

#[test]
fn records_give_the_report_of_the_simulation_that_wrote_them() {
    for (game, seat) in [
        ("../games/kuhn.sidl", "p1=mcts:20"),
        ("tests/stats/firstprice.sidl", "ann=mcts:20"),
        ("../games/nim.sidl", "alice=mcts:20"),
    ] {
        let file = tmp(&format!("{}.jsonl", game.replace(['/', '.'], "_")));
        let f = file.to_str().unwrap();
        let simulated = json(&[
            "stats", game, "--games", "60", "--seed", "5", "--seat", seat, "--format", "json",
            "--record", f,
        ]);
        let recorded = json(&["stats", game, "--records", f, "--format", "json"]);
        assert_eq!(simulated, recorded, "{game}");
    }
}

#[test]
fn groups_of_records_are_compared_side_by_side() {
    let a = tmp("random.jsonl");
    let b = tmp("mcts.jsonl");
    let _ = json(&[
        "stats",
        "../games/nim.sidl",
        "--games",
        "20",
        "--format",
        "json",
        "--record",
        a.to_str().unwrap(),
    ]);
    let _ = json(&[
        "stats",
        "../games/nim.sidl",
        "--games",
        "20",
        "--seat",
        "alice=mcts:50",
        "--format",
        "json",
        "--record",
        b.to_str().unwrap(),
    ]);
    let r = json(&[
        "stats",
        "../games/nim.sidl",
        "--records",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(r["games"], 40);
    let groups = r["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{groups:?}");
    assert_eq!(groups[0][0], "[alice]=random [bob]=random");
    assert_eq!(groups[1][0], "[alice]=mcts:50 [bob]=random");
    assert_eq!(groups[0][1]["games"], 20);
    let (out, _, code) = sidl_in(
        ".",
        &[
            "stats",
            "../games/nim.sidl",
            "--records",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0);
    assert!(out.contains("group [alice]=mcts:50 [bob]=random"), "{out}");
    let (csv, _, code) = sidl_in(
        ".",
        &[
            "stats",
            "../games/nim.sidl",
            "--records",
            a.to_str().unwrap(),
            "--csv",
        ],
    );
    assert_eq!(code, 0);
    assert!(csv.starts_with("group,statistic,subject,n,value,sd,ci_low,ci_high,min,median,max\n"));
    assert!(
        csv.lines().any(|l| l.starts_with(",wins,[alice],20,")),
        "{csv}"
    );
}

#[test]
fn bad_records_are_left_out_with_a_warning_naming_them() {
    let good = tmp("good.jsonl");
    let _ = json(&[
        "stats",
        "../games/kuhn.sidl",
        "--games",
        "3",
        "--format",
        "json",
        "--record",
        good.to_str().unwrap(),
    ]);
    let other = tmp("other.jsonl");
    let _ = json(&[
        "stats",
        "../games/nim.sidl",
        "--games",
        "1",
        "--format",
        "json",
        "--record",
        other.to_str().unwrap(),
    ]);
    let mut text = std::fs::read_to_string(&good).unwrap();
    text.push_str(&std::fs::read_to_string(&other).unwrap());
    text.push_str("{\"format\":\"sidl-record/1\",\"game\n");
    let mixed = tmp("mixed.jsonl");
    std::fs::write(&mixed, &text).unwrap();
    let (out, err, code) = sidl_in(
        ".",
        &[
            "stats",
            "../games/kuhn.sidl",
            "--records",
            mixed.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["games"], 3);
    assert!(
        err.contains(
            "record on line 4: the record was made with another version of the game `nim`"
        ),
        "{err}"
    );
    assert!(err.contains("record on line 5: not a record"), "{err}");
    assert!(err.contains("2 record(s) or line(s) left out"), "{err}");
}

#[test]
fn players_are_named_by_their_labels_and_json_keeps_the_terms() {
    // docs/stats.md "Labels": games/kuhn.sidl names [p1] "Player 1"
    let v = json(&[
        "stats",
        "../games/kuhn.sidl",
        "--games",
        "20",
        "--format",
        "json",
    ]);
    let players = v["players"].as_array().expect("players");
    assert_eq!(players[0]["player"], "[p1]");
    assert_eq!(players[0]["label"], "Player 1");
    assert_eq!(players[1]["label"], "Player 2");
    let (out, err, code) = sidl_in("..", &["stats", "games/kuhn.sidl", "--games", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l.starts_with("Player 1 ")), "{out}");
    // a game without labels: no label field
    let v = json(&[
        "stats",
        "tests/stats/coin.sidl",
        "--games",
        "2",
        "--format",
        "json",
    ]);
    assert!(v["players"][0].get("label").is_none(), "{v}");
}
