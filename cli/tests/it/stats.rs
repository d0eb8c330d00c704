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
    // the throwing clause is reported under its metric's name
    let thrown = metrics
        .iter()
        .find(|m| m["name"] == "broken")
        .expect("the throwing clause");
    let text = thrown["errors"][0].as_str().unwrap();
    assert!(
        text.starts_with("metric broken threw") && text.contains("type_error(evaluable"),
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

/// The report's number format (`sidl_engine::stats::fmt_num`), written again here.
fn num(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Parses an SVG file (it must be well-formed XML with an `svg` root) and returns the texts written
/// in the colour of the bars and points: the counts over the bars, the means beside the points.
fn ink_texts(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&text)
        .unwrap_or_else(|e| panic!("{} is not well-formed: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("fill") == Some("#1F77B4"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

fn counts(path: &std::path::Path) -> Vec<usize> {
    ink_texts(path)
        .iter()
        .map(|t| t.parse().unwrap_or_else(|_| panic!("not a count: {t}")))
        .collect()
}

/// The reserve-price auction of `tests/stats/reserve.sidl`: bids uniform on 0..10, values uniform on
/// 1..10; with reserve R, E[revenue], P(sold) and E[efficiency] in closed form.
fn reserve_expectations(r: i64) -> (f64, f64, f64) {
    let p = |k: i64| (2 * k + 1) as f64 / 121.0; // P(max of two bids = k)
    let revenue: f64 = (r..=10).map(|k| k as f64 * p(k)).sum();
    let sold: f64 = (r..=10).map(p).sum();
    let mut ratio = 0.0;
    for a in 1..=10 {
        for b in 1..=10 {
            ratio += a as f64 / a.max(b) as f64 / 100.0;
        }
    }
    (revenue, sold, sold * ratio)
}

fn metric<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
}

#[test]
fn plots_show_the_counts_of_the_games_they_count() {
    let dir = tmp("plots");
    let _ = std::fs::remove_dir_all(&dir);
    let file = tmp("reserve.jsonl");
    let r = json(&[
        "stats",
        "tests/stats/reserve.sidl",
        "--games",
        "300",
        "--seed",
        "3",
        "--format",
        "json",
        "--record",
        file.to_str().unwrap(),
        "--plot",
        dir.to_str().unwrap(),
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "account-ann.svg",
            "account-bob.svg",
            "length.svg",
            "metric-efficiency.svg",
            "metric-revenue.svg",
            "metric-sold.svg"
        ]
    );
    for n in &names {
        let c = counts(&dir.join(n));
        assert_eq!(c.iter().sum::<usize>(), 300, "{n}: every game in one bar");
    }
    // every game lasts 2 chronons: one bar
    assert_eq!(counts(&dir.join("length.svg")), [300]);
    // the revenue (reserve 0: the highest bid) counted from the records themselves, one bar per
    // integer from the lowest to the highest
    let text = std::fs::read_to_string(&file).unwrap();
    let mut by_revenue = [0usize; 11];
    for line in text.lines() {
        let rec: Value = serde_json::from_str(line).unwrap();
        let bids: Vec<usize> = rec["chronons"][1]["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let a = s["action"].as_str().unwrap();
                a.trim_end_matches(']')
                    .rsplit(',')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        by_revenue[*bids.iter().max().unwrap()] += 1;
    }
    let revenue = metric(&r, "revenue");
    let (lo, hi) = (
        f(&revenue["summary"]["min"]) as usize,
        f(&revenue["summary"]["max"]) as usize,
    );
    let shown = counts(&dir.join("metric-revenue.svg"));
    assert_eq!(shown, by_revenue[lo..=hi], "bars from {lo} to {hi}");
    let mean: f64 = shown
        .iter()
        .enumerate()
        .map(|(i, c)| ((lo + i) * c) as f64)
        .sum::<f64>()
        / 300.0;
    assert!((mean - f(&revenue["summary"]["mean"])).abs() < 1e-9);
}

#[test]
fn a_sweep_of_the_reserve_price_matches_its_closed_forms() {
    let dir = tmp("sweep-plots");
    let _ = std::fs::remove_dir_all(&dir);
    let games: f64 = 1000.0;
    let r = json(&[
        "stats",
        "tests/stats/reserve.sidl",
        "--sweep",
        "reserve(R)=0,5,10,15",
        "--games",
        "1000",
        "--seed",
        "1",
        "--format",
        "json",
        "--plot",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r["pattern"], "reserve(R)");
    assert_eq!(r["variable"], "R");
    let points = r["points"].as_array().unwrap();
    let values: Vec<&str> = points
        .iter()
        .map(|p| p["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["0", "5", "10", "15"]);
    for p in points {
        let reserve: i64 = p["value"].as_str().unwrap().parse().unwrap();
        assert_eq!(f(&p["x"]), reserve as f64);
        let report = &p["report"];
        assert_eq!(report["games"], 1000);
        let (revenue, sold, efficiency) = reserve_expectations(reserve);
        for (name, expected) in [
            ("revenue", revenue),
            ("sold", sold),
            ("efficiency", efficiency),
        ] {
            let s = &metric(report, name)["summary"];
            let (mean, sd) = (f(&s["mean"]), f(&s["sd"]));
            // within four standard errors (and exactly 0 where nothing can be sold)
            assert!(
                (mean - expected).abs() <= 4.0 * sd / games.sqrt() + 1e-12,
                "R = {reserve}: {name} {mean} (sd {sd}) vs {expected}"
            );
        }
    }
    // the same seeds at every value: the same bids, so the revenue at R = 5 is the revenue at
    // R = 0 of the games whose highest bid is at least 5, read off the R = 0 histogram's bars
    let lo = f(&metric(&points[0]["report"], "revenue")["summary"]["min"]) as usize;
    let bars = counts(&dir.join("R=0").join("metric-revenue.svg"));
    let (mut sum, mut sold) = (0usize, 0usize);
    for (i, c) in bars.iter().enumerate() {
        if lo + i >= 5 {
            sum += (lo + i) * c;
            sold += c;
        }
    }
    let at5 = &points[1]["report"];
    assert!((f(&metric(at5, "revenue")["summary"]["mean"]) - sum as f64 / games).abs() < 1e-9);
    assert!((f(&metric(at5, "sold")["summary"]["mean"]) - sold as f64 / games).abs() < 1e-9);
    // the plot of revenue against R shows each value's mean
    let means: Vec<String> = points
        .iter()
        .map(|p| num(f(&metric(&p["report"], "revenue")["summary"]["mean"])))
        .collect();
    assert_eq!(ink_texts(&dir.join("sweep-metric-revenue.svg")), means);
    for n in [
        "sweep-length.svg",
        "sweep-account-ann.svg",
        "sweep-metric-efficiency.svg",
    ] {
        assert_eq!(ink_texts(&dir.join(n)).len(), 4, "{n}");
    }
    // the table and the CSV rows per value
    let args = [
        "stats",
        "tests/stats/reserve.sidl",
        "--sweep",
        "reserve(R) = 0, 10",
        "--games",
        "20",
    ];
    let (out, err, code) = sidl_in(".", &args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("sweep reserve(R): R = 0, 10\n"), "{out}");
    assert!(
        out.contains("\nR = 10\n  games                 20\n"),
        "{out}"
    );
    let (csv, err, code) = sidl_in(".", &[&args[..], &["--csv"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        csv.starts_with("R,group,statistic,subject,n,value,"),
        "{csv}"
    );
    assert!(
        csv.lines().any(|l| l.starts_with("10,,metric,revenue,20,")),
        "{csv}"
    );
}

#[test]
fn a_sweep_of_something_that_is_no_fact_is_a_clear_error() {
    for (spec, message) in [
        (
            "reservation(R)=1,2",
            "error: --sweep: the game has no `reservation/1`",
        ),
        (
            "made_bid(ann, B)=1,2",
            "error: --sweep: `made_bid/2` is not a fact: the clause on line 35 has a body",
        ),
        (
            "reserve(R, x)=1",
            "error: --sweep: the game has no `reserve/2`: the game has reserve/1",
        ),
        ("reserve(R)", "has no `=`"),
    ] {
        let (out, err, code) = sidl_in(
            ".",
            &[
                "stats",
                "tests/stats/reserve.sidl",
                "--sweep",
                spec,
                "--games",
                "2",
            ],
        );
        assert_eq!(code, 1, "{spec}: {out}");
        assert!(err.contains(message), "{spec}: {err}");
    }
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
